/*
 * events.c: kh-fetch events, closed pull requests mined from GH Archive.
 *
 * GH Archive holds every public GitHub event, one JSON object a line, one
 * gzip file an hour; an hour is 60-130 MB compressed and about 8 times that
 * uncompressed. Almost all of it is of no interest here: we want the
 * PullRequestEvents that close a pull request in a few target repositories,
 * well under 1% of the lines. So the work is in not looking:
 *
 *  - Input is read in large blocks (inflated in-process when it is gzip)
 *    and cut into lines with memchr; no copy, no per-line allocation.
 *  - A byte-level prefilter reads only the top-level keys of a line, up to
 *    "type", "repo" and the payload's "action". GH Archive writes those
 *    first ({"id","type","actor","repo","payload":{"action",...},...}), so
 *    a line that is not a PullRequestEvent is rejected after about 40 bytes
 *    and the rest of it is never touched.
 *    It tracks JSON strings and nesting, so text inside a payload cannot
 *    fool it; any surprise (an escape in a key, bad syntax) sends the line
 *    to the real parser, which reports it if it is bad. A line it rejects
 *    is simply not an event of interest, malformed or not.
 *  - Only candidate lines are parsed with cJSON and turned into evidence.
 *
 * Memory is constant: one block buffer (it grows only to hold a line up to
 * --max-line), the zlib state, and a dedupe set of the pull requests
 * already written, capped.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "fetch.h"

static const char usage[] =
    "Usage: kh-fetch events [-hqVv] [--repos=FILE | --all-repos] "
    "[--since=DATE]\n"
    "       [--until=DATE] [--strict] [--max-line=BYTES] [--unbuffered] "
    "[FILE...]\n"
    "\n"
    "Write one pr evidence record per pull request closed in the target\n"
    "repositories, read from GH Archive files (.json.gz or NDJSON; none or\n"
    "'-' is stdin, gzip'd or not).\n"
    "\n"
    "      --repos=FILE     target repositories, OWNER/NAME a line\n"
    "                       (default: the repos.txt installed with kh)\n"
    "      --all-repos      every repository\n"
    "      --since=DATE     only pull requests closed at or after DATE\n"
    "      --until=DATE     only pull requests closed before DATE\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "  -q, --quiet          mute warnings\n"
    "  -v, --verbose        counts at the end\n"
    "      --strict         stop at the first bad record (exit 3)\n"
    "      --max-line=BYTES the longest line accepted\n"
    "      --unbuffered     flush after every record\n";

#define BLOCK ((size_t)1 << 20)	/* bytes asked of the source at a time */
#define ZIN ((size_t)256 << 10)	/* compressed bytes read at a time */
#define TEXT_MAX 8192		/* the body is capped at this many bytes */
#define SEEN_MAX ((size_t)1 << 21)	/* pull requests remembered */

/* ---- the target repositories: OWNER/NAME, matched in any case ---- */

struct repos {
	char **slot;		/* open addressing, NULL is empty */
	size_t mask, n;
};

static uint64_t
hash_lower(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		h ^= c >= 'A' && c <= 'Z' ? c + 32 : c;
		h *= 1099511628211ULL;
	}
	return h;
}

static int
repos_has(const struct repos *r, const char *s, size_t n)
{
	if (r->n == 0)
		return 0;
	for (size_t i = hash_lower(s, n) & r->mask; r->slot[i];
	    i = (i + 1) & r->mask)
		if (strlen(r->slot[i]) == n && strncasecmp(r->slot[i], s, n) == 0)
			return 1;
	return 0;
}

static void
repos_add(struct repos *r, const char *s, size_t n)
{
	size_t i;

	if (repos_has(r, s, n))
		return;
	if ((r->n + 1) * 2 > r->mask + 1) {
		struct repos big = { 0 };

		big.mask = r->mask ? r->mask * 2 + 1 : 63;
		big.slot = kh_calloc(big.mask + 1, sizeof *big.slot);
		for (i = 0; r->slot && i <= r->mask; i++) {
			size_t j;

			if (r->slot[i] == NULL)
				continue;
			j = hash_lower(r->slot[i], strlen(r->slot[i])) & big.mask;
			while (big.slot[j])
				j = (j + 1) & big.mask;
			big.slot[j] = r->slot[i];
		}
		big.n = r->n;
		free(r->slot);
		*r = big;
	}
	for (i = hash_lower(s, n) & r->mask; r->slot[i]; i = (i + 1) & r->mask)
		;
	r->slot[i] = kh_strndup(s, n);
	r->n++;
}

static void
repos_free(struct repos *r)
{
	for (size_t i = 0; r->slot && i <= r->mask; i++)
		free(r->slot[i]);
	free(r->slot);
}

static int
owner_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-';
}

