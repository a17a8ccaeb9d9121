/*
 * http.c: GET over libcurl's multi interface for kh-fetch: parallel
 * transfers on kept-alive connections (HTTP/2 when offered), compressed
 * answers, an ETag/Last-Modified cache on disk, rate limits that wait or
 * stop, retries with backoff and jitter. kh.h (section http.c) has the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "kh.h"

#define BODY_MAX ((size_t)256 << 20)	/* no API answer is near this */
#define CACHE_MAGIC "kh-cache 1\n"
enum { RES_CORE, RES_SEARCH, NRES };
static const char *const res_name[NRES] = { "core", "search" };

struct centry {			/* one cache entry, as read from disk */
	char *etag, *lastmod, *next, *last;
	time_t stored;
	char *body;
	size_t len;
};

struct xfer {
	struct kh_http *h;
	struct xfer *qnext;
	char *url;
	char *shown;		/* url with secrets masked, for messages */
	long max_age;
	kh_http_cb cb;
	void *arg;
	int attempt;		/* failed attempts so far */
	int secondary;		/* secondary-limit answers so far */
	int novalidate;		/* cache entry unusable: ask without validators */
	int res;		/* RES_CORE or RES_SEARCH */
	int auth;		/* token attached */
	double not_before;	/* monotonic seconds */
	CURL *e;
	struct curl_slist *hdrs;
	char errbuf[CURL_ERROR_SIZE];
	struct kh_buf body;
	/* from the answer's headers */
	char *etag, *lastmod, *link;
	long retry_after;	/* -1: none */
	long rl_remaining;	/* -1: none */
	time_t rl_reset, date;
	char rl_resource[24];
	struct centry *ce;
};

struct kh_http {
	CURLM *m;
	char *ua, *token, *auth_origin, *cache_dir, *key_salt;
	struct curl_slist *extra;	/* o2->headers, copied */
	int parallel, retries, no_cache, offline, no_wait;
	long timeout;
	double min_interval, last_start;
	struct xfer *qhead, *qtail;
	int active;
	double gate[NRES];	/* no request of that bucket before this */
	long remaining[NRES];
	time_t stopped;
	double secondary_wait, retry_wait;
	int tty;
	double last_progress;
	int progress_shown;
	struct kh_http_stats st;
};

static double
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
env_num(const char *name, double def)
{
	const char *s = getenv(name);
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return def;
	v = strtod(s, &end);
	return *end == '\0' && v >= 0 ? v : def;
}

/* ---- Link headers ---- */

/*
 * rel's URL in a Link value: entries are "<URL>; rel=\"a b\"" separated by
 * commas outside the angle brackets, in any order, any subset.
 */
char *
kh_http_link(const char *link, const char *rel)
{
	const char *p = link;
	size_t rl = strlen(rel);

	while (p && *p) {
		const char *lt = strchr(p, '<'), *gt, *end, *r;

		if (lt == NULL || (gt = strchr(lt, '>')) == NULL)
			return NULL;
		end = strchr(gt, ',');
		if (end == NULL)
			end = gt + strlen(gt);
		/* look for rel=... between gt and end */
		for (r = gt; r && r < end; r++) {
			const char *v;

			if (strncasecmp(r, "rel=", 4) != 0)
				continue;
			v = r + 4;
			if (*v == '"')
				v++;
			/* a space-separated list of rel values */
			while (v < end && *v != '"' && *v != ';') {
				size_t n = strcspn(v, " \";,");

				if (n == rl && strncasecmp(v, rel, rl) == 0)
					return kh_strndup(lt + 1,
					    (size_t)(gt - lt - 1));
				v += n;
				while (*v == ' ')
					v++;
			}
			break;
		}
		p = *end ? end + 1 : end;
	}
	return NULL;
}

/* ---- the cache ---- */

