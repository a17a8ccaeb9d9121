/* text.c: GPU names, measured speedups and terms in titles and bodies */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

const char *const arch_names[NARCH] = {
	"volta", "turing", "ampere", "ada", "hopper", "blackwell",
	"cdna", "cdna2", "cdna3", "cdna4"
};

int
arch_index(const char *name)
{
	for (int i = 0; i < NARCH; i++)
		if (strcmp(name, arch_names[i]) == 0)
			return i;
	return -1;
}

static int
isalnum_(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

static int
lowc(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

static int
caseeq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lowc((unsigned char)a[i]) != lowc((unsigned char)b[i]))
			return 0;
	return 1;
}

/* A GPU name at s[i]: word boundaries, a plural "s" allowed after it. */
static int
gpu_at(const struct gpu *g, const char *s, size_t n, size_t i)
{
	size_t e = i + g->len;

	if (e > n || !caseeq(s + i, g->name, g->len))
		return 0;
	if (i > 0 && isalnum_((unsigned char)s[i - 1]))
		return 0;
	if (e < n && s[e] == 's' && (e + 1 == n ||
	    !isalnum_((unsigned char)s[e + 1])))
		return 1;
	return e == n || !isalnum_((unsigned char)s[e]);
}

int
gpu_find(const struct weights *w, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!w->gpu_first[(unsigned char)s[i]] ||
		    (i > 0 && isalnum_((unsigned char)s[i - 1])))
			continue;
		/* names are sorted longest first: MI300X before MI300 */
		for (int k = 0; k < w->ngpus; k++)
			if (gpu_at(&w->gpus[k], s, n, i))
				return k;
	}
	return -1;
}

void
lower_into(struct kh_buf *b, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	kh_buf_reset(b);
	kh_buf_add(b, s ? s : "", n);	/* one copy, then lowercase it */
	for (size_t i = 0; i < n; i++)
		b->p[i] = (char)lowc((unsigned char)b->p[i]);
}

int
term_in(const char *lower, size_t n, const char *term)
{
	size_t m = strlen(term);
	const char *p = lower, *end = lower + n;

	while (p + m <= end && (p = memmem(p, (size_t)(end - p), term, m))) {
		if (p == lower || !isalnum_((unsigned char)p[-1]))
			return 1;
		p++;
	}
	return 0;
}

/* Does a line talk about speed at all?  ("2x more memory" does not.) */
static int
speed_words(const char *l, size_t n)
{
	static const char *const words[] = {
		"faster", "speedup", "speed-up", "speed up", "speeds up",
		"throughput", "tflop", "gflop", "latency", "perf", "improve",
		"boost", "accelerat", "over ", " vs", "versus", "than ",
		"bandwidth", "tokens/s", "tok/s", NULL
	};

	for (int i = 0; words[i]; i++)
		if (memmem(l, n, words[i], strlen(words[i])))
			return 1;
	return 0;
}

static const char *
metric_of(const char *l, size_t n)
{
	static const char *const m[][2] = {
		{ "tflop", "TFLOPs" }, { "gflop", "GFLOPs" },
		{ "tokens/s", "throughput" }, { "tok/s", "throughput" },
		{ "throughput", "throughput" }, { "latency", "latency" },
		{ "tb/s", "bandwidth" }, { "gb/s", "bandwidth" },
		{ "bandwidth", "bandwidth" }, { "end-to-end", "end-to-end" },
		{ "e2e", "end-to-end" }, { NULL, NULL }
	};

	for (int i = 0; m[i][0]; i++)
		if (memmem(l, n, m[i][0], strlen(m[i][0])))
			return m[i][1];
	return NULL;
}