/* OWNER/NAME as GitHub allows them: [A-Za-z0-9-]+ / [A-Za-z0-9._-]+ */
static int
valid_repo(const char *s, size_t n)
{
	const char *slash = memchr(s, '/', n);
	size_t i;

	if (slash == NULL || slash == s || slash == s + n - 1)
		return 0;
	for (i = 0; s + i < slash; i++)
		if (!owner_char((unsigned char)s[i]))
			return 0;
	for (i++; i < n; i++)
		if (!owner_char((unsigned char)s[i]) && s[i] != '.' &&
		    s[i] != '_')
			return 0;
	return 1;
}

/* repos.txt: OWNER/NAME a line; "#" starts a comment; blank lines ignored. */
static void
repos_load(struct repos *r, const char *path)
{
	size_t len;
	char *text = kh_read_file(path, (size_t)16 << 20, &len), *p, *end;
	unsigned long lineno = 0;

	if (text == NULL)
		kh_die(KH_USAGE, "cannot read '%s': %s", path, strerror(errno));
	for (p = text, end = text + len; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *q, *e;

		if (nl == NULL)
			nl = end;
		lineno++;
		if ((q = memchr(p, '#', (size_t)(nl - p))) == NULL)
			q = nl;
		while (p < q && (*p == ' ' || *p == '\t'))
			p++;
		for (e = q; e > p && (e[-1] == ' ' || e[-1] == '\t' ||
		    e[-1] == '\r'); e--)
			;
		if (e > p) {
			if (!valid_repo(p, (size_t)(e - p))) {
				*e = '\0';
				kh_die(KH_USAGE, "%s:%lu: not a repository '%s'",
				    path, lineno, p);
			}
			repos_add(r, p, (size_t)(e - p));
		}
		p = nl + 1;
	}
	free(text);
	if (r->n == 0)
		kh_die(KH_USAGE, "no repositories in '%s'", path);
}

/* ---- the pull requests already written: a capped set of 64-bit keys ---- */

/*
 * A key is a hash of the lowercased repository and the number; the low bit
 * says whether the record written said merged:true. At SEEN_MAX entries
 * (2M pull requests, 32 MiB; the target repositories of repos.txt have far
 * fewer, so this only matters with --all-repos) the set starts again empty.
 */
struct seen {
	uint64_t *slot;		/* 0 is empty */
	size_t mask, n;
	int warned;
};

static uint64_t
mix(uint64_t x)			/* splitmix64's finaliser */
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* The key of a pull request: its repository, in any case, and number. */
static uint64_t
pr_key(const char *repo, long long number)
{
	return mix(hash_lower(repo, strlen(repo)) ^ mix((uint64_t)number)) | 1;
}

static uint64_t *
seen_find(struct seen *s, uint64_t key)
{
	size_t i = (size_t)(key >> 1) & s->mask;

	while (s->slot[i] && (s->slot[i] | 1) != key)
		i = (i + 1) & s->mask;
	return &s->slot[i];
}

static void
seen_grow(struct seen *s)
{
	struct seen big = *s;

	big.mask = s->mask ? s->mask * 2 + 1 : 4095;
	big.slot = kh_calloc(big.mask + 1, sizeof *big.slot);
	for (size_t i = 0; s->slot && i <= s->mask; i++)
		if (s->slot[i])
			*seen_find(&big, s->slot[i] | 1) = s->slot[i];
	free(s->slot);
	*s = big;
}

/*
 * Whether to write a record for this pull request now: the first time it
 * is seen, and once more if it was written unmerged (closed, reopened) and
 * is now merged.
 */
static int
seen_check(struct seen *s, const char *repo, long long number, int merged)
{
	uint64_t key = pr_key(repo, number), *slot;

	if (s->n >= SEEN_MAX) {
		if (!s->warned)
			kh_warn("more than %zu pull requests: a pull request "
			    "seen again from now on may be written twice",
			    SEEN_MAX);
		s->warned = 1;
		memset(s->slot, 0, (s->mask + 1) * sizeof *s->slot);
		s->n = 0;
	}
	if ((s->n + 1) * 2 > s->mask + 1)
		seen_grow(s);
	slot = seen_find(s, key);
	if (*slot == 0) {
		*slot = merged == 1 ? key : key & ~(uint64_t)1;
		s->n++;
		return 1;
	}
	if (merged == 1 && (*slot & 1) == 0) {
		*slot = key;
		return 1;
	}
	return 0;
}

/*
 * ---- who opened a pull request ----
 *
 * Since 2025-10-07 a closing event no longer names the author, but the
 * actor of the "opened" event is the author. When this run reads that
 * event first, its actor is kept here to fill in person at the close.
 * Capped like the seen set, lower: past OPENERS_MAX it starts again empty.
 */
#define OPENERS_MAX ((size_t)1 << 18)

struct opener {
	uint64_t key;		/* 0: empty */
	char *login;
	long long uid;		/* -1: not known */
};

struct openers {
	struct opener *slot;
	size_t mask, n;
};