static unsigned long long
fnv(const char *s, unsigned long long h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* DIR/ab/cdef...: 32 hex digits of two FNV-1a hashes of the key. */
static char *
cache_path(struct kh_http *h, const char *url)
{
	char *key = kh_asprintf("%s\n%s", url, h->key_salt);
	unsigned long long a = fnv(key, 0xcbf29ce484222325ULL);
	unsigned long long b = fnv(key, 0x84222325cbf29ce4ULL ^ a);
	char *p;

	free(key);
	p = kh_asprintf("%s/%02llx/%014llx%016llx", h->cache_dir, a >> 56,
	    a & 0xffffffffffffffULL, b);
	return p;
}

static void
centry_free(struct centry *c)
{
	if (c == NULL)
		return;
	free(c->etag);
	free(c->lastmod);
	free(c->next);
	free(c->last);
	free(c->body);
	free(c);
}

/*
 * The entry format: "kh-cache 1\n", then "url URL\n", "stored EPOCH\n",
 * optional "etag V\n", "last-modified V\n", "next URL\n", "last URL\n",
 * then "length N\n\n" and exactly N bytes of body. Anything else (a torn
 * write, a foreign file, another URL hashing alike) is not an entry.
 */
static struct centry *
cache_read(struct kh_http *h, const char *url, int *corrupt)
{
	char *path = cache_path(h, url), *data, *p, *end;
	size_t len;
	struct centry *c;
	int have_url = 0, have_len = 0;

	*corrupt = 0;
	data = kh_read_file(path, BODY_MAX + 65536, &len);
	if (data == NULL) {
		free(path);
		return NULL;
	}
	c = kh_calloc(1, sizeof *c);
	p = data;
	end = data + len;
	if (len < sizeof CACHE_MAGIC - 1 ||
	    memcmp(p, CACHE_MAGIC, sizeof CACHE_MAGIC - 1) != 0)
		goto bad;
	p += sizeof CACHE_MAGIC - 1;
	while (p < end && *p != '\n') {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;

		if (nl == NULL)
			goto bad;
		*nl = '\0';
		if ((sp = strchr(p, ' ')) == NULL)
			goto bad;
		*sp++ = '\0';
		if (strcmp(p, "url") == 0) {
			if (strcmp(sp, url) != 0)
				goto bad;
			have_url = 1;
		} else if (strcmp(p, "stored") == 0)
			c->stored = (time_t)strtoll(sp, NULL, 10);
		else if (strcmp(p, "etag") == 0)
			c->etag = kh_strdup(sp);
		else if (strcmp(p, "last-modified") == 0)
			c->lastmod = kh_strdup(sp);
		else if (strcmp(p, "next") == 0)
			c->next = kh_strdup(sp);
		else if (strcmp(p, "last") == 0)
			c->last = kh_strdup(sp);
		else if (strcmp(p, "length") == 0) {
			c->len = (size_t)strtoull(sp, NULL, 10);
			have_len = 1;
		}
		p = nl + 1;
	}
	if (p >= end || !have_url || !have_len ||
	    (size_t)(end - p - 1) != c->len)
		goto bad;
	c->body = kh_malloc(c->len + 1);
	memcpy(c->body, p + 1, c->len);
	c->body[c->len] = '\0';
	free(data);
	free(path);
	return c;
bad:
	*corrupt = 1;
	unlink(path);
	free(data);
	free(path);
	centry_free(c);
	return NULL;
}

static int
mkdirs(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return 0;
}

/* Write then rename, so a reader never sees half an entry. */
static void
cache_write(struct kh_http *h, const char *url, const struct xfer *x,
    const char *next, const char *last)
{
	char *path, *tmp;
	struct kh_buf b = { 0 };
	int fd;
	static int warned;

	if (h->no_cache)
		return;
	path = cache_path(h, url);
	tmp = kh_asprintf("%s.tmp%ld", path, (long)getpid());
	kh_buf_adds(&b, CACHE_MAGIC);
	kh_buf_addf(&b, "url %s\nstored %lld\n", url, (long long)time(NULL));
	if (x->etag)
		kh_buf_addf(&b, "etag %s\n", x->etag);
	if (x->lastmod)
		kh_buf_addf(&b, "last-modified %s\n", x->lastmod);
	if (next)
		kh_buf_addf(&b, "next %s\n", next);
	if (last)
		kh_buf_addf(&b, "last %s\n", last);
	kh_buf_addf(&b, "length %zu\n\n", x->body.len);
	kh_buf_add(&b, x->body.p ? x->body.p : "", x->body.len);
	/* the directory usually exists: try the file first */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ENOENT && mkdirs(path) == 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	if (write(fd, b.p, b.len) != (ssize_t)b.len) {
		close(fd);
		unlink(tmp);
		goto fail;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		goto fail;
	}
	goto out;
fail:
	if (!warned++)
		kh_warn("cannot write the cache '%s': %s", h->cache_dir,
		    strerror(errno));
out:
	kh_buf_free(&b);
	free(tmp);
	free(path);
}

/* ---- setup ---- */

static char *
default_cache_dir(void)
{
	const char *s;

	if ((s = getenv("KH_CACHE")) && *s)
		return kh_strdup(s);
	if ((s = getenv("XDG_CACHE_HOME")) && *s == '/')
		return kh_asprintf("%s/kh", s);
	if ((s = getenv("HOME")) && *s)
		return kh_asprintf("%s/.cache/kh", s);
	return kh_strdup(".kh-cache");
}

static char *
find_token(const char *names)
{
	char *list, *save = NULL, *tok = NULL;

	if (names == NULL)
		return NULL;
	list = kh_strdup(names);
	for (char *n = strtok_r(list, ":", &save); n;
	    n = strtok_r(NULL, ":", &save)) {
		const char *v = getenv(n);

		if (v && *v) {
			tok = kh_strdup(v);
			break;
		}
	}
	free(list);
	return tok;
}

struct kh_http *
kh_http_new2(const struct kh_http_opts *o, const struct kh_http_opts2 *o2)
{
	static int inited;
	struct kh_http *h = kh_calloc(1, sizeof *h);
	static const struct kh_http_opts2 zero;

	if (!inited++) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
			kh_die(KH_SYS, "cannot initialise libcurl");
		srand((unsigned)time(NULL) ^ (unsigned)getpid());
	}
	if (o2 == NULL)
		o2 = &zero;
	h->m = curl_multi_init();
	if (h->m == NULL)
		kh_die(KH_SYS, "cannot initialise libcurl");
	h->ua = o->user_agent ? kh_strdup(o->user_agent) :
	    kh_asprintf("kh-fetch/%s", KH_VERSION);
	h->token = find_token(o->token_env);
	h->auth_origin = o2->auth_origin ? kh_strdup(o2->auth_origin) : NULL;
	h->cache_dir = o->cache_dir ? kh_strdup(o->cache_dir) :
	    default_cache_dir();
	h->parallel = o2->parallel > 0 ? o2->parallel : 4;
	h->retries = o->retries > 0 ? o->retries : 0;
	h->timeout = o2->timeout > 0 ? o2->timeout : 60;
	h->no_cache = o2->no_cache;
	h->offline = o2->offline;
	h->no_wait = o2->no_wait;
	h->min_interval = o->per_second > 0 ? 1.0 / o->per_second : 0;
	h->secondary_wait = env_num("KH_SECONDARY_WAIT", 60);
	h->retry_wait = env_num("KH_RETRY_WAIT_MS", 500) / 1000.0;
	h->tty = isatty(2);
	for (int i = 0; i < NRES; i++)
		h->remaining[i] = -1;
	for (const char *const *s = o2->headers; s && *s; s++)
		h->extra = curl_slist_append(h->extra, *s);
	/*
	 * Cache entries differ by what changes the answer: the extra headers
	 * (Accept, API version) and which token asked (Vary: Authorization).
	 * Only a hash of the token goes into the key, never the token.
	 */
	{
		struct kh_buf b = { 0 };

		for (struct curl_slist *s = h->extra; s; s = s->next)
			kh_buf_addf(&b, "%s\n", s->data);
		kh_buf_addf(&b, "token %llx", h->token ?
		    fnv(h->token, 0xcbf29ce484222325ULL) : 0ULL);
		h->key_salt = kh_buf_detach(&b);
	}
	curl_multi_setopt(h->m, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	curl_multi_setopt(h->m, CURLMOPT_MAX_HOST_CONNECTIONS,
	    (long)h->parallel);
	curl_multi_setopt(h->m, CURLMOPT_MAXCONNECTS, (long)h->parallel + 4);
	return h;
}

struct kh_http *
kh_http_new(const struct kh_http_opts *o)
{
	return kh_http_new2(o, NULL);
}

static void
progress_clear(struct kh_http *h)
{
	if (h->progress_shown) {
		fputs("\r\033[K", stderr);
		h->progress_shown = 0;
	}
}

void
kh_http_free(struct kh_http *h)
{
	if (h == NULL)
		return;
	progress_clear(h);
	curl_multi_cleanup(h->m);
	curl_slist_free_all(h->extra);
	free(h->ua);
	if (h->token) {
		memset(h->token, 0, strlen(h->token));
		free(h->token);
	}
	free(h->auth_origin);
	free(h->cache_dir);
	free(h->key_salt);
	free(h);
}

void
kh_resp_free(struct kh_resp *r)
{
	free(r->body);
	free(r->next);
	free(r->last);
	memset(r, 0, sizeof *r);
}

time_t
kh_http_stopped(const struct kh_http *h)
{
	return h->stopped;
}

void
kh_http_stats(const struct kh_http *h, struct kh_http_stats *s)
{
	*s = h->st;
}

/* ---- one transfer ---- */

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;

	if (kh_buf_add(&x->body, p, size * n) < 0)
		return 0;	/* over the cap: curl reports a write error */
	return size * n;
}

