/* t-rec.c: the bounded line reader at chunk boundaries, CRLF, no final
 * newline, embedded NUL, overlong lines; strict one-object parsing. */
#include <stdlib.h>
#include <string.h>

#include "kh.h"
#include "tap.h"

struct src {
	const char *p;
	size_t len, off, step;	/* step: most bytes handed out per read */
};

static ssize_t
src_read(void *h, char *buf, size_t n)
{
	struct src *s = h;
	size_t k = s->len - s->off;

	if (k > n)
		k = n;
	if (s->step && k > s->step)
		k = s->step;
	memcpy(buf, s->p + s->off, k);
	s->off += k;
	return (ssize_t)k;
}

/* Read all lines of data as "LEN:TEXT|" (or "LONG(LEN)|") into a string. */
static char *
lines(const char *data, size_t len, size_t step, size_t max)
{
	struct src s = { data, len, 0, step };
	struct kh_reader *r = kh_reader_new("t", src_read, &s);
	struct kh_buf out = { 0 };
	char *line;
	size_t n;
	int rc;

	while ((rc = kh_getline(r, max, &line, &n)) != 0) {
		if (rc == -1)
			kh_buf_addf(&out, "LONG(%zu)|", n);
		else if (strlen(line) != n)
			kh_buf_addf(&out, "%zu:NUL|", n);
		else
			kh_buf_addf(&out, "%zu:%s|", n, n < 40 ? line : "...");
	}
	kh_buf_addf(&out, "@%lu", kh_reader_lineno(r));
	kh_reader_free(r);
	return kh_buf_detach(&out);
}

static void
check(const char *data, size_t len, size_t max, const char *want,
    const char *name)
{
	static const size_t steps[] = { 0, 1, 2, 3, 7, 4096 };
	char title[200];

	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		char *got = lines(data, len, steps[i], max);

		snprintf(title, sizeof title, "%s (reads of %zu)", name,
		    steps[i]);
		is_str(got, want, title);
		free(got);
	}
}

static void
test_reader(void)
{
	char *big;
	size_t bl;

	check("a\nbb\n", 5, 100, "1:a|2:bb|@2", "two lines");
	check("a\nbb", 4, 100, "1:a|2:bb|@2", "no final newline");
	check("a\r\nb\r\n", 6, 100, "1:a|1:b|@2", "CRLF stripped");
	check("a\r\r\n", 4, 100, "2:a\r|@1", "only one CR stripped");
	check("", 0, 100, "@0", "empty input");
	check("\n\n", 2, 100, "0:|0:|@2", "empty lines");
	check("a\0b\nc\n", 6, 100, "3:NUL|1:c|@2", "embedded NUL kept");
	check("abcdef\nab\nabcdefgh", 18, 6,
	    "6:abcdef|2:ab|LONG(8)|@3", "overlong lines drained");
	check("abcdefg\nx\n", 10, 6, "LONG(7)|1:x|@2", "one over the cap");

	/* Lines that straddle the reader's 64 KiB chunk. */
	bl = 65536 * 2 + 100;
	big = malloc(bl);
	memset(big, 'x', bl);
	big[65530] = '\n';	/* line 1: 65530 bytes */
	big[65540] = '\n';	/* line 2: 9 bytes across the boundary */
	big[bl - 1] = '\n';
	check(big, bl, 1 << 20, "65530:...|9:xxxxxxxxx|65630:...|@3",
	    "lines across chunk boundaries");
	check(big, bl, 65535, "65530:...|9:xxxxxxxxx|LONG(65630)|@3",
	    "overlong line across chunks");
	free(big);
}

static int
parses(const char *line)
{
	struct kh_pos pos = { "t", 1, 0 };
	cJSON *j = kh_parse_line(line, strlen(line), &pos);
	int ok_ = j != NULL;

	cJSON_Delete(j);
	return ok_;
}

static void
test_parse(void)
{
	kh_opt.quiet = 1;	/* kh_bad's messages are the golden tests' job */
	ok(parses("{\"a\":1}"), "an object parses");
	ok(parses("  {\"a\":1}  "), "surrounding blanks are fine");
	ok(!parses("{\"a\":1} x"), "trailing junk is rejected");
	ok(!parses("{\"a\":1}{\"b\":2}"), "two values are rejected");
	ok(!parses("42"), "a bare scalar is rejected");
	ok(!parses("[{}]"), "an array is rejected");
	ok(!parses("{\"a\":"), "a truncated object is rejected");
	ok(!parses(""), "an empty line is rejected by the parser");
}

int
main(void)
{
	test_reader();
	test_parse();
	return done_testing();
}
