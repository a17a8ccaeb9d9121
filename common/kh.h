/*
 * kh.h: the one header of the kh shared library, sectioned by source file.
 *
 * Ownership: what a function returns is the caller's to free unless it is
 * marked "borrowed"; a record handler borrows its record (the loop deletes
 * it after the handler returns: detach or duplicate to keep any part).
 */
#ifndef KH_H
#define KH_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include <cJSON.h>

#ifndef KH_VERSION
#define KH_VERSION "0.1.0"
#endif

#if defined(__GNUC__)
#define KH_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define KH_NORETURN __attribute__((noreturn))
#else
#define KH_PRINTF(a, b)
#define KH_NORETURN
#endif

/* Exit codes: the same table is in kh(7) and in every page's EXIT STATUS. */
enum kh_exit {
	KH_OK = 0,	/* every record processed */
	KH_PARTIAL = 1,	/* finished, but records were skipped */
	KH_USAGE = 2,	/* bad option or operand */
	KH_DATA = 3,	/* stopped on bad input (--strict), or unusable input */
	KH_SYS = 4,	/* OS or I/O error, a failed write to stdout too */
	KH_REMOTE = 5	/* network or remote failure after retries */
};

/* err.c: messages "prog: what went wrong 'subject': reason" and allocation */
extern const char *kh_prog;		/* basename of argv[0] */
void kh_init(const char *argv0);	/* set kh_prog, SIGPIPE to default */
void kh_warn(const char *fmt, ...) KH_PRINTF(1, 2);	/* muted by -q */
void kh_err(const char *fmt, ...) KH_PRINTF(1, 2);	/* never muted */
void kh_note(const char *fmt, ...) KH_PRINTF(1, 2);	/* only with -v */
KH_NORETURN void kh_die(int code, const char *fmt, ...) KH_PRINTF(2, 3);
void *kh_malloc(size_t n);		/* these exit 4 when memory runs out */
void *kh_calloc(size_t n, size_t size);
void *kh_realloc(void *p, size_t n);
char *kh_strdup(const char *s);
char *kh_strndup(const char *s, size_t n);
char *kh_asprintf(const char *fmt, ...) KH_PRINTF(1, 2);

/* buf.c: a growable byte buffer that refuses to grow past max (0: no cap) */
struct kh_buf {
	char *p;	/* always NUL-terminated once anything was added */
	size_t len, cap, max;
};
int kh_buf_add(struct kh_buf *b, const void *s, size_t n); /* -1 over max */
/* Make room for n more bytes (+ the NUL) without adding them: -1 over max. */
int kh_buf_grow(struct kh_buf *b, size_t n);
int kh_buf_addc(struct kh_buf *b, int c);
int kh_buf_adds(struct kh_buf *b, const char *s);
int kh_buf_addf(struct kh_buf *b, const char *fmt, ...) KH_PRINTF(2, 3);
void kh_buf_reset(struct kh_buf *b);	/* len = 0, keeps memory */
void kh_buf_free(struct kh_buf *b);
char *kh_buf_detach(struct kh_buf *b);	/* the bytes, caller frees */

/* opt.c: the shared flags and option helpers */
struct kh_opts {
	int quiet, verbose, strict, unbuffered;
	size_t max_line;
};
extern struct kh_opts kh_opt;
#define KH_LINE_MAX ((size_t)16 << 20)
enum { KH_OPT_STRICT = 0x100, KH_OPT_MAXLINE, KH_OPT_UNBUFFERED,
	KH_OPT_TOOL = 0x200 /* first free value for a tool's long-only flags */ };
#define KH_SHORTOPTS ":hVqv"	/* leading colon: we report missing arguments */
#define KH_LONGOPTS \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "strict", no_argument, NULL, KH_OPT_STRICT }, \
	{ "max-line", required_argument, NULL, KH_OPT_MAXLINE }, \
	{ "unbuffered", no_argument, NULL, KH_OPT_UNBUFFERED }
/* The text printed by --help, "Usage: ..." first; each tool sets it. */
extern const char *kh_usage_text;
/*
 * Handle one getopt_long result c that the tool did not claim: the shared
 * flags, or an unknown option / missing argument (exit 2). Call it from the
 * default: branch of the switch.
 */