static struct opener *
openers_find(const struct openers *o, uint64_t key)
{
	size_t i = (size_t)(key >> 1) & o->mask;

	while (o->slot[i].key && o->slot[i].key != key)
		i = (i + 1) & o->mask;
	return &o->slot[i];
}

static void
openers_clear(struct openers *o)
{
	for (size_t i = 0; o->slot && i <= o->mask; i++)
		free(o->slot[i].login);
	free(o->slot);
	o->slot = NULL;
	o->mask = o->n = 0;
}

static void
openers_put(struct openers *o, uint64_t key, const char *login,
    long long uid)
{
	struct opener *e;

	if (login == NULL)
		return;
	if (o->n >= OPENERS_MAX)
		openers_clear(o);
	if ((o->n + 1) * 2 > o->mask + 1) {
		struct openers big = { 0 };

		big.mask = o->mask ? o->mask * 2 + 1 : 1023;
		big.slot = kh_calloc(big.mask + 1, sizeof *big.slot);
		for (size_t i = 0; o->slot && i <= o->mask; i++)
			if (o->slot[i].key)
				*openers_find(&big, o->slot[i].key) = o->slot[i];
		big.n = o->n;
		free(o->slot);
		*o = big;
	}
	e = openers_find(o, key);
	if (e->key == 0)
		o->n++;
	free(e->login);
	e->key = key;
	e->login = kh_strdup(login);
	e->uid = uid;
}

static const struct opener *
openers_get(const struct openers *o, uint64_t key)
{
	const struct opener *e;

	if (o->n == 0)
		return NULL;
	e = openers_find(o, key);
	return e->key ? e : NULL;
}

/* ---- the run ---- */

struct events {
	struct repos repos;
	int all_repos;
	int has_since, has_until;
	time_t since, until;
	struct seen seen;
	struct openers openers;
	char *buf;		/* the block buffer */
	size_t cap;
	/* progress on a terminal: bytes read, records written, last shown */
	int tty, shown;
	unsigned long long bytes, written;
	time_t last;
};

/* ---- the prefilter: top-level keys only, no allocation ---- */

enum { REJECT, PARSE };

static const char *
ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The closing quote of the string whose body starts at p, or NULL. */
static const char *
str_end(const char *p, const char *end)
{
	const char *start = p, *q;

	while ((q = memchr(p, '"', (size_t)(end - p))) != NULL) {
		size_t bs = 0;

		while (q - bs > start && q[-1 - (ptrdiff_t)bs] == '\\')
			bs++;
		if (bs % 2 == 0)
			return q;
		p = q + 1;
	}
	return NULL;
}