static char *
header_value(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len <= n || strncasecmp(line, name, n) != 0 || line[n] != ':')
		return NULL;
	line += n + 1;
	len -= n + 1;
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n' ||
	    line[len - 1] == ' '))
		len--;
	return kh_strndup(line, len);
}

static void
reset_headers(struct xfer *x)
{
	free(x->etag);
	free(x->lastmod);
	free(x->link);
	x->etag = x->lastmod = x->link = NULL;
	x->retry_after = x->rl_remaining = -1;
	x->rl_reset = x->date = 0;
	x->rl_resource[0] = '\0';
}

static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n;
	char *v;

	if (len >= 5 && strncmp(p, "HTTP/", 5) == 0) {
		reset_headers(x);	/* a new answer (after a redirect) */
		return len;
	}
	if ((v = header_value(p, len, "etag"))) {
		free(x->etag);
		x->etag = v;
	} else if ((v = header_value(p, len, "last-modified"))) {
		free(x->lastmod);
		x->lastmod = v;
	} else if ((v = header_value(p, len, "link"))) {
		free(x->link);
		x->link = v;
	} else if ((v = header_value(p, len, "retry-after"))) {
		char *end;
		long s = strtol(v, &end, 10);

		if (*v && *end == '\0' && s >= 0)
			x->retry_after = s;
		else {	/* an HTTP-date */
			time_t t = curl_getdate(v, NULL);

			if (t != -1)
				x->retry_after = t > time(NULL) ?
				    (long)(t - time(NULL)) : 0;
		}
		free(v);
	} else if ((v = header_value(p, len, "x-ratelimit-remaining"))) {
		x->rl_remaining = strtol(v, NULL, 10);
		free(v);
	} else if ((v = header_value(p, len, "x-ratelimit-reset"))) {
		x->rl_reset = (time_t)strtoll(v, NULL, 10);
		free(v);
	} else if ((v = header_value(p, len, "x-ratelimit-resource"))) {
		snprintf(x->rl_resource, sizeof x->rl_resource, "%s", v);
		free(v);
	} else if ((v = header_value(p, len, "date"))) {
		time_t t = curl_getdate(v, NULL);

		if (t != -1)
			x->date = t;
		free(v);
	}
	return len;
}