void kh_opt_common(int c, char **argv);
KH_NORETURN void kh_usage(const char *fmt, ...) KH_PRINTF(1, 2);
/* Parse a whole decimal number in [min, max] or exit 2 naming the option. */
long long kh_opt_num(const char *opt, const char *arg, long long min,
    long long max);

/* rec.c: the bounded line reader, the record loop, output */
struct kh_reader;
/* A byte source: returns bytes read, 0 at end, -1 on error (errno set). */
typedef ssize_t (*kh_read_fn)(void *h, char *buf, size_t n);
struct kh_reader *kh_reader_new(const char *name, kh_read_fn fn, void *h);
struct kh_reader *kh_reader_fd(const char *name, int fd);
void kh_reader_free(struct kh_reader *r);	/* does not close h */
/*
 * Next line without its "\n" (and a trailing "\r"), NUL-terminated, borrowed
 * until the next call. Returns 1 and sets *line and *len; 0 at end of input;
 * -1 when the line is longer than max (it is drained; *len is its length);
 * -2 on a read error (errno set).
 */
int kh_getline(struct kh_reader *r, size_t max, char **line, size_t *len);
unsigned long kh_reader_lineno(const struct kh_reader *r);

struct kh_pos {
	const char *file;	/* "<stdin>" for standard input */
	unsigned long line;
	unsigned long col;	/* 1-based byte column, 0 when not known */
};
/*
 * Report a bad record as "prog: file:line[:col]: message", count it as
 * skipped; under --strict exit 3. After 20 messages the rest are counted
 * silently.
 */
void kh_bad(const struct kh_pos *pos, const char *fmt, ...) KH_PRINTF(2, 3);
/* Parse one line as exactly one JSON object; on error report with kh_bad. */
cJSON *kh_parse_line(const char *line, size_t len, const struct kh_pos *pos);
/*
 * The handler sees one record (borrowed) and returns 0, or -1 after it
 * reported the record with kh_bad.
 */
typedef int (*kh_handler)(cJSON *rec, const struct kh_pos *pos, void *ctx);
/*
 * Run fn over every record of the operands (none, or "-": stdin). The loop
 * owns the bad-line policy: blank lines are ignored, bad lines reported and
 * skipped, a record without a string "type" is a missing required field.
 */
void kh_loop(int argc, char **argv, kh_handler fn, void *ctx);
/* Same for one reader (kh-fetch events feeds gzip through this). */
void kh_loop_reader(struct kh_reader *r, kh_handler fn, void *ctx);
/*
 * Lines of text rather than records (handles, URLs) from standard input:
 * fn sees each line trimmed of blanks, never a blank line or a "#"
 * comment; an overlong line is a bad record, a read error exit status 4.
 */
typedef void (*kh_text_fn)(const char *line, const struct kh_pos *pos,
    void *ctx);
void kh_loop_text(kh_text_fn fn, void *ctx);
/* Write one record as a compact line to stdout. */
void kh_emit(const cJSON *rec);
/* Count a record read from a source that is not the loop (e.g. git). */
void kh_count_in(void);
/* Record an error that must show in the exit status (4 or 5) and go on. */
void kh_fail(int code);
/* Flush stdout, print the summary, return the exit status for main. */
int kh_finish(void);

/* json.c: exact output and field access */
/* Append rec as compact JSON: exact integers, valid UTF-8 (bad bytes U+FFFD) */
void kh_json_write(struct kh_buf *b, const cJSON *item);
void kh_json_string(struct kh_buf *b, const char *s, size_t n);
void kh_json_number(struct kh_buf *b, double d);
char *kh_json_print(const cJSON *item);
/* Copy s with invalid UTF-8 sequences replaced by U+FFFD. */
char *kh_utf8_repair(const char *s, size_t n);
/* Borrowed lookup by a dotted path, "person.login"; NULL when absent. */
cJSON *kh_get(const cJSON *obj, const char *path);
/* String at path or NULL (borrowed). */
const char *kh_get_str(const cJSON *obj, const char *path);
/* Integer at path (a whole number, or a string of digits): 0 ok, -1 not. */
int kh_get_int(const cJSON *obj, const char *path, long long *out);
/* Add helpers: a NULL string adds null. */
cJSON *kh_add_str(cJSON *obj, const char *key, const char *s);
cJSON *kh_add_strn(cJSON *obj, const char *key, const char *s, size_t n);
cJSON *kh_add_int(cJSON *obj, const char *key, long long v);
cJSON *kh_add_bool(cJSON *obj, const char *key, int v);
cJSON *kh_add_null(cJSON *obj, const char *key);
/* Replace or add key (keeps the position of an existing key). */
void kh_set(cJSON *obj, const char *key, cJSON *item);