/* The baseline after "over", "vs", "than", "compared to": up to 3 words. */
static void
baseline_of(const char *orig, const char *l, size_t n, size_t from,
    char *out, size_t outsz)
{
	static const char *const intro[] = {
		" over ", " vs. ", " vs ", " versus ", " than ",
		" compared to ", " compared with ", " relative to ", NULL
	};
	static const char *const stop[] = {
		"on", "for", "at", "with", "in", "when", "and", "using", "by",
		"across", "while", "from", "to", "of", NULL
	};
	size_t best = n, blen = 0;

	out[0] = '\0';
	for (int i = 0; intro[i]; i++) {
		const char *p = memmem(l + from, n - from, intro[i],
		    strlen(intro[i]));

		if (p && (size_t)(p - l) < best) {
			best = (size_t)(p - l);
			blen = strlen(intro[i]);
		}
	}
	if (best == n)
		return;
	{
		size_t i = best + blen, o = 0;
		int words = 0;

		while (i < n && words < 3) {
			size_t s = i, k;
			int is_stop = 0;

			while (i < n && orig[i] != ' ' && orig[i] != ',' &&
			    orig[i] != ';' && orig[i] != '(' && orig[i] != ')' &&
			    orig[i] != ':' && !(orig[i] == '.' && (i + 1 == n ||
			    orig[i + 1] == ' ')))
				i++;
			k = i - s;
			for (int t = 0; stop[t]; t++)
				if (strlen(stop[t]) == k &&
				    memcmp(l + s, stop[t], k) == 0)
					is_stop = 1;
			if (k == 0 || is_stop)
				break;
			if (!(words == 0 && k == 3 && memcmp(l + s, "the", 3) ==
			    0)) {
				if (o + k + 2 >= outsz)
					break;
				if (o)
					out[o++] = ' ';
				memcpy(out + o, orig + s, k);
				o += k;
				out[o] = '\0';
				words++;
			}
			if (i < n && orig[i] != ' ')
				break;
			i++;
		}
	}
}

static double
number_before(const char *l, size_t end, size_t *start)
{
	size_t s = end;
	char tmp[32];

	while (s > 0 && ((l[s - 1] >= '0' && l[s - 1] <= '9') ||
	    l[s - 1] == '.'))
		s--;
	if (s == end || end - s >= sizeof tmp || l[s] == '.')
		return 0;
	if (s > 0 && (isalnum_((unsigned char)l[s - 1]) || l[s - 1] == '.'))
		return 0;
	memcpy(tmp, l + s, end - s);
	tmp[end - s] = '\0';
	*start = s;
	return strtod(tmp, NULL);
}

static const char *
time_unit(const char *p, const char *end)
{
	static const char *const t[] = { "us", "\xc2\xb5s", "ms", "ns",
	    "s", NULL };

	for (int i = 0; t[i]; i++) {
		size_t k = strlen(t[i]);

		if ((size_t)(end - p) >= k && memcmp(p, t[i], k) == 0 &&
		    (p + k == end || !isalnum_((unsigned char)p[k])))
			return t[i];
	}
	return NULL;
}

/*
 * Candidates in one line (lowercased copy l, original o, length n):
 * "1.3x", "1.3×", "30% faster", "from 610 to 820 TFLOPs".
 */