static int
under_origin(const char *url, const char *origin)
{
	size_t n;

	if (origin == NULL)
		return 1;	/* the caller's own URLs */
	n = strlen(origin);
	while (n && origin[n - 1] == '/')
		n--;
	return strncmp(url, origin, n) == 0 &&
	    (url[n] == '/' || url[n] == '?' || url[n] == '\0');
}

static void
xfer_free(struct xfer *x)
{
	if (x->e)
		curl_easy_cleanup(x->e);
	curl_slist_free_all(x->hdrs);
	reset_headers(x);
	kh_buf_free(&x->body);
	centry_free(x->ce);
	free(x->url);
	free(x->shown);
	free(x);
}

static void
enqueue(struct kh_http *h, struct xfer *x, int front)
{
	if (front) {
		x->qnext = h->qhead;
		h->qhead = x;
		if (h->qtail == NULL)
			h->qtail = x;
		return;
	}
	x->qnext = NULL;
	if (h->qtail)
		h->qtail->qnext = x;
	else
		h->qhead = x;
	h->qtail = x;
}

/*
 * url for messages: the values of query parameters that carry secrets
 * (OpenAlex takes its key only as api_key=) are masked, so a key from the
 * environment never reaches stderr.
 */
static char *
mask_secrets(const char *url)
{
	static const char *const names[] = { "api_key", "apikey", "key",
	    "token", "access_token", "client_secret" };
	struct kh_buf b = { 0 };
	const char *q = strchr(url, '?');

	if (q == NULL)
		return kh_strdup(url);
	kh_buf_add(&b, url, (size_t)(q - url));
	while (*q) {
		const char *p = q + 1, *end = p + strcspn(p, "&#"), *eq;
		int secret = 0;

		eq = memchr(p, '=', (size_t)(end - p));
		for (size_t i = 0; eq && i < sizeof names / sizeof *names; i++)
			if ((size_t)(eq - p) == strlen(names[i]) &&
			    strncmp(p, names[i], (size_t)(eq - p)) == 0)
				secret = 1;
		kh_buf_addc(&b, *q);
		if (secret) {
			kh_buf_add(&b, p, (size_t)(eq - p) + 1);
			kh_buf_adds(&b, "REDACTED");
		} else
			kh_buf_add(&b, p, (size_t)(end - p));
		if (*end == '#') {
			kh_buf_adds(&b, end);
			break;
		}
		q = end;
	}
	return kh_buf_detach(&b);
}