/* Past the JSON value at p, or NULL on bad syntax. */
static const char *
skip_value(const char *p, const char *end)
{
	int depth = 0;

	if (*p == '"')
		return (p = str_end(p + 1, end)) ? p + 1 : NULL;
	if (*p != '{' && *p != '[') {
		const char *q = p;

		while (q < end && *q != ',' && *q != '}' && *q != ']' &&
		    *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n')
			q++;
		return q > p ? q : NULL;
	}
	for (; p < end; p++) {
		switch (*p) {
		case '"':
			if ((p = str_end(p + 1, end)) == NULL)
				return NULL;
			break;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (--depth == 0)
				return p + 1;
			break;
		}
	}
	return NULL;
}

/*
 * Walk the members of the object at *pp ('{'). For each key, fn is called
 * with the key and *pp at the value; it returns 1 when it moved *pp past
 * the value, 0 to have the value skipped, or a decision (REJECT or PARSE,
 * as 2 + decision) to stop. Returns the decision, 1 at the end of the
 * object with *pp past it, or 2 + PARSE on a surprise.
 */
#define DONE(d) (2 + (d))
typedef int (*member_fn)(const char *key, size_t klen, const char **pp,
    const char *end, void *ctx);

static int
members(const char **pp, const char *end, member_fn fn, void *ctx)
{
	const char *p = *pp + 1, *key, *q;
	int rc;

	for (;;) {
		p = ws(p, end);
		if (p < end && *p == '}') {
			*pp = p + 1;
			return 1;
		}
		if (p == end || *p != '"' || (q = str_end(p + 1, end)) == NULL)
			return DONE(PARSE);
		key = p + 1;
		if (memchr(key, '\\', (size_t)(q - key)))
			return DONE(PARSE);
		p = ws(q + 1, end);
		if (p == end || *p != ':')
			return DONE(PARSE);
		p = ws(p + 1, end);
		if (p == end)
			return DONE(PARSE);
		rc = fn(key, (size_t)(q - key), &p, end, ctx);
		if (rc >= DONE(REJECT))
			return rc;
		if (rc == 0 && (p = skip_value(p, end)) == NULL)
			return DONE(PARSE);
		p = ws(p, end);
		if (p < end && *p == ',')
			p++;
		else if (p == end || *p != '}')
			return DONE(PARSE);
	}
}

struct pf {
	const struct events *ev;
	int seen;		/* the keys met so far: bits of enum key */
	int type;		/* 1: a PullRequestEvent */
	int repo;		/* 1: a target repository */
	const char *name;	/* repo.name, while in "repo" */
	size_t nlen;
};

/* The parser takes the first of duplicate keys; so does the prefilter. */
enum key { K_TYPE = 1, K_REPO = 2, K_PAYLOAD = 4 };

static int
is_key(const char *key, size_t klen, const char *want)
{
	return klen == strlen(want) && memcmp(key, want, klen) == 0;
}

/* A plain string value (no escapes) at *pp: its body and length, or NULL. */
static const char *
plain_string(const char **pp, const char *end, size_t *len)
{
	const char *p = *pp, *q;

	if (*p != '"' || (q = str_end(p + 1, end)) == NULL ||
	    memchr(p + 1, '\\', (size_t)(q - p - 1)))
		return NULL;
	*len = (size_t)(q - p - 1);
	*pp = q + 1;
	return p + 1;
}

static int
repo_member(const char *key, size_t klen, const char **pp, const char *end,
    void *ctx)
{
	struct pf *pf = ctx;

	if (!is_key(key, klen, "name") || pf->name)
		return 0;
	if ((pf->name = plain_string(pp, end, &pf->nlen)) == NULL)
		return DONE(PARSE);
	return 1;
}

/*
 * payload.action, GitHub's first key of a payload: "closed", and "opened"
 * for its actor (see struct opener), are parsed.
 */
static int
payload_member(const char *key, size_t klen, const char **pp,
    const char *end, void *ctx)
{
	const char *s;
	size_t n;

	if (!is_key(key, klen, "action"))
		return 0;
	if ((s = plain_string(pp, end, &n)) == NULL)
		return DONE(PARSE);
	if (n == 6 && (memcmp(s, "closed", 6) == 0 ||
	    memcmp(s, "opened", 6) == 0))
		return DONE(PARSE);
	return DONE(REJECT);
}

static int
event_member(const char *key, size_t klen, const char **pp, const char *end,
    void *ctx)
{
	struct pf *pf = ctx;
	const char *s;
	size_t n;
	int rc;

	if (is_key(key, klen, "type") && !(pf->seen & K_TYPE)) {
		pf->seen |= K_TYPE;
		if ((s = plain_string(pp, end, &n)) == NULL)
			return DONE(PARSE);
		if (n != 16 || memcmp(s, "PullRequestEvent", 16) != 0)
			return DONE(REJECT);
		pf->type = 1;
		return 1;
	}
	if (is_key(key, klen, "repo") && !(pf->seen & K_REPO)) {
		pf->seen |= K_REPO;
		if (pf->ev->all_repos)
			return 0;
		if (**pp != '{')
			return DONE(PARSE);	/* let the parser say what is wrong */
		if ((rc = members(pp, end, repo_member, pf)) != 1)
			return rc;
		if (pf->name == NULL)
			return DONE(PARSE);
		if (!repos_has(&pf->ev->repos, pf->name, pf->nlen))
			return DONE(REJECT);
		pf->repo = 1;
		return 1;
	}
	if (is_key(key, klen, "payload") && !(pf->seen & K_PAYLOAD)) {
		pf->seen |= K_PAYLOAD;
		/* Only once the type and repository are known to be wanted;
		 * GH Archive writes them before the payload. */
		if (!pf->type || !(pf->repo || pf->ev->all_repos))
			return 0;
		if (**pp != '{')	/* a BigQuery row: payload is text */
			return DONE(PARSE);
		rc = members(pp, end, payload_member, pf);
		return rc == 1 ? DONE(PARSE) : rc;
	}
	return 0;
}

static int
prefilter(const struct events *ev, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	struct pf pf = { ev, 0, 0, 0, NULL, 0 };
	int rc;

	p = ws(p, end);
	if (p == end || *p != '{')
		return PARSE;
	rc = members(&p, end, event_member, &pf);
	return rc >= DONE(REJECT) ? rc - 2 : PARSE;
}

/* ---- turning a PullRequestEvent into evidence ---- */

/* A time as GitHub or a BigQuery export writes it ("... UTC"), in UTC. */
static int
event_time(const char *s, time_t *t)
{
	size_t n;
	char tmp[64];

	if (s == NULL)
		return -1;
	n = strlen(s);
	if (n > 4 && n < sizeof tmp && strcmp(s + n - 4, " UTC") == 0) {
		memcpy(tmp, s, n - 4);
		tmp[n - 4] = '\0';
		s = tmp;
	}
	return kh_parse_time(s, t);
}

static void
add_time(cJSON *o, const char *key, const char *s)
{
	time_t t;
	char iso[21];

	if (event_time(s, &t) == 0) {
		kh_iso8601(t, iso);
		kh_add_str(o, key, iso);
	} else {
		kh_add_null(o, key);
	}
}

/* "https://api.github.com/repos/OWNER/NAME" -> "OWNER/NAME" */
static char *
repo_from_url(const char *url)
{
	static const char pre[] = "https://api.github.com/repos/";

	if (url == NULL || strncmp(url, pre, sizeof pre - 1) != 0 ||
	    !valid_repo(url + sizeof pre - 1, strlen(url + sizeof pre - 1)))
		return NULL;
	return kh_strdup(url + sizeof pre - 1);
}

/* base or head: repo.full_name, else from repo.url (the trimmed shape). */
static char *
side_repo(const cJSON *pr, const char *side)
{
	const cJSON *repo = kh_get(pr, side);
	const char *s;

	repo = repo ? cJSON_GetObjectItemCaseSensitive(repo, "repo") : NULL;
	if (!cJSON_IsObject(repo))
		return NULL;
	if ((s = kh_get_str(repo, "full_name")) != NULL)
		return kh_strdup(s);
	return repo_from_url(kh_get_str(repo, "url"));
}

static void
add_count(cJSON *o, const char *key, const cJSON *pr, const char *path)
{
	long long v;

	if (kh_get_int(pr, path, &v) == 0)
		kh_add_int(o, key, v);
	else
		kh_add_null(o, key);
}

/* merged: 1, 0, or -1 when the payload no longer says. */
static int
merged_state(const cJSON *pr)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(pr, "merged");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(pr, "merged_at");

	if (cJSON_IsBool(m))
		return cJSON_IsTrue(m);
	if (cJSON_IsString(at))
		return 1;
	if (cJSON_IsNull(at))
		return 0;
	return -1;
}