static int
parse_line(const struct weights *w, const char *o, const char *l, size_t n,
    const char *title, struct speedup *best)
{
	int found = 0;

	for (size_t i = 0; i < n; i++) {
		double f = 0;
		size_t s = 0, after = i;
		const char *metric = NULL;

		if (l[i] == 'x' || (l[i] == '\xc3' && i + 1 < n &&
		    l[i + 1] == '\x97')) {
			size_t e = l[i] == 'x' ? i + 1 : i + 2;
			size_t ns = i > 0 && l[i - 1] == ' ' ? i - 1 : i;

			if (e < n && (isalnum_((unsigned char)l[e]) ||
			    l[e] == '_'))
				continue;
			if (!speed_words(l, n))
				continue;
			f = number_before(l, ns, &s);
			after = e;
		} else if (l[i] == '%') {
			static const char *const up[] = { " faster",
			    " speedup", " speed-up", " higher", " more",
			    " improvement", " better", " lower", " less",
			    " reduction", " boost", " increase", NULL };
			size_t ns = i > 0 && l[i - 1] == ' ' ? i - 1 : i;
			int ok = 0;

			for (int k = 0; up[k]; k++) {
				size_t m = strlen(up[k]);

				if (i + 1 + m <= n &&
				    memcmp(l + i + 1, up[k], m) == 0)
					ok = 1;
			}
			if (!ok)
				continue;
			f = number_before(l, ns, &s);
			if (f <= 0 || f > 1000)
				continue;
			f = 1 + f / 100;
			after = i + 1;
		} else if (l[i] == 'f' && i + 5 <= n &&
		    memcmp(l + i, "from ", 5) == 0 &&
		    (i == 0 || !isalnum_((unsigned char)l[i - 1]))) {
			char *e1, *e2;
			double a = strtod(o + i + 5, &e1), b;
			const char *p = e1, *end = o + n, *unit;

			if (e1 == o + i + 5 || a <= 0)
				continue;
			while (p < end && *p == ' ')
				p++;
			/* a unit may follow the first number too */
			if (!(end - p >= 3 && memcmp(l + (p - o), "to ", 3) ==
			    0)) {
				while (p < end && *p != ' ')
					p++;
				while (p < end && *p == ' ')
					p++;
			}
			if (end - p < 3 || memcmp(l + (p - o), "to ", 3) != 0)
				continue;
			b = strtod(p + 3, &e2);
			if (e2 == p + 3 || b <= 0)
				continue;
			p = e2;
			while (p < end && *p == ' ')
				p++;
			unit = time_unit(l + (p - o), l + n);
			f = unit ? a / b : b / a;
			metric = unit ? "latency" : metric_of(l + (p - o),
			    (size_t)(end - p) < 12 ? (size_t)(end - p) : 12);
			if (!unit && metric == NULL)
				continue;	/* "from 2 to 4 warps" */
			s = i;
			after = (size_t)(e2 - o);
		} else {
			continue;
		}
		if (!(f > 1.0) || f > w->speedup.max_factor)
			continue;
		{
			struct speedup c;
			const char *m = metric ? metric : metric_of(l, n);
			int g = gpu_find(w, o, n);

			if (g < 0 && title)
				g = gpu_find(w, title, strlen(title));
			memset(&c, 0, sizeof c);
			c.factor = floor(f * 100 + 0.5) / 100;
			c.gpu = g;
			if (m)
				snprintf(c.metric, sizeof c.metric, "%s", m);
			baseline_of(o, l, n, s < after ? s : after, c.baseline,
			    sizeof c.baseline);
			if (!found || (c.gpu >= 0) > (best->gpu >= 0) ||
			    ((c.gpu >= 0) == (best->gpu >= 0) &&
			    c.factor > best->factor))
				*best = c;
			found = 1;
		}
	}
	return found;
}

int
speedup_parse(const struct weights *w, const char *title, const char *text,
    struct speedup *out)
{
	struct kh_buf low = { 0 };
	struct speedup best, c;
	const char *parts[2] = { title, text };
	int found = 0;

	memset(&best, 0, sizeof best);
	best.gpu = -1;
	for (int k = 0; k < 2; k++) {
		const char *p = parts[k];

		while (p && *p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			if (n > 0 && n < 4096) {
				lower_into(&low, p, n);
				if (parse_line(w, p, low.p, n, title, &c)) {
					if (!found || (c.gpu >= 0) >
					    (best.gpu >= 0) ||
					    ((c.gpu >= 0) == (best.gpu >= 0) &&
					    c.factor > best.factor))
						best = c;
					found = 1;
				}
			}
			p += n + (nl ? 1 : 0);
		}
	}
	kh_buf_free(&low);
	if (found)
		*out = best;
	return found;
}