void
kh_http_queue(struct kh_http *h, const char *url, long max_age,
    kh_http_cb cb, void *arg)
{
	struct xfer *x = kh_calloc(1, sizeof *x);

	x->h = h;
	x->url = kh_strdup(url);
	x->shown = mask_secrets(url);
	x->max_age = max_age;
	x->cb = cb;
	x->arg = arg;
	x->res = strstr(url, "/search/") ? RES_SEARCH : RES_CORE;
	x->retry_after = x->rl_remaining = -1;
	enqueue(h, x, 0);
}

/* The body's "message", for reports; NULL if none. */
static char *
body_message(const struct xfer *x)
{
	cJSON *j;
	char *m = NULL;
	const char *s;

	if (x->body.len == 0)
		return NULL;
	j = cJSON_ParseWithLength(x->body.p, x->body.len);
	if ((s = kh_get_str(j, "message")) != NULL) {
		const cJSON *e = cJSON_GetArrayItem(kh_get(j, "errors"), 0);
		const char *d = kh_get_str(e, "message");

		/* 422: "Validation Failed" says less than its errors[] */
		m = d ? kh_asprintf("%s: %s", s, d) : kh_strdup(s);
	}
	cJSON_Delete(j);
	return m;
}

/* Hand the answer to the caller; returns the callback's verdict. */
static int
deliver(struct xfer *x, long status, int ok, char *body, size_t len,
    const char *next, const char *last, int cached)
{
	struct kh_resp r = { 0 };
	int rc;

	r.status = status;
	r.body = body;
	r.len = len;
	r.next = next ? kh_strdup(next) : NULL;
	r.last = last ? kh_strdup(last) : NULL;
	r.cached = cached;
	rc = x->cb ? x->cb(x->h, &r, ok, x->arg) : 0;
	kh_resp_free(&r);
	return rc;
}

static void
fail(struct xfer *x, long status, const char *why)
{
	struct kh_http *h = x->h;

	h->st.failed++;
	progress_clear(h);
	kh_err("cannot fetch '%s': %s", x->shown, why);
	kh_fail(KH_REMOTE);
	deliver(x, status, 0, NULL, 0, NULL, NULL, 0);
	xfer_free(x);
}

/* Try again later, or fail for good when the retries are used up. */
static void
retry(struct xfer *x, long status, const char *why)
{
	struct kh_http *h = x->h;
	double wait;

	if (x->attempt >= h->retries) {
		fail(x, status, why);
		return;
	}
	x->attempt++;
	/* exponential, with up to 50% jitter so parallel retries spread */
	wait = h->retry_wait * pow(2, x->attempt - 1);
	wait += wait * 0.5 * ((double)rand() / RAND_MAX);
	if (wait > 60)
		wait = 60;
	kh_note("retrying '%s' in %.1f s: %s", x->shown, wait, why);
	x->not_before = mono() + wait;
	enqueue(h, x, 1);
}

/*
 * The bucket res may send nothing for wait seconds: under --no-wait the
 * run stops (said once), else its requests are held back (said once).
 */
static void
block(struct kh_http *h, int res, double wait, const char *what)
{
	if (h->no_wait) {
		char when[21];
		time_t t = time(NULL) + (time_t)ceil(wait);

		if (!h->stopped) {
			h->stopped = t;
			kh_iso8601(t, when);
			progress_clear(h);
			kh_err("rate limit reached for '%s' until %s: stopping "
			    "(--no-wait); run the same command again after "
			    "then to resume, the answers so far are in the "
			    "cache", res_name[res], when);
		}
		kh_fail(KH_REMOTE);
		return;
	}
	if (mono() + wait > h->gate[res]) {
		h->gate[res] = mono() + wait;
		progress_clear(h);
		kh_warn("%s for '%s': waiting %.0f s", what, res_name[res],
		    ceil(wait));
	}
}

/* x met a rate limit: try it again after wait (or give it up). */
static void
hold(struct kh_http *h, struct xfer *x, double wait, const char *what)
{
	block(h, x->res, wait, what);
	if (h->no_wait) {
		h->st.failed++;
		deliver(x, 0, 0, NULL, 0, NULL, NULL, 0);
		xfer_free(x);
		return;
	}
	x->not_before = mono() + wait;
	enqueue(h, x, 1);
}

static int
is_secondary(const char *msg)
{
	return msg && (strcasestr(msg, "secondary rate limit") ||
	    strcasestr(msg, "abuse") || strcasestr(msg, "rate limit"));
}