static cJSON *
evidence(const cJSON *ev, const cJSON *pr, const char *repo,
    long long number, int merged, const char *at, const struct opener *op)
{
	cJSON *o = cJSON_CreateObject(), *person, *labels;
	const cJSON *j;
	const char *s;
	char *base, *head, *id;
	long long uid;

	kh_add_str(o, "type", "evidence");
	id = kh_asprintf("github:pr:%s#%lld", repo, number);
	kh_add_str(o, "id", id);
	free(id);
	kh_add_str(o, "kind", "pr");
	kh_add_str(o, "source", "gharchive");
	person = cJSON_AddObjectToObject(o, "person");
	if (cJSON_IsObject(kh_get(pr, "user"))) {
		s = kh_get_str(pr, "user.login");
		if (kh_get_int(pr, "user.id", &uid) != 0)
			uid = -1;
	} else if (op) {	/* trimmed: whoever opened it */
		s = op->login;
		uid = op->uid;
	} else {
		s = NULL;
		uid = -1;
	}
	if (s)
		kh_add_str(person, "login", s);
	if (uid >= 0) {
		char num[24];

		snprintf(num, sizeof num, "%lld", uid);
		kh_add_str(person, "user_id", num);
	}
	id = kh_asprintf("https://github.com/%s/pull/%lld", repo, number);
	kh_add_str(o, "url", id);
	free(id);
	kh_add_str(o, "at", at);
	kh_add_str(o, "repo", repo);
	/* whether the base repository is not a fork, as the API says */
	if (cJSON_IsBool(j = kh_get(pr, "base.repo.fork")))
		kh_add_bool(o, "upstream", cJSON_IsFalse(j));
	else
		kh_add_null(o, "upstream");
	kh_add_int(o, "number", number);
	kh_add_str(o, "title", kh_get_str(pr, "title"));
	if ((s = kh_get_str(pr, "body")) != NULL) {
		size_t n = strlen(s);

		if (n > TEXT_MAX) {	/* cut at a character boundary */
			n = TEXT_MAX;
			while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
				n--;
		}
		kh_add_strn(o, "text", s, n);
	} else {
		kh_add_null(o, "text");
	}
	kh_add_str(o, "author_type", kh_get_str(pr, "user.type"));
	if (merged < 0)
		kh_add_null(o, "merged");
	else
		kh_add_bool(o, "merged", merged);
	add_time(o, "merged_at", kh_get_str(pr, "merged_at"));
	kh_add_str(o, "merged_by", kh_get_str(pr, "merged_by.login"));
	if ((base = side_repo(pr, "base")) == NULL)
		base = kh_strdup(repo);	/* the event's repo is the base */
	head = side_repo(pr, "head");
	kh_add_str(o, "base_repo", base);
	kh_add_str(o, "head_repo", head);
	if (head)
		kh_add_bool(o, "from_fork", strcasecmp(base, head) != 0);
	else
		kh_add_null(o, "from_fork");
	free(base);
	free(head);
	if (cJSON_IsArray(j = cJSON_GetObjectItemCaseSensitive(pr, "labels"))) {
		const cJSON *l;

		labels = cJSON_AddArrayToObject(o, "labels");
		cJSON_ArrayForEach(l, j)
			if ((s = kh_get_str(l, "name")) != NULL)
				cJSON_AddItemToArray(labels,
				    cJSON_CreateString(s));
	} else {
		kh_add_null(o, "labels");
	}
	add_count(o, "added", pr, "additions");
	add_count(o, "deleted", pr, "deletions");
	add_count(o, "changed_files", pr, "changed_files");
	if ((s = kh_get_str(ev, "id")) != NULL) {
		kh_add_str(o, "event_id", s);
	} else if (kh_get_int(ev, "id", &uid) == 0) {
		char num[24];

		snprintf(num, sizeof num, "%lld", uid);
		kh_add_str(o, "event_id", num);
	} else {
		kh_add_null(o, "event_id");
	}
	return o;
}

