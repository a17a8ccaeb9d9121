/*
 * mail.c: RFC 5322 messages in an mbox, for drafts a person reviews
 * (kh never sends mail). Header values lose CR, LF and other control
 * characters, non-ASCII text becomes RFC 2047 encoded-words, body lines
 * that could be read as an mbox "From " line are quoted (mboxrd).
 */
#include <stdlib.h>
#include <string.h>

#include "kh.h"

/* One line of text: UTF-8 repaired, controls and newlines to one space. */
static char *
oneline(const char *s)
{
	struct kh_buf b = { 0 };

	kh_tmpl_esc_text(&b, s, strlen(s));
	kh_buf_add(&b, "", 0);
	return kh_buf_detach(&b);
}

static int
ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

static void
base64(struct kh_buf *b, const unsigned char *s, size_t n)
{
	static const char tab[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)s[i] << 16;

		if (i + 1 < n)
			v |= (unsigned)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		kh_buf_addc(b, tab[v >> 18 & 63]);
		kh_buf_addc(b, tab[v >> 12 & 63]);
		kh_buf_addc(b, i + 1 < n ? tab[v >> 6 & 63] : '=');
		kh_buf_addc(b, i + 2 < n ? tab[v & 63] : '=');
	}
}

/*
 * s (one line of UTF-8) as encoded-words "=?UTF-8?B?...?=" of at most 75
 * characters, never splitting a character, separated by a folding "\n ".
 */
static void
encode_words(struct kh_buf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n) {
		size_t j = i;

		/* 45 bytes make 60 base64 characters: 72 with the frame */
		while (j < n) {
			size_t k = 1;

			while (j + k < n && (u[j + k] & 0xc0) == 0x80)
				k++;
			if (j + k - i > 45)
				break;
			j += k;
		}
		if (j == i)
			j = i + 1;
		if (i > 0)
			kh_buf_adds(b, "\n ");
		kh_buf_adds(b, "=?UTF-8?B?");
		base64(b, u + i, j - i);
		kh_buf_adds(b, "?=");
		i = j;
	}
}

/* Append words of s, folding before a word that would pass 78 columns. */
static void
fold(struct kh_buf *b, const char *s, size_t col)
{
	const char *p = s;

	while (*p) {
		const char *sp = strchr(p + 1, ' ');
		size_t w = sp ? (size_t)(sp - p) : strlen(p);

		if (p != s && col + w > 78) {
			kh_buf_adds(b, "\n");
			col = 0;
		}
		kh_buf_add(b, p, w);
		col += w;
		p += w;
	}
}

void
kh_mail_header(struct kh_buf *b, const char *name, const char *value)
{
	char *v = oneline(value);

	kh_buf_addf(b, "%s: ", name);
	if (ascii(v))
		fold(b, v, strlen(name) + 2);
	else
		encode_words(b, v);
	kh_buf_addc(b, '\n');
	free(v);
}

int
kh_mail_addr_ok(const char *a)
{
	const char *at = strchr(a, '@');
	size_t n = strlen(a);

	if (at == NULL || at == a || strchr(at + 1, '@') || at[1] == '\0' ||
	    n > 254 || a[0] == '.' || at[-1] == '.' || at[1] == '.' ||
	    a[n - 1] == '.' || strstr(a, "..") || !strchr(at, '.'))
		return 0;
	for (const char *p = a; p < at; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("!#$%&'*+/=?^_`{|}~.-",
		    *p)))
			return 0;
	for (const char *p = at + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
			return 0;
	return 1;
}

void
kh_mail_addr_header(struct kh_buf *b, const char *name, const char *display,
    const char *addr)
{
	char *d = display ? oneline(display) : NULL;

	kh_buf_addf(b, "%s: ", name);
	if (d && *d && ascii(d)) {
		kh_buf_addc(b, '"');
		for (const char *p = d; *p; p++) {
			if (*p == '"' || *p == '\\')
				kh_buf_addc(b, '\\');
			kh_buf_addc(b, *p);
		}
		kh_buf_adds(b, "\" ");
	} else if (d && *d) {
		encode_words(b, d);
		kh_buf_adds(b, "\n ");
	}
	kh_buf_addf(b, "<%s>\n", addr);
	free(d);
}

static const char days[7][4] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri",
	"Sat" };
static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

void
kh_mail_date(time_t t, char out[48])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(out, 48, "%s, %02d %s %04d %02d:%02d:%02d +0000",
	    days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

void
kh_mail_from_line(struct kh_buf *b, const char *addr, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	kh_buf_addf(b, "From %s %s %s %2d %02d:%02d:%02d %04d\n", addr,
	    days[tm.tm_wday % 7], months[tm.tm_mon % 12], tm.tm_mday,
	    tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year + 1900);
}

/* Columns of s[0..n): UTF-8 continuation bytes take none. */
static size_t
columns(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

static void
body_line(struct kh_buf *b, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == '>')
		i++;
	if (n - i >= 5 && memcmp(s + i, "From ", 5) == 0)
		kh_buf_addc(b, '>');
	kh_buf_add(b, s, n);
	kh_buf_addc(b, '\n');
}

void
kh_mail_body(struct kh_buf *b, const char *body, size_t width)
{
	const char *p = body;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		/* wrap at spaces; a word longer than the width stays whole */
		while (width && columns(p, n) > width) {
			size_t cut = 0, col = 0;

			for (size_t i = 0; i < n; i++) {
				if (((unsigned char)p[i] & 0xc0) != 0x80)
					col++;
				if (p[i] == ' ' && (col <= width + 1 ||
				    cut == 0)) {
					cut = i;
					if (col > width + 1)
						break;
				}
			}
			if (cut == 0)
				break;
			body_line(b, p, cut);
			p += cut + 1;
			n -= cut + 1;
		}
		body_line(b, p, n);
		p += n + (nl ? 1 : 0);
	}
}
