/*
 * codeforces.c: kh-fetch codeforces, competitive-programming ratings.
 *
 * One user.info call takes up to 10,000 handles separated by ";" and
 * answers {"status":"OK","result":[User...]} in the order asked, or
 * {"status":"FAILED","comment":"..."}; the body says which, whatever the
 * HTTP status. The API allows one call every 2 seconds. Unrated users have
 * no rating, maxRating, rank or maxRank keys: those fields are null.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fetch.h"

#define CF_URL "https://codeforces.com"
#define BATCH 10000		/* handles per user.info call */
#define CF_AGE 86400		/* ratings change at most after a contest */

static const char usage[] =
    "Usage: kh-fetch codeforces [-hqVv] [--strict] [--max-line=BYTES] "
    "[--unbuffered]\n"
    "                           [HANDLE...]\n"
    "\n"
    "One rating evidence record per Codeforces handle (none: handles from\n"
    "standard input, one a line).\n"
    "\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "  -q, --quiet          mute warnings\n"
    "  -v, --verbose        counts at the end\n"
    "      --strict         stop at the first bad or unknown handle (exit 3)\n"
    "      --max-line=BYTES the longest input line accepted\n"
    "      --unbuffered     flush after every record\n"
    "\n"
    "Environment: KH_CODEFORCES_URL (base URL), KH_CACHE.\n";

struct handle {
	char *name;
	struct kh_pos pos;	/* where it was given, for messages */
	int done;
};

struct cf {
	struct kh_http *http;
	const char *base;
	struct handle *h;
	size_t n, cap;
};

/* Codeforces handles: 3 to 24 of letters, digits, "_", "-" and ".". */
static int
valid(const char *s)
{
	size_t n = strlen(s);

	return n >= 3 && n <= 24 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == n;
}

static void
add(struct cf *cf, const char *s, const struct kh_pos *pos)
{
	kh_count_in();
	if (!valid(s)) {
		kh_bad(pos, "not a Codeforces handle: '%s'", s);
		return;
	}
	for (size_t i = 0; i < cf->n; i++)	/* handles ignore case */
		if (strcasecmp(cf->h[i].name, s) == 0)
			return;
	if (cf->n == cf->cap) {
		cf->cap = cf->cap ? 2 * cf->cap : 64;
		cf->h = kh_realloc(cf->h, cf->cap * sizeof *cf->h);
	}
	cf->h[cf->n].name = kh_strdup(s);
	cf->h[cf->n].pos = *pos;
	cf->h[cf->n].done = 0;
	cf->n++;
}

static void
add_line(const char *line, const struct kh_pos *pos, void *cf)
{
	add(cf, line, pos);
}

static void
add_rating(cJSON *rec, const char *key, const cJSON *u, const char *from)
{
	long long v;

	if (kh_get_int(u, from, &v) == 0)
		kh_add_int(rec, key, v);
	else
		kh_add_null(rec, key);
}

static void
emit_user(struct cf *cf, const cJSON *u, const char *at)
{
	const char *handle = kh_get_str(u, "handle");
	const char *first = kh_get_str(u, "firstName");
	const char *last = kh_get_str(u, "lastName");
	cJSON *rec, *p;
	char *id, *url;

	if (handle == NULL) {
		kh_warn("codeforces: a user in the answer has no handle, "
		    "left out");
		return;
	}
	for (size_t i = 0; i < cf->n; i++)
		if (strcasecmp(cf->h[i].name, handle) == 0)
			cf->h[i].done = 1;
	id = kh_asprintf("codeforces:%s", handle);
	url = kh_asprintf("%s/profile/%s", cf->base, handle);
	rec = cJSON_CreateObject();
	kh_add_str(rec, "type", "evidence");
	kh_add_str(rec, "id", id);
	kh_add_str(rec, "kind", "rating");
	kh_add_str(rec, "source", "codeforces");
	p = cJSON_AddObjectToObject(rec, "person");
	if (first || last) {
		char *name = kh_asprintf("%s%s%s", first ? first : "",
		    first && last ? " " : "", last ? last : "");

		kh_add_str(p, "name", name);
		free(name);
	}
	kh_add_str(p, "handle", handle);
	kh_add_str(rec, "url", url);
	kh_add_str(rec, "at", at);	/* a rating is as of when it is read */
	kh_add_null(rec, "repo");
	kh_add_null(rec, "upstream");
	add_rating(rec, "rating", u, "rating");
	add_rating(rec, "max_rating", u, "maxRating");
	kh_add_str(rec, "rank_title", kh_get_str(u, "rank"));
	kh_add_str(rec, "max_rank_title", kh_get_str(u, "maxRank"));
	if (kh_get_str(u, "organization") && *kh_get_str(u, "organization"))
		kh_add_str(rec, "organization", kh_get_str(u, "organization"));
	if (kh_get_str(u, "country"))
		kh_add_str(rec, "country", kh_get_str(u, "country"));
	kh_emit(rec);
	cJSON_Delete(rec);
	free(id);
	free(url);
}

