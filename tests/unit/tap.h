/* tap.h: a tiny TAP producer for the C unit tests of common/ */
#ifndef TAP_H
#define TAP_H
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static int
ok(int cond, const char *name)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, name);
	return cond;
}

static int
is_str(const char *got, const char *want, const char *name)
{
	int cond = got && want ? strcmp(got, want) == 0 : got == want;

	if (!ok(cond, name))
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)",
		    want ? want : "(null)");
	return cond;
}

static int
done_testing(void)
{
	printf("# passed %d failed %d\n", tap_n - tap_failed, tap_failed);
	return tap_failed != 0;
}
#endif