static void
handle(struct events *ev, const cJSON *rec, const struct kh_pos *pos)
{
	const char *type = kh_get_str(rec, "type"), *repo, *s;
	const cJSON *payload, *pr;
	cJSON *parsed = NULL, *out;
	long long number;
	int merged;
	time_t t;
	char at[21];

	if (type == NULL) {
		kh_bad(pos, "missing required field 'type'");
		return;
	}
	if (strcmp(type, "PullRequestEvent") != 0)
		return;
	if ((repo = kh_get_str(rec, "repo.name")) == NULL) {
		kh_bad(pos, "missing required field 'repo.name'");
		return;
	}
	if (!ev->all_repos && !repos_has(&ev->repos, repo, strlen(repo)))
		return;
	payload = cJSON_GetObjectItemCaseSensitive(rec, "payload");
	if (cJSON_IsString(payload)) {	/* BigQuery: payload is JSON text */
		const char *end = NULL;

		parsed = cJSON_ParseWithLengthOpts(payload->valuestring,
		    strlen(payload->valuestring) + 1, &end, 1);
		if (parsed == NULL) {
			kh_bad(pos, "invalid JSON in 'payload'");
			return;
		}
		payload = parsed;
	}
	if (!cJSON_IsObject(payload)) {
		kh_bad(pos, "missing required field 'payload'");
		goto done;
	}
	if ((s = kh_get_str(payload, "action")) == NULL) {
		kh_bad(pos, "missing required field 'payload.action'");
		goto done;
	}
	if (strcmp(s, "closed") != 0 && strcmp(s, "opened") != 0)
		goto done;
	pr = cJSON_GetObjectItemCaseSensitive(payload, "pull_request");
	if (!cJSON_IsObject(pr)) {
		kh_bad(pos, "missing required field 'payload.pull_request'");
		goto done;
	}
	if (kh_get_int(payload, "number", &number) != 0 &&
	    kh_get_int(pr, "number", &number) != 0) {
		kh_bad(pos, "missing required field 'payload.number'");
		goto done;
	}
	if (strcmp(s, "opened") == 0) {
		/* the author; kept only for the trimmed shape that needs it */
		if (!cJSON_IsObject(kh_get(pr, "user"))) {
			long long uid;

			if (kh_get_int(rec, "actor.id", &uid) != 0)
				uid = -1;
			openers_put(&ev->openers, pr_key(repo, number),
			    kh_get_str(rec, "actor.login"), uid);
		}
		goto done;
	}
	/* at: merged, else closed, else when the event happened */
	if (event_time(kh_get_str(pr, "merged_at"), &t) != 0 &&
	    event_time(kh_get_str(pr, "closed_at"), &t) != 0 &&
	    event_time(kh_get_str(rec, "created_at"), &t) != 0) {
		kh_bad(pos, "missing required field 'created_at'");
		goto done;
	}
	if ((ev->has_since && t < ev->since) || (ev->has_until &&
	    t >= ev->until))
		goto done;
	merged = merged_state(pr);
	if (!seen_check(&ev->seen, repo, number, merged))
		goto done;
	kh_iso8601(t, at);
	out = evidence(rec, pr, repo, number, merged, at,
	    openers_get(&ev->openers, pr_key(repo, number)));
	kh_emit(out);
	ev->written++;
	cJSON_Delete(out);
done:
	cJSON_Delete(parsed);
}

static void
too_long(const struct kh_pos *pos)
{
	kh_bad(pos, "line longer than %zu bytes, skipped", kh_opt.max_line);
}

static void
one_line(struct events *ev, char *s, size_t len, const struct kh_pos *pos)
{
	cJSON *rec;
	size_t raw = len;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t')
			goto record;
	return;			/* blank lines are ignored */
record:
	kh_count_in();
	if (raw > kh_opt.max_line) {
		too_long(pos);
		return;
	}
	if (prefilter(ev, s, len) == REJECT)
		return;
	s[len] = '\0';		/* the '\n' or '\r', or the spare byte */
	if ((rec = kh_parse_line(s, len, pos)) == NULL)
		return;
	handle(ev, rec, pos);
	cJSON_Delete(rec);
}