/* time.c: the clock and ISO-8601 */
time_t kh_now(void);			/* KH_NOW (epoch seconds) when set */
/* Format t as "YYYY-MM-DDTHH:MM:SSZ" into out (at least 21 bytes). */
void kh_iso8601(time_t t, char out[21]);
/*
 * Parse "YYYY-MM-DD", "YYYY-MM-DDTHH:MM:SSZ" or with a "+HH:MM" offset,
 * or "@EPOCH", into *t: 0 ok, -1 not a date.
 */
int kh_parse_time(const char *s, time_t *t);

/* data.c: runtime data in share/kh */
/*
 * The path of share/kh/NAME: $KH_DATADIR if set; else the source tree's
 * share/kh when the program runs from the build tree; else the compiled-in
 * DATADIR.
 */
char *kh_data_path(const char *name);
/* Read a whole file (capped at max bytes): NULL and errno on failure. */
char *kh_read_file(const char *path, size_t max, size_t *len);
/* Parse a JSON data file; exits 2 with a message naming the file. */
cJSON *kh_load_json(const char *path);

/* spawn.c: run programs without a shell */
struct kh_child {
	pid_t pid;
	int out;	/* read end of the child's stdout */
};
/*
 * Start argv[0] (searched in PATH) with stdout to a pipe; env entries
 * "NAME=value" are added to the environment (NULL: none). stdin is
 * /dev/null. Returns 0, or -1 with errno set.
 */
int kh_spawn(char *const argv[], char *const env[], struct kh_child *c);
/* Wait for the child: its exit status, 128+signal, or -1. Closes c->out. */
int kh_wait(struct kh_child *c);

/*
 * http.c: HTTP GET for kh-fetch (libcurl): keep-alive, TLS verification on,
 * a per-host request rate, retries with backoff that honour Retry-After and
 * rate-limit reset headers, an ETag/Last-Modified cache on disk, progress on
 * stderr when it is a terminal. Only kh-fetch links it.
 */
struct kh_http;
struct kh_http_opts {
	const char *user_agent;	/* "kh-fetch/VERSION" when NULL */
	const char *token_env;	/* name of the env var with a bearer token */
	double per_second;	/* request rate per host; 0: no limit */
	int retries;		/* attempts after the first */
	const char *cache_dir;	/* NULL: $KH_CACHE, else ~/.cache/kh */
};
struct kh_resp {
	long status;		/* HTTP status of the final answer */
	char *body;		/* NUL-terminated; served from cache on 304 */
	size_t len;
	char *next;		/* Link rel="next" URL, or NULL */
	int cached;		/* 1: came from the cache (fresh or 304) */
	char *last;		/* Link rel="last" URL, or NULL (added) */
};
struct kh_http *kh_http_new(const struct kh_http_opts *o);
void kh_http_free(struct kh_http *h);
/*
 * GET url. max_age: seconds a cached copy is used without asking again
 * (0: always revalidate; -1: forever). Returns 0 with *r filled for a 2xx
 * (or a 304 served from the cache); -1 after a message when it failed for
 * good (4xx, or 5xx and network errors after the retries), with
 * kh_fail(KH_REMOTE) recorded and r->status set when there was an answer.
 */
int kh_http_get(struct kh_http *h, const char *url, long max_age,
    struct kh_resp *r);
void kh_resp_free(struct kh_resp *r);

