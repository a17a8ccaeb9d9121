/* t-json.c: exact number output, string escaping and UTF-8 repair, lookups,
 * ISO-8601 times. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kh.h"
#include "tap.h"

static void
num(double d, const char *want)
{
	struct kh_buf b = { 0 };
	char name[64];

	kh_json_number(&b, d);
	snprintf(name, sizeof name, "number %s", want);
	is_str(b.p, want, name);
	kh_buf_free(&b);
}

static void
str(const char *s, size_t n, const char *want, const char *name)
{
	struct kh_buf b = { 0 };

	kh_json_string(&b, s, n);
	is_str(b.p, want, name);
	kh_buf_free(&b);
}

static void
test_numbers(void)
{
	num(0, "0");
	num(-0.0, "0");
	num(42, "42");
	num(-7, "-7");
	num(2147483648.0, "2147483648");
	num(9007199254740992.0, "9007199254740992");
	num(123456789012345678.0, "123456789012345680");
	num(0.1, "0.1");
	num(0.30000000000000004, "0.30000000000000004");
	num(1.5e-7, "1.5e-07");
	num(12.25, "12.25");
	num(1e20, "1e+20");
	num(NAN, "null");
	num(INFINITY, "null");
}

static void
test_strings(void)
{
	str("plain", 5, "\"plain\"", "plain ASCII");
	str("a\"b\\c", 5, "\"a\\\"b\\\\c\"", "quote and backslash");
	str("\n\t\r\b\f", 5, "\"\\n\\t\\r\\b\\f\"", "short escapes");
	str("\x01\x1f", 2, "\"\\u0001\\u001f\"", "control characters");
	str("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"", "valid UTF-8 kept");
	str("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"", "4-byte UTF-8 kept");
	str("Jos\xe9", 4, "\"Jos\xef\xbf\xbd\"", "Latin-1 byte replaced");
	str("\xc3", 1, "\"\xef\xbf\xbd\"", "truncated sequence replaced");
	str("\xc0\xaf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"", "overlong form replaced");
	str("\xed\xa0\x80", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
	    "surrogate replaced");
	str("\xf4\x90\x80\x80", 4,
	    "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
	    "beyond U+10FFFF replaced");
	str("/", 1, "\"/\"", "slash not escaped");
}

static void
test_repair(void)
{
	char *s = kh_utf8_repair("a\xffz", 3);

	is_str(s, "a\xef\xbf\xbdz", "kh_utf8_repair replaces bad bytes");
	free(s);
}

static void
test_lookup(void)
{
	cJSON *j = cJSON_Parse("{\"person\":{\"login\":\"al\",\"id\":12},"
	    "\"n\":2147483648,\"s\":\"123\",\"f\":1.5,\"big\":1e300}");
	long long v = 0;

	is_str(kh_get_str(j, "person.login"), "al", "dotted path");
	ok(kh_get(j, "person.none") == NULL, "missing key is NULL");
	ok(kh_get(j, "n.x") == NULL, "path through a scalar is NULL");
	ok(kh_get_int(j, "n", &v) == 0 && v == 2147483648LL,
	    "integers past 2^31 are exact");
	ok(kh_get_int(j, "s", &v) == 0 && v == 123, "digits in a string");
	ok(kh_get_int(j, "f", &v) == -1, "a fraction is not an integer");
	ok(kh_get_int(j, "big", &v) == -1, "past 2^53 is refused");
	cJSON_Delete(j);
}

static void
test_time(void)
{
	time_t t;
	char out[21];

	ok(kh_parse_time("2025-01-01", &t) == 0 && t == 1735689600,
	    "a date is midnight UTC");
	ok(kh_parse_time("2025-01-01T05:30:00+05:30", &t) == 0 &&
	    t == 1735689600, "an offset is applied");
	ok(kh_parse_time("2024-02-29T23:59:59Z", &t) == 0 && t == 1709251199,
	    "leap day");
	ok(kh_parse_time("2024-02-29T23:59:59.123Z", &t) == 0 &&
	    t == 1709251199, "fractions dropped");
	ok(kh_parse_time("@86400", &t) == 0 && t == 86400, "@epoch");
	ok(kh_parse_time("2025-13-01", &t) == -1, "month 13 refused");
	ok(kh_parse_time("2024-02-30", &t) == -1, "February 30 refused");
	ok(kh_parse_time("2023-02-29", &t) == -1, "February 29 of a common year refused");
	ok(kh_parse_time("2000-02-29", &t) == 0, "February 29 of 2000 accepted");
	ok(kh_parse_time("2025-04-31", &t) == -1, "April 31 refused");
	ok(kh_parse_time("2025-01-01junk", &t) == -1, "junk refused");
	ok(kh_parse_time("yesterday", &t) == -1, "words refused");
	kh_iso8601(1709251199, out);
	is_str(out, "2024-02-29T23:59:59Z", "ISO-8601 output in UTC");
	setenv("KH_NOW", "1000", 1);
	ok(kh_now() == 1000, "KH_NOW fixes the clock");
}

static void
test_buf(void)
{
	struct kh_buf b = { 0 };

	b.max = 8;
	ok(kh_buf_adds(&b, "12345678") == 0, "fill to the cap");
	ok(kh_buf_addc(&b, 'x') == -1, "one more byte is refused");
	ok(b.len == 8 && strcmp(b.p, "12345678") == 0,
	    "a refused add leaves the buffer as it was");
	kh_buf_reset(&b);
	ok(kh_buf_addf(&b, "%d-%s", 42, "ok") == 0 && strcmp(b.p, "42-ok") == 0,
	    "formatted add");
	kh_buf_free(&b);
}

int
main(void)
{
	test_numbers();
	test_strings();
	test_repair();
	test_lookup();
	test_time();
	test_buf();
	return done_testing();
}