/* ---- input: plain or gzip, from a file or stdin ---- */

struct src {
	const char *name;
	int fd;
	int gz;			/* gzip: inflated in-process */
	z_stream z;
	unsigned char *in;	/* ZIN bytes */
	size_t pre;		/* plain: bytes of in still to hand out */
	int in_eof, member_end, done;
	const char *zerr;	/* why the gzip data stopped early */
	int cut;		/* 1: zerr cut a line; 0: the data before is whole */
	char zmsg[128];
};

static ssize_t
read_fd(int fd, void *buf, size_t n)
{
	ssize_t r;

	while ((r = read(fd, buf, n)) < 0 && errno == EINTR)
		;
	return r;
}

/* Read more compressed input after the avail_in bytes still unused. */
static int
fill_in(struct src *s)
{
	size_t keep = s->z.avail_in;
	ssize_t r;

	memmove(s->in, s->z.next_in, keep);
	r = read_fd(s->fd, s->in + keep, ZIN - keep);
	if (r < 0)
		return -1;
	if (r == 0)
		s->in_eof = 1;
	s->z.next_in = s->in;
	s->z.avail_in = (uInt)(keep + (size_t)r);
	return 0;
}

/* Up to n bytes of the (inflated) stream: 0 at its end, -1 on a read error. */
static ssize_t
src_read(struct src *s, char *dst, size_t n)
{
	if (!s->gz) {
		if (s->pre) {
			size_t k = s->pre < n ? s->pre : n;

			memcpy(dst, s->z.next_in, k);
			s->z.next_in += k;
			s->pre -= k;
			return (ssize_t)k;
		}
		return read_fd(s->fd, dst, n);
	}
	s->z.next_out = (unsigned char *)dst;
	s->z.avail_out = (uInt)n;
	while (s->z.avail_out > 0 && !s->done) {
		int rc;

		if (s->z.avail_in < 2 && !s->in_eof && fill_in(s) < 0)
			return -1;
		if (s->member_end) {
			/* A file may hold several gzip members, one after another. */
			if (s->z.avail_in == 0) {
				s->done = 1;
			} else if (s->z.avail_in < 2 || s->z.next_in[0] != 0x1f ||
			    s->z.next_in[1] != 0x8b) {
				s->zerr = "trailing data after the gzip data, "
				    "ignored";
				s->done = 1;
			} else {
				inflateReset(&s->z);
				s->member_end = 0;
			}
			continue;
		}
		rc = inflate(&s->z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			s->member_end = 1;
		} else if (rc == Z_MEM_ERROR) {
			kh_die(KH_SYS, "out of memory");
		} else if (rc == Z_BUF_ERROR || (rc == Z_OK &&
		    s->z.avail_in == 0 && s->in_eof && s->z.avail_out > 0)) {
			if (s->z.avail_in == 0 && s->in_eof) {
				s->zerr = "truncated gzip data";
				s->cut = s->done = 1;
			}
		} else if (rc != Z_OK) {
			snprintf(s->zmsg, sizeof s->zmsg, "corrupt gzip data: %s",
			    s->z.msg ? s->z.msg : "unknown error");
			s->zerr = s->zmsg;
			s->cut = s->done = 1;
		}
	}
	return (ssize_t)(n - s->z.avail_out);
}

/* Report where the data stopped early, as a bad record. */
static void
stopped(const struct src *s, unsigned long lineno, const char *what)
{
	struct kh_pos pos = { s->name, lineno, 0 };

	kh_count_in();
	kh_bad(&pos, "%s", what);
}

/*
 * Progress, on standard error when it is a terminal: at most once a
 * second, and taken off before lines are handled so that a message about
 * a bad line starts on a clean line.
 */
static void
progress(struct events *ev, const char *name, int show)
{
	time_t now;

	if (ev->shown) {
		fputs("\r\033[K", stderr);
		ev->shown = 0;
	}
	if (!show || !ev->tty || kh_opt.quiet || (now = time(NULL)) == ev->last)
		return;
	ev->last = now;
	fprintf(stderr, "%s: %s: %llu MB read, %llu records", kh_prog, name,
	    ev->bytes >> 20, ev->written);
	ev->shown = 1;
}

