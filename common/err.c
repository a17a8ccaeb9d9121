/* err.c: messages, the program name, allocation that never returns NULL */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "kh.h"

const char *kh_prog = "kh";

void
kh_init(const char *argv0)
{
	const char *s = argv0 ? strrchr(argv0, '/') : NULL;

	kh_prog = s ? s + 1 : argv0 ? argv0 : "kh";
	/* Downstream closing early (| head) ends us quietly, as for git. */
	signal(SIGPIPE, SIG_DFL);
}

static void
vmsg(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", kh_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
kh_warn(const char *fmt, ...)
{
	va_list ap;

	if (kh_opt.quiet)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
kh_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
kh_note(const char *fmt, ...)
{
	va_list ap;

	if (!kh_opt.verbose || kh_opt.quiet)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
kh_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(code);
}

static void *
oom(void *p)
{
	if (p == NULL)
		kh_die(KH_SYS, "out of memory");
	return p;
}

void *
kh_malloc(size_t n)
{
	return oom(malloc(n ? n : 1));
}

void *
kh_calloc(size_t n, size_t size)
{
	return oom(calloc(n ? n : 1, size ? size : 1));
}

void *
kh_realloc(void *p, size_t n)
{
	return oom(realloc(p, n ? n : 1));
}

char *
kh_strdup(const char *s)
{
	return oom(strdup(s));
}

char *
kh_strndup(const char *s, size_t n)
{
	char *p = kh_malloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
kh_asprintf(const char *fmt, ...)
{
	struct kh_buf b = { 0 };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		kh_die(KH_SYS, "cannot format message");
	b.p = kh_malloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(b.p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return b.p;
}
