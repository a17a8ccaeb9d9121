/* time.c: the clock (KH_NOW for reproducible runs) and ISO-8601 in UTC */
#include <stdlib.h>
#include <string.h>

#include "kh.h"

time_t
kh_now(void)
{
	const char *s = getenv("KH_NOW");
	char *end;
	long long v;

	if (s && *s) {
		v = strtoll(s, &end, 10);
		if (*end == '\0')
			return (time_t)v;
	}
	return time(NULL);
}

void
kh_iso8601(time_t t, char out[21])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant). */
static long long
days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static int
days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return days[m - 1] + (m == 2 && leap);
}

static int
digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int
kh_parse_time(const char *s, time_t *t)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, oh = 0, om = 0, sign = 0;
	const char *p;

	if (s[0] == '@') {
		char *end;
		long long v = strtoll(s + 1, &end, 10);

		if (s[1] == '\0' || *end != '\0')
			return -1;
		*t = (time_t)v;
		return 0;
	}
	if (strlen(s) < 10 || digits(s, 4, &y) || s[4] != '-' ||
	    digits(s + 5, 2, &mo) || s[7] != '-' || digits(s + 8, 2, &d) ||
	    mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		return -1;
	p = s + 10;
	if (*p == 'T' || *p == ' ') {
		if (digits(p + 1, 2, &h) || p[3] != ':' ||
		    digits(p + 4, 2, &mi) || h > 23 || mi > 59)
			return -1;
		p += 6;
		if (*p == ':') {
			if (digits(p + 1, 2, &sec) || sec > 60)
				return -1;
			p += 3;
		}
		if (*p == '.')	/* fractions of a second are dropped */
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
		if (*p == 'Z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			sign = *p == '-' ? -1 : 1;
			if (digits(p + 1, 2, &oh) || p[3] != ':' ||
			    digits(p + 4, 2, &om))
				return -1;
			p += 6;
		}
	}
	if (*p != '\0')
		return -1;
	*t = (time_t)(days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 +
	    h * 3600 + mi * 60 + sec - sign * (oh * 3600 + om * 60));
	return 0;
}