/* Cut the stream into lines and hand each to one_line(). */
static void
scan(struct events *ev, struct src *s)
{
	struct kh_pos pos = { s->name, 0, 0 };
	size_t len = 0;
	int eof = 0, draining = 0;

	for (;;) {
		char *p = ev->buf, *end, *nl;
		ssize_t n;

		/* Keep one byte spare to NUL-terminate a last line. */
		n = src_read(s, ev->buf + len, ev->cap - len - 1);
		if (n < 0) {
			kh_err("cannot read '%s': %s", s->name, strerror(errno));
			kh_fail(KH_SYS);
			return;
		}
		if (n == 0)
			eof = 1;
		len += (size_t)n;
		ev->bytes += (unsigned long long)n;
		progress(ev, s->name, 0);
		end = ev->buf + len;
		while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			pos.line++;
			pos.col = 0;
			if (draining) {
				draining = 0;
				kh_count_in();
				too_long(&pos);
			} else {
				one_line(ev, p, (size_t)(nl - p), &pos);
			}
			p = nl + 1;
		}
		len = (size_t)(end - p);
		if (eof) {
			if (s->cut) {
				/* A cut line is not a record: say where it stops. */
				stopped(s, pos.line + 1, s->zerr);
				return;
			}
			if (len > 0) {	/* a last line without "\n" */
				pos.line++;
				if (draining) {
					kh_count_in();
					too_long(&pos);
				} else {
					one_line(ev, p, len, &pos);
				}
			}
			if (s->zerr)
				stopped(s, pos.line + 1, s->zerr);
			return;
		}
		progress(ev, s->name, 1);
		memmove(ev->buf, p, len);
		if (len > kh_opt.max_line) {
			/* Longer than any line we take: drop it, find its end. */
			draining = 1;
			len = 0;
		} else if (ev->cap - len - 1 < BLOCK) {
			ev->cap = len + 1 + BLOCK;
			ev->buf = kh_realloc(ev->buf, ev->cap);
		}
	}
}

static void
run_file(struct events *ev, const char *path)
{
	static unsigned char in[ZIN];
	struct src s = { 0 };
	size_t namelen;
	int stdin_ = strcmp(path, "-") == 0;

	s.name = stdin_ ? "<stdin>" : path;
	s.fd = stdin_ ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0) {
		kh_err("cannot open '%s': %s", path, strerror(errno));
		kh_fail(KH_SYS);
		return;
	}
	s.in = in;
	s.z.next_in = in;
	/* Sniff: gzip starts 1f 8b, which no JSON text can. */
	while (s.z.avail_in < 2 && !s.in_eof)
		if (fill_in(&s) < 0) {
			kh_err("cannot read '%s': %s", s.name, strerror(errno));
			kh_fail(KH_SYS);
			goto out;
		}
	s.gz = s.z.avail_in >= 2 && in[0] == 0x1f && in[1] == 0x8b;
	namelen = strlen(path);
	if (!s.gz && namelen > 3 && strcmp(path + namelen - 3, ".gz") == 0) {
		stopped(&s, 1, "not in gzip format");
		goto out;
	}
	if (s.gz) {
		if (inflateInit2(&s.z, 15 + 16) != Z_OK)	/* gzip only */
			kh_die(KH_SYS, "cannot start zlib: %s",
			    s.z.msg ? s.z.msg : "out of memory");
	} else {
		s.pre = s.z.avail_in;
	}
	scan(ev, &s);
	if (s.gz)
		inflateEnd(&s.z);
out:
	if (!stdin_)
		close(s.fd);
}

static void
date_opt(const char *opt, const char *arg, time_t *t, int *has)
{
	if (kh_parse_time(arg, t) != 0)
		kh_usage("option '%s' wants a date, not '%s'", opt, arg);
	*has = 1;
}

int
fetch_events(int argc, char **argv)
{
	enum { O_REPOS = KH_OPT_TOOL, O_ALL, O_SINCE, O_UNTIL };
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "repos", required_argument, NULL, O_REPOS },
		{ "all-repos", no_argument, NULL, O_ALL },
		{ "since", required_argument, NULL, O_SINCE },
		{ "until", required_argument, NULL, O_UNTIL },
		{ NULL, 0, NULL, 0 }
	};
	static char dash[] = "-";
	static char *stdin_only[] = { dash, NULL };
	struct events ev = { 0 };
	const char *repos = NULL;
	char *path;
	int c;

	kh_usage_text = usage;
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS, longopts,
	    NULL)) != -1) {
		switch (c) {
		case O_REPOS:
			repos = optarg;
			break;
		case O_ALL:
			ev.all_repos = 1;
			break;
		case O_SINCE:
			date_opt("--since", optarg, &ev.since, &ev.has_since);
			break;
		case O_UNTIL:
			date_opt("--until", optarg, &ev.until, &ev.has_until);
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (repos && ev.all_repos)
		kh_usage("--repos and --all-repos exclude each other");
	if (!ev.all_repos) {
		path = repos ? kh_strdup(repos) : kh_data_path("repos.txt");
		repos_load(&ev.repos, path);
		free(path);
	}
	if (argc == 0) {
		argc = 1;
		argv = stdin_only;
	}
	ev.cap = BLOCK * 4;
	ev.buf = kh_malloc(ev.cap);
	ev.tty = isatty(2);
	for (int i = 0; i < argc; i++)
		run_file(&ev, argv[i]);
	progress(&ev, NULL, 0);
	free(ev.buf);
	free(ev.seen.slot);
	openers_clear(&ev.openers);
	repos_free(&ev.repos);
	return kh_finish();
}