/*
 * Added for kh-fetch github (all additive): kh_http_new2 takes the extra
 * options below; kh_http_new(o) is kh_http_new2(o, NULL).
 *
 * token_env may name several variables separated by ':' ("GITHUB_TOKEN:
 * GH_TOKEN"), the first set one wins. The token is sent only to URLs that
 * start with auth_origin ("https://api.github.com"), or with auth_origin
 * NULL to the URLs the caller asks for (never to another host a redirect
 * leads to). It is never printed; -v logs say "token sent".
 *
 * Cache: cache_dir, else $KH_CACHE, else $XDG_CACHE_HOME/kh, else
 * ~/.cache/kh. An entry is one file (a small header, then the body) written
 * to a temporary name and renamed; an entry that does not parse is deleted
 * and the URL fetched again without validators.
 *
 * Rate limits: a 403/429 with x-ratelimit-remaining 0 waits until
 * x-ratelimit-reset as measured against the answer's Date, plus 1 s; one
 * with Retry-After waits that long; one saying "secondary rate limit" (or
 * "abuse") without Retry-After waits $KH_SECONDARY_WAIT seconds (default 60)
 * doubling each time. Waits stop every request of that bucket ("search" for
 * /search/ URLs, else "core"). Retries of 5xx and transport errors back off
 * exponentially from $KH_RETRY_WAIT_MS (default 500) with jitter.
 */
/* Extra options; pass to kh_http_new2 (kh_http_new uses zeros). */
struct kh_http_opts2 {
	int parallel;		/* transfers at once; 0: 4 */
	long timeout;		/* seconds per attempt; 0: 60 */
	int no_cache;		/* neither read nor write the cache */
	int offline;		/* answer from the cache only */
	int no_wait;		/* on a rate limit: stop, see kh_http_stopped */
	const char *auth_origin;	/* token only to URLs under this */
	const char *const *headers;	/* extra "Name: value" lines, NULL-ended */
};
struct kh_http *kh_http_new2(const struct kh_http_opts *o,
    const struct kh_http_opts2 *o2);
/*
 * The parallel interface. kh_http_queue adds a GET; kh_http_run performs
 * everything queued, up to `parallel` at once over kept-alive connections,
 * and calls cb once per queued URL: ok 1 with r filled (r->cached when it
 * came from the cache), or ok 0 after the failure was reported (r->status
 * set when there was an answer). r is borrowed: take r->body (set it to
 * NULL) to keep it. cb returns 0, or -1 to say the body is malformed: the
 * URL is then fetched again (a retry) and reported when retries run out.
 * Callbacks may queue more. Returns the number of URLs that failed.
 */
typedef int (*kh_http_cb)(struct kh_http *h, struct kh_resp *r, int ok,
    void *arg);
void kh_http_queue(struct kh_http *h, const char *url, long max_age,
    kh_http_cb cb, void *arg);
int kh_http_run(struct kh_http *h);
/* Non-zero once --no-wait met a rate limit: the epoch second it resets. */
time_t kh_http_stopped(const struct kh_http *h);
/* The URL of rel in a Link header value, or NULL; caller frees. */
char *kh_http_link(const char *link, const char *rel);
/* Counters for -v and the benchmark. */
struct kh_http_stats {
	unsigned long requests;	/* sent over the network */
	unsigned long not_modified;	/* of those, answered 304 */
	unsigned long from_cache;	/* answered without a request */
	unsigned long failed;
};
void kh_http_stats(const struct kh_http *h, struct kh_http_stats *s);

/*
 * signals.c: hardware evidence read from the code itself. Feed the added
 * lines of a patch file by file; comments and string literals are skipped,
 * so a term that only appears in a comment does not count.
 */
struct kh_signals;
struct kh_signals *kh_signals_new(void);
void kh_signals_file(struct kh_signals *s, const char *path); /* next file */
void kh_signals_line(struct kh_signals *s, const char *line, size_t len);
/* {"instructions":{...},"arch":[...],"dtypes":[...]}, or NULL if nothing */
cJSON *kh_signals_json(const struct kh_signals *s);
void kh_signals_free(struct kh_signals *s);
/* Nonzero when the scanner reads path (CUDA/HIP/C/C++/PTX/MLIR, Python). */
int kh_signals_code_file(const char *path);

/*
 * ident.c: the names, emails and logins people appear under, normalised
 * so that the same person's records meet (kh-authorship).
 */
/*
 * Lower-cased login without "@", or NULL when it cannot be a GitHub login
 * or names no person ("ghost", a deleted account; "web-flow", GitHub).
 */