/* The handle a "not found" comment names, or NULL (caller frees). */
static char *
not_found(const char *comment)
{
	const char *p = strstr(comment, "User with handle "), *e;

	if (p == NULL)
		return NULL;
	p += strlen("User with handle ");
	if ((e = strstr(p, " not found")) == NULL)
		return NULL;
	return kh_strndup(p, (size_t)(e - p));
}

static struct handle *
find(struct cf *cf, const char *name, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!cf->h[i].done && strcasecmp(cf->h[i].name, name) == 0)
			return &cf->h[i];
	return NULL;
}

/*
 * Ask for the handles [from, to) that are not done. Returns 0; -1 when the
 * API refused the call with an HTTP 4xx, -2 on other failures (both
 * reported already).
 */
static int
batch(struct cf *cf, size_t from, size_t to)
{
	for (;;) {
		struct kh_buf url = { 0 };
		struct kh_resp r = { 0 };
		const char *end = NULL, *status, *comment;
		char at[21], *gone;
		size_t asked = 0;
		cJSON *j, *u;
		int rc = 0;

		kh_buf_addf(&url, "%s/api/user.info?handles=", cf->base);
		for (size_t i = from; i < to; i++)
			if (!cf->h[i].done)
				kh_buf_addf(&url, "%s%s", asked++ ? ";" : "",
				    cf->h[i].name);
		if (asked == 0) {
			kh_buf_free(&url);
			return 0;
		}
		if (kh_http_get(cf->http, url.p, CF_AGE, &r) != 0) {
			/* -1 only for a refusal, not for a network failure */
			rc = r.status >= 400 && r.status < 500 ? -1 : -2;
			kh_resp_free(&r);
			kh_buf_free(&url);
			return rc;
		}
		kh_iso8601(kh_now(), at);
		j = cJSON_ParseWithLengthOpts(r.body, r.len + 1, &end, 1);
		status = kh_get_str(j, "status");
		comment = kh_get_str(j, "comment");
		if (status && strcmp(status, "OK") == 0 &&
		    cJSON_IsArray(kh_get(j, "result"))) {
			cJSON_ArrayForEach(u, kh_get(j, "result"))
				emit_user(cf, u, at);
			fflush(stdout);
		} else if (status && strcmp(status, "FAILED") == 0 && comment &&
		    (gone = not_found(comment)) != NULL) {
			struct handle *h = find(cf, gone, from, to);

			free(gone);
			if (h == NULL) {
				kh_err("codeforces: %s", comment);
				kh_fail(KH_REMOTE);
				rc = -2;
			} else {
				/* drop it and ask again for the others */
				h->done = 1;
				kh_bad(&h->pos, "no Codeforces user '%s'",
				    h->name);
				rc = 1;
			}
		} else {
			kh_err("cannot use '%s': %s", url.p, status &&
			    strcmp(status, "FAILED") == 0 ? (comment ? comment :
			    "FAILED without a comment") :
			    "not a Codeforces API answer");
			kh_fail(KH_REMOTE);
			rc = -2;
		}
		cJSON_Delete(j);
		kh_resp_free(&r);
		kh_buf_free(&url);
		if (rc != 1)
			return rc == -2 ? -2 : 0;
	}
}

int
fetch_codeforces(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct kh_http_opts ho = { 0 };
	struct cf cf = { 0 };
	int c;

	kh_usage_text = usage;
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS, longopts,
	    NULL)) != -1)
		kh_opt_common(c, argv);
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		kh_loop_text(add_line, &cf);
	} else {
		for (int i = 0; i < argc; i++) {
			struct kh_pos pos = { "<operand>", (unsigned long)i + 1,
			    0 };

			add(&cf, argv[i], &pos);
		}
	}
	cf.base = getenv("KH_CODEFORCES_URL");
	if (cf.base == NULL || *cf.base == '\0')
		cf.base = CF_URL;
	ho.per_second = 0.5;	/* the API's own limit: a call every 2 s */
	ho.retries = 3;
	cf.http = kh_http_new(&ho);
	for (size_t from = 0; from < cf.n; from += BATCH) {
		size_t to = from + BATCH < cf.n ? from + BATCH : cf.n;

		/*
		 * A refused batch (Codeforces answers an unknown handle with
		 * HTTP 400, and the HTTP layer keeps no error body) is asked
		 * again one handle at a time, so the others still come and
		 * the refused handle is named.
		 */
		if (batch(&cf, from, to) == -1 && to - from > 1)
			for (size_t i = from; i < to; i++)
				if (!cf.h[i].done)
					batch(&cf, i, i + 1);
	}
	kh_http_free(cf.http);
	for (size_t i = 0; i < cf.n; i++)
		free(cf.h[i].name);
	free(cf.h);
	return kh_finish();
}
