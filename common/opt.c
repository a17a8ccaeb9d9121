/* opt.c: the flags every tool shares, and option-argument helpers */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "kh.h"

struct kh_opts kh_opt = { 0, 0, 0, 0, KH_LINE_MAX };
const char *kh_usage_text = "";

void
kh_usage(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", kh_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", kh_prog);
	exit(KH_USAGE);
}

/* The option as the user typed it, for messages. */
static const char *
typed(char **argv)
{
	static char shortopt[3] = "-?";
	const char *s = argv[optind - 1];

	if (optopt && optopt < 0x100 && !(s[0] == '-' && s[1] == '-')) {
		shortopt[1] = (char)optopt;
		return shortopt;
	}
	return s;
}

void
kh_opt_common(int c, char **argv)
{
	switch (c) {
	case 'h':
		fputs(kh_usage_text, stdout);
		exit(fflush(stdout) || ferror(stdout) ? KH_SYS : KH_OK);
	case 'V':
		printf("%s %s\n", kh_prog, KH_VERSION);
		exit(fflush(stdout) || ferror(stdout) ? KH_SYS : KH_OK);
	case 'q':
		kh_opt.quiet = 1;
		return;
	case 'v':
		kh_opt.verbose++;
		return;
	case KH_OPT_STRICT:
		kh_opt.strict = 1;
		return;
	case KH_OPT_MAXLINE:
		kh_opt.max_line = (size_t)kh_opt_num("--max-line", optarg, 1,
		    (long long)1 << 40);
		return;
	case KH_OPT_UNBUFFERED:
		kh_opt.unbuffered = 1;
		return;
	case ':':
		kh_usage("option '%s' needs an argument", typed(argv));
	case '?':
		kh_usage("unknown option '%s'", typed(argv));
	default:
		kh_usage("unhandled option %d", c);
	}
}

long long
kh_opt_num(const char *opt, const char *arg, long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (arg[0] == '\0' || *end != '\0' || errno == ERANGE)
		kh_usage("option '%s' wants a number, not '%s'", opt, arg);
	if (v < min || v > max)
		kh_usage("option '%s' must be between %lld and %lld, not '%s'",
		    opt, min, max, arg);
	return v;
}