char *kh_login_norm(const char *login);
/* Lower-cased, trimmed address ("<>" dropped), or NULL when not an address. */
char *kh_email_norm(const char *email);
/*
 * A GitHub noreply address (normalised), "login@users.noreply.github.com"
 * or "ID+login@users.noreply.github.com": 1 with *login (and *id, the
 * numeric account id of the second form, when id is not NULL) set, else 0.
 */
int kh_noreply(const char *email, char **login, char **id);
/* 1 when a normalised address names no one: root@, localhost, noreply@github.com */
int kh_email_generic(const char *email);
/* 1 for the free mail services (gmail.com, qq.com, ...): no employer */
int kh_email_personal(const char *email);
/* Lower-cased ASCII, inner blanks folded to one space; NULL when empty. */
char *kh_name_norm(const char *name);
/* 1 when a normalised name names no one: root, ubuntu, unknown, GitHub */
int kh_name_generic(const char *norm);
/* 1 for a full name safe to match on: two words or more, no initials */
int kh_name_specific(const char *norm);

/*
 * tmpl.c: a small logic-less template engine, a subset of mustache:
 *   {{name}} {{a.b}}      the value at a dotted path, escaped by esc; the
 *                         first part is looked up in the innermost section
 *                         first, then outwards; {{.}} is the current element
 *   {{#name}}..{{/name}}  a list: once per element; an object: once, inside
 *                         it; another present value: once
 *   {{^name}}..{{/name}}  once when name is absent, null, false, "" or []
 *   {{! comment }}
 * A section, close or comment tag alone on its line takes the line with it.
 * A variable that is missing, null, empty, a list or an object is an error:
 * never an empty hole or a literal "{{" in the output.
 */
struct kh_tmpl;
/* Append s[0..n) to b, escaped for the output format. */
typedef void (*kh_tmpl_esc)(struct kh_buf *b, const char *s, size_t n);
/* Told of every value a variable rendered (borrowed, from data). */
typedef void (*kh_tmpl_seen)(const cJSON *value, void *arg);
/* Parse NUL-terminated src; NULL and *err (a message naming the template
 * and line, caller frees) on a syntax error. */
struct kh_tmpl *kh_tmpl_parse(const char *name, const char *src, char **err);
/* Render data into out: 0, or -1 and *err (caller frees). */
int kh_tmpl_render(const struct kh_tmpl *t, const cJSON *data,
    kh_tmpl_esc esc, kh_tmpl_seen seen, void *arg, struct kh_buf *out,
    char **err);
void kh_tmpl_free(struct kh_tmpl *t);
/* Call fn on each piece of literal text; stops at a non-zero return. */
typedef int (*kh_tmpl_text_fn)(const char *text, unsigned line, void *arg);
int kh_tmpl_text(const struct kh_tmpl *t, kh_tmpl_text_fn fn, void *arg);
/* Escapes. text: UTF-8 repaired, control characters, newlines and runs of
 * spaces become one space, bidi controls go, ends trimmed. md: text, then
 * Markdown's inline punctuation backslash-escaped. */
void kh_tmpl_esc_text(struct kh_buf *b, const char *s, size_t n);
void kh_tmpl_esc_md(struct kh_buf *b, const char *s, size_t n);

/* mail.c: RFC 5322 messages in an mbox, for review (kh never sends mail) */
/* "Name: value\n": one line (CR, LF, controls gone), folded at 78 columns,
 * RFC 2047 encoded-words when not ASCII. */
void kh_mail_header(struct kh_buf *b, const char *name, const char *value);
/* "Name: \"Display\" <addr>\n", the display name quoted or encoded. */
void kh_mail_addr_header(struct kh_buf *b, const char *name,
    const char *display, const char *addr);
/* 1 when a is one plain ASCII address "local@domain.tld", else 0. */
int kh_mail_addr_ok(const char *a);
void kh_mail_date(time_t t, char out[48]); /* "Mon, 30 Nov 2026 ... +0000" */
/* The mbox separator "From addr Mon Nov 30 00:57:35 2026\n". */
void kh_mail_from_line(struct kh_buf *b, const char *addr, time_t t);
/* body as mbox lines: wrapped at spaces to width columns (0: never), lines
 * matching /^>*From / get one more '>' (mboxrd), each ends in "\n". */
void kh_mail_body(struct kh_buf *b, const char *body, size_t width);

#endif