/*
 * A transport failure in words that do not change from run to run (curl's
 * error buffer has byte counts and milliseconds); 1 if a retry may help.
 */
static int
transport_error(const struct kh_http *h, CURLcode res, char *why, size_t n)
{
	switch (res) {
	case CURLE_OPERATION_TIMEDOUT:
		snprintf(why, n, "no answer within %ld s", h->timeout);
		return 1;
	case CURLE_COULDNT_CONNECT:
		snprintf(why, n, "cannot connect");
		return 1;
	case CURLE_COULDNT_RESOLVE_HOST:
		snprintf(why, n, "cannot resolve the host");
		return 1;
	case CURLE_PARTIAL_FILE:
	case CURLE_BAD_CONTENT_ENCODING:
		snprintf(why, n, "the answer was cut short");
		return 1;
	case CURLE_GOT_NOTHING:
		snprintf(why, n, "empty answer");
		return 1;
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		snprintf(why, n, "connection reset");
		return 1;
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		snprintf(why, n, "HTTP/2 stream error");
		return 1;
	case CURLE_WRITE_ERROR:
		snprintf(why, n, "answer larger than %zu MiB", BODY_MAX >> 20);
		return 0;
	case CURLE_TOO_MANY_REDIRECTS:
		snprintf(why, n, "too many redirects");
		return 0;
	default:
		snprintf(why, n, "%s", curl_easy_strerror(res));
		return res != CURLE_URL_MALFORMAT &&
		    res != CURLE_UNSUPPORTED_PROTOCOL &&
		    res != CURLE_PEER_FAILED_VERIFICATION;
	}
}

static void
finish(struct xfer *x, CURLcode res)
{
	struct kh_http *h = x->h;
	long status = 0;
	char why[CURL_ERROR_SIZE + 64];

	curl_easy_getinfo(x->e, CURLINFO_RESPONSE_CODE, &status);
	curl_multi_remove_handle(h->m, x->e);
	curl_easy_cleanup(x->e);
	x->e = NULL;
	curl_slist_free_all(x->hdrs);
	x->hdrs = NULL;
	h->active--;
	h->st.requests++;
	if (x->rl_remaining >= 0) {
		int r = strcmp(x->rl_resource, "search") == 0 ? RES_SEARCH :
		    x->rl_resource[0] && strcmp(x->rl_resource, "core") != 0 ?
		    -1 : x->res;

		if (r >= 0)
			h->remaining[r] = x->rl_remaining;
	}
	if (res != CURLE_OK) {
		int again = transport_error(h, res, why, sizeof why);

		kh_note("GET %s: %s", x->shown, why);
		kh_buf_reset(&x->body);
		if (again)
			retry(x, 0, why);
		else
			fail(x, 0, why);
		return;
	}
	kh_note("GET %s%s -> %ld", x->shown, x->auth ? " (token sent)" : "",
	    status);
	if (((status >= 200 && status < 300) || status == 304) &&
	    x->rl_remaining == 0 && x->rl_reset > 0) {
		/* that was the last request of the window: wait before more */
		time_t now = x->date ? x->date : time(NULL);
		double wait = x->rl_reset > now ?
		    (double)(x->rl_reset - now) + 1 : 1;

		if (h->no_wait) {
			/* stop only if another request comes (start_ready) */
			if (mono() + wait > h->gate[x->res])
				h->gate[x->res] = mono() + wait;
		} else
			block(h, x->res, wait, "rate limit reached");
	}
	if (status == 304 && x->ce) {
		struct centry *c = x->ce;

		h->st.not_modified++;
		if (deliver(x, 200, 1, c->body, c->len, c->next, c->last,
		    1) < 0) {
			/* the cached copy is bad: fetch it whole */
			c->body = NULL;
			centry_free(x->ce);
			x->ce = NULL;
			x->novalidate = 1;
			enqueue(h, x, 1);
			return;
		}
		c->body = NULL;	/* deliver freed it */
		xfer_free(x);
		return;
	}
	if (status >= 200 && status < 300) {
		char *next = x->link ? kh_http_link(x->link, "next") : NULL;
		char *last = x->link ? kh_http_link(x->link, "last") : NULL;
		char *body = kh_strndup(x->body.p ? x->body.p : "",
		    x->body.len);

		if (deliver(x, status, 1, body, x->body.len, next, last,
		    0) < 0) {
			free(next);
			free(last);
			kh_buf_reset(&x->body);
			retry(x, status, "malformed JSON in the answer");
			return;
		}
		cache_write(h, x->url, x, next, last);
		free(next);
		free(last);
		xfer_free(x);
		return;
	}
	if (status == 403 || status == 429) {
		char *msg = body_message(x);
		time_t now = x->date ? x->date : time(NULL);
		int secondary = is_secondary(msg);
		int named = msg && (strcasestr(msg, "secondary") ||
		    strcasestr(msg, "abuse"));
		int primary = x->rl_remaining == 0 && x->rl_reset > 0 &&
		    !named;

		free(msg);
		if (primary) {
			/* primary: the window resets at rl_reset, server time */
			double wait = x->rl_reset > now ?
			    (double)(x->rl_reset - now) : 0;

			kh_buf_reset(&x->body);
			hold(h, x, wait + 1, "rate limit reached");
			return;
		}
		if (x->retry_after >= 0 || secondary || x->rl_remaining == 0) {
			double wait = x->retry_after >= 0 ?
			    (double)x->retry_after :
			    h->secondary_wait * pow(2, x->secondary);

			if (x->secondary++ >= h->retries && !h->no_wait) {
				snprintf(why, sizeof why, "HTTP %ld: %s, %d "
				    "retries used", status, named ?
				    "secondary rate limit" : "rate limit",
				    h->retries);
				fail(x, status, why);
				return;
			}
			kh_buf_reset(&x->body);
			hold(h, x, wait, x->rl_remaining == 0 && !named ?
			    "rate limit reached" : "secondary rate limit");
			return;
		}
	}
	if (status >= 500) {
		snprintf(why, sizeof why, "HTTP %ld", status);
		kh_buf_reset(&x->body);
		retry(x, status, why);
		return;
	}
	{
		char *msg = body_message(x);

		if (msg)
			snprintf(why, sizeof why, "HTTP %ld: %s", status, msg);
		else
			snprintf(why, sizeof why, "HTTP %ld", status);
		free(msg);
		fail(x, status, why);
	}
}

