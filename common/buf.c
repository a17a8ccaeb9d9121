/* buf.c: a growable byte buffer with a hard cap (curl's dynbuf "toobig") */
#include <stdlib.h>
#include <string.h>

#include "kh.h"

int
kh_buf_grow(struct kh_buf *b, size_t n)
{
	size_t need = b->len + n + 1;

	if (b->max && b->len + n > b->max)
		return -1;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap < need)
			cap *= 2;
		b->p = kh_realloc(b->p, cap);
		b->cap = cap;
	}
	return 0;
}

int
kh_buf_add(struct kh_buf *b, const void *s, size_t n)
{
	if (kh_buf_grow(b, n) < 0)
		return -1;
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int
kh_buf_addc(struct kh_buf *b, int c)
{
	char ch = (char)c;

	if (b->len + 2 <= b->cap && (!b->max || b->len < b->max)) {
		b->p[b->len++] = ch;	/* the common case, without a call */
		b->p[b->len] = '\0';
		return 0;
	}
	return kh_buf_add(b, &ch, 1);
}

int
kh_buf_adds(struct kh_buf *b, const char *s)
{
	return kh_buf_add(b, s, strlen(s));
}

int
kh_buf_addf(struct kh_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof small)
		return kh_buf_add(b, small, (size_t)n);
	{
		char *big = kh_malloc((size_t)n + 1);
		int rc;

		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		rc = kh_buf_add(b, big, (size_t)n);
		free(big);
		return rc;
	}
}

void
kh_buf_reset(struct kh_buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void
kh_buf_free(struct kh_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

char *
kh_buf_detach(struct kh_buf *b)
{
	char *p = b->p ? b->p : kh_strdup("");

	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}