static int
fresh(const struct centry *c, long max_age)
{
	if (max_age < 0)
		return 1;
	return max_age > 0 && c->stored + max_age > time(NULL);
}

/* Answer x from the cache, or start it on the network. */
static void
start(struct kh_http *h, struct xfer *x)
{
	CURL *e;
	int corrupt = 0;

	if (!h->no_cache && x->ce == NULL && !x->novalidate)
		x->ce = cache_read(h, x->url, &corrupt);
	if (corrupt)
		kh_note("cache entry for '%s' was damaged: fetching it again",
		    x->shown);
	if (x->ce && (h->offline || fresh(x->ce, x->max_age))) {
		struct centry *c = x->ce;

		h->st.from_cache++;
		if (deliver(x, 200, 1, c->body, c->len, c->next, c->last,
		    1) < 0) {
			c->body = NULL;
			centry_free(x->ce);
			x->ce = NULL;
			if (h->offline) {
				fail(x, 0, "the cached answer is damaged "
				    "(--offline)");
				return;
			}
			x->novalidate = 1;
			enqueue(h, x, 1);
			return;
		}
		c->body = NULL;
		xfer_free(x);
		return;
	}
	if (h->offline) {
		fail(x, 0, "not in the cache (--offline)");
		return;
	}
	e = x->e = curl_easy_init();
	if (e == NULL)
		kh_die(KH_SYS, "cannot initialise libcurl");
	x->errbuf[0] = '\0';
	kh_buf_reset(&x->body);
	x->body.max = BODY_MAX;
	reset_headers(x);
	curl_easy_setopt(e, CURLOPT_URL, x->url);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(e, CURLOPT_USERAGENT, h->ua);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	/*
	 * Over TLS, wait for the first connection to say whether it speaks
	 * HTTP/2 (then every transfer shares it); plain http never does.
	 */
	if (strncmp(x->url, "https:", 6) == 0)
		curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, h->timeout);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT,
	    h->timeout < 10 ? h->timeout : 10L);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(e, CURLOPT_PRIVATE, x);
	for (struct curl_slist *s = h->extra; s; s = s->next)
		x->hdrs = curl_slist_append(x->hdrs, s->data);
	x->auth = h->token && under_origin(x->url, h->auth_origin);
	if (x->auth) {
		/* libcurl keeps bearer auth to this host across redirects */
		curl_easy_setopt(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
		curl_easy_setopt(e, CURLOPT_XOAUTH2_BEARER, h->token);
	}
	if (x->ce && !x->novalidate) {
		char *s;

		if (x->ce->etag) {
			s = kh_asprintf("If-None-Match: %s", x->ce->etag);
			x->hdrs = curl_slist_append(x->hdrs, s);
			free(s);
		}
		if (x->ce->lastmod) {
			s = kh_asprintf("If-Modified-Since: %s",
			    x->ce->lastmod);
			x->hdrs = curl_slist_append(x->hdrs, s);
			free(s);
		}
	}
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, x->hdrs);
	h->last_start = mono();
	h->active++;
	curl_multi_add_handle(h->m, e);
}

static void
progress(struct kh_http *h, int force)
{
	double now = mono();
	char rl[64] = "";

	if (!h->tty || (!force && now - h->last_progress < 0.2))
		return;
	h->last_progress = now;
	if (h->remaining[RES_CORE] >= 0)
		snprintf(rl, sizeof rl, ", %ld requests left",
		    h->remaining[RES_CORE]);
	if (h->gate[RES_CORE] > now || h->gate[RES_SEARCH] > now) {
		double g = h->gate[RES_CORE] > h->gate[RES_SEARCH] ?
		    h->gate[RES_CORE] : h->gate[RES_SEARCH];

		fprintf(stderr, "\r\033[K%s: rate limited: %.0f s to wait",
		    kh_prog, ceil(g - now));
	} else
		fprintf(stderr, "\r\033[K%s: %lu requests, %lu cached, "
		    "%d in flight%s", kh_prog, h->st.requests,
		    h->st.from_cache + h->st.not_modified, h->active, rl);
	h->progress_shown = 1;
}

/* Start what may start; returns seconds until something else may. */
static double
start_ready(struct kh_http *h)
{
	double now = mono(), soon = 1.0;
	struct xfer **pp = &h->qhead, *prev = NULL;

	/* --no-wait met a rate limit: what is queued is not sent */
	while (h->stopped && h->qhead) {
		struct xfer *x = h->qhead;

		h->qhead = x->qnext;
		if (h->qhead == NULL)
			h->qtail = NULL;
		h->st.failed++;
		deliver(x, 0, 0, NULL, 0, NULL, NULL, 0);	/* may queue */
		xfer_free(x);
	}
	while (*pp && h->active < h->parallel) {
		struct xfer *x = *pp;
		double at = x->not_before > h->gate[x->res] ? x->not_before :
		    h->gate[x->res];

		if (h->min_interval > 0 &&
		    h->last_start + h->min_interval > at)
			at = h->last_start + h->min_interval;
		if (h->no_wait && h->gate[x->res] > now) {
			/* the window is used up and we may not wait */
			block(h, x->res, h->gate[x->res] - now,
			    "rate limit reached");
			return 0;	/* come back to drain the queue */
		}
		if (at > now) {
			if (at - now < soon)
				soon = at - now;
			prev = x;
			pp = &x->qnext;
			continue;
		}
		*pp = x->qnext;
		if (h->qtail == x)
			h->qtail = prev;
		x->qnext = NULL;
		start(h, x);	/* may queue and dequeue: rescan */
		pp = &h->qhead;
		prev = NULL;
		now = mono();
	}
	return soon;
}

int
kh_http_run(struct kh_http *h)
{
	unsigned long failed0 = h->st.failed;

	while (h->qhead || h->active) {
		CURLMsg *msg;
		int running, left;
		double soon;

		start_ready(h);
		curl_multi_perform(h->m, &running);
		while ((msg = curl_multi_info_read(h->m, &left))) {
			struct xfer *x;

			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
			    (char **)&x);
			finish(x, msg->data.result);
		}
		/* what finished may have freed a slot or queued a retry */
		soon = start_ready(h);
		progress(h, 0);
		if (h->active || h->qhead) {
			int ms = (int)(soon * 1000) + 1;

			if (h->active && h->qhead == NULL)
				ms = 1000;
			curl_multi_poll(h->m, NULL, 0, ms, NULL);
		}
	}
	progress_clear(h);
	return (int)(h->st.failed - failed0);
}

/* ---- the one-at-a-time interface ---- */

struct get_ctx {
	struct kh_resp *r;
	int ok;
};

static int
get_done(struct kh_http *h, struct kh_resp *r, int ok, void *arg)
{
	struct get_ctx *g = arg;

	*g->r = *r;
	memset(r, 0, sizeof *r);	/* the caller owns it now */
	g->ok = ok;
	return 0;
}

int
kh_http_get(struct kh_http *h, const char *url, long max_age,
    struct kh_resp *r)
{
	struct get_ctx g = { r, 0 };

	memset(r, 0, sizeof *r);
	kh_http_queue(h, url, max_age, get_done, &g);
	kh_http_run(h);
	return g.ok ? 0 : -1;
}
