/*
 * github.c: kh-fetch github, evidence from the GitHub REST API. This file
 * has the options, the ordered output (see github.h), requests and the
 * record builders; the subcommands are in github-prs.c, github-users.c and
 * github-search.c.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "github.h"

#define DEFAULT_API "https://api.github.com"
#define API_VERSION "2022-11-28"

enum {
	OPT_PARALLEL = KH_OPT_TOOL, OPT_CACHE, OPT_NO_CACHE, OPT_OFFLINE,
	OPT_NO_WAIT, OPT_RETRIES, OPT_TIMEOUT, OPT_API_URL, OPT_SINCE, OPT_ALL,
	OPT_FILES, OPT_COMPLETE, OPT_REPOS
};

static const char usage_text[] =
"Usage: kh-fetch github prs [--since=DATE] [--all] [--files] OWNER/REPO...\n"
"       kh-fetch github prs --complete [--files] [FILE...]\n"
"       kh-fetch github user [LOGIN...]\n"
"       kh-fetch github repos [LOGIN...]\n"
"       kh-fetch github search [--repos=FILE] [--since=DATE] [LOGIN...]\n"
"       kh-fetch github claims [--files] [URL...]\n"
"Evidence from the GitHub REST API (token from GITHUB_TOKEN or GH_TOKEN).\n"
"  prs         merged pull requests of each repository\n"
"  user        profiles; with no LOGIN, of the people named on stdin\n"
"  repos       a user's repositories, forks with their parent\n"
"  search      merged PRs by each LOGIN in the target repositories\n"
"  claims      pull request or commit URLs (operands or stdin lines)\n"
"  --since=DATE      PRs merged (closed, with --all) at or after DATE\n"
"  --all             also closed PRs that were not merged (merged:false)\n"
"  --files           merged_by, sizes and the files of each PR\n"
"  --complete        fill in PR evidence on stdin whose merged is null\n"
"  --repos=FILE      target repositories (default share/kh/repos.txt)\n"
"  -p, --parallel=N  transfers at once (default 4)\n"
"  --cache=DIR       cache directory (default $XDG_CACHE_HOME/kh)\n"
"  --no-cache        neither read nor write the cache\n"
"  --offline         answer from the cache only\n"
"  --no-wait         at a rate limit, stop (exit 5) instead of waiting\n"
"  --retries=N       retries of a failed request (default 3)\n"
"  --timeout=S       seconds per request (default 30)\n"
"  --api-url=URL     API base (default $KH_API_URL, else " DEFAULT_API ")\n"
"  -h, --help  -V, --version  -q, --quiet  -v, --verbose\n"
"  --strict  --max-line=BYTES  --unbuffered\n";

/* ---- string sets ---- */

static unsigned long
hash(const char *s)
{
	unsigned long h = 5381;

	for (; *s; s++)
		h = h * 33 ^ (unsigned char)*s;
	return h;
}

int
gh_set_add(struct gh_set *s, const char *key)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct gh_set t = { 0 };

		t.cap = s->cap ? 2 * s->cap : 64;
		t.k = kh_calloc(t.cap, sizeof *t.k);
		for (size_t j = 0; j < s->cap; j++) {
			if (s->k[j] == NULL)
				continue;
			for (i = hash(s->k[j]) & (t.cap - 1); t.k[i];
			    i = (i + 1) & (t.cap - 1))
				;
			t.k[i] = s->k[j];
		}
		t.n = s->n;
		free(s->k);
		*s = t;
	}
	for (i = hash(key) & (s->cap - 1); s->k[i]; i = (i + 1) & (s->cap - 1))
		if (strcmp(s->k[i], key) == 0)
			return 0;
	s->k[i] = kh_strdup(key);
	s->n++;
	return 1;
}

void
gh_set_free(struct gh_set *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->k[i]);
	free(s->k);
	memset(s, 0, sizeof *s);
}

/* ---- the ordered output ---- */

struct gh_slot *
gh_slot_new(struct gh *g, struct gh_slot *before)
{
	struct gh_slot *s = kh_calloc(1, sizeof *s);

	if (before == NULL) {
		s->prev = g->tail;
		if (g->tail)
			g->tail->next = s;
		else
			g->head = s;
		g->tail = s;
	} else {
		s->next = before;
		s->prev = before->prev;
		if (before->prev)
			before->prev->next = s;
		else
			g->head = s;
		before->prev = s;
	}
	g->nslots++;
	return s;
}

struct gh_slot *
gh_slot_after(struct gh *g, struct gh_slot *after)
{
	return gh_slot_new(g, after->next);
}

static void
emit(struct gh *g, const cJSON *rec)
{
	const char *id = kh_get_str(rec, "id");

	/* the same artifact reached twice (pages shifting, two routes) */
	if (id && !gh_set_add(&g->seen, id)) {
		kh_note("'%s' already emitted in this run", id);
		return;
	}
	kh_emit(rec);
}

void
gh_flush(struct gh *g)
{
	struct gh_slot *s;

	while ((s = g->head) != NULL && s->pending == 0 && !s->held) {
		g->head = s->next;
		if (g->head)
			g->head->prev = NULL;
		else
			g->tail = NULL;
		g->nslots--;
		if (s->rec && s->pass)
			kh_emit(s->rec);
		else if (s->rec)
			emit(g, s->rec);
		if (s->on_leave)
			s->on_leave(g, s);
		cJSON_Delete(s->rec);
		free(s);
	}
}

void
gh_pump(struct gh *g)
{
	if (g->nslots >= g->window) {
		kh_http_run(g->http);
		gh_flush(g);
	}
}

/* ---- requests ---- */

struct req {
	struct gh *g;
	struct gh_slot *s;
	int want;
	gh_cb cb;
	void *arg;
};

static int
on_answer(struct kh_http *h, struct kh_resp *r, int ok, void *arg)
{
	struct req *q = arg;
	cJSON *j = NULL;

	if (ok) {
		j = cJSON_ParseWithLength(r->body, r->len);
		if (j == NULL || (j->type & 0xff) != q->want ||
		    q->cb(q->g, q->s, j, r, q->arg) < 0) {
			cJSON_Delete(j);
			return -1;	/* malformed: kh_http fetches it again */
		}
	} else
		q->cb(q->g, q->s, NULL, r, q->arg);
	cJSON_Delete(j);
	q->s->pending--;
	gh_flush(q->g);
	free(q);
	return 0;
}

void
gh_get(struct gh *g, const char *url, struct gh_slot *s, int want, gh_cb cb,
    void *arg)
{
	struct req *q = kh_malloc(sizeof *q);
	char *full = NULL;

	q->g = g;
	q->s = s;
	q->want = want;
	q->cb = cb;
	q->arg = arg;
	s->pending++;
	if (url[0] == '/')
		url = full = kh_asprintf("%s%s", g->api, url);
	kh_http_queue(g->http, url, 0, on_answer, q);
	free(full);
}

char *
gh_url(struct gh *g, const char *fmt, ...)
{
	struct kh_buf b = { 0 };
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		kh_die(KH_SYS, "out of memory");
	va_end(ap);
	kh_buf_adds(&b, g->api);
	kh_buf_adds(&b, s);
	free(s);
	return kh_buf_detach(&b);
}

int
gh_next_ok(struct gh *g, const char *url)
{
	char *k = kh_asprintf("next %s", url);
	int fresh = gh_set_add(&g->asked, k);

	free(k);
	if (!fresh)
		kh_warn("the next page '%s' was read already: not again", url);
	return fresh;
}

char *
gh_escape(const char *s)
{
	struct kh_buf b = { 0 };

	kh_buf_adds(&b, "");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~", c))
			kh_buf_addc(&b, c);
		else
			kh_buf_addf(&b, "%%%02X", c);
	}
	return kh_buf_detach(&b);
}

/* GitHub names: letters, digits, '-', '_', '.'; never "." or "..". */
int
gh_valid_name(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-_.");

	return n > 0 && n <= 100 && s[n] == '\0' && strcmp(s, ".") != 0 &&
	    strcmp(s, "..") != 0;
}

int
gh_valid_repo(const char *s)
{
	const char *sl = strchr(s, '/');
	char *owner;
	int ok;

	if (sl == NULL)
		return 0;
	owner = kh_strndup(s, (size_t)(sl - s));
	ok = gh_valid_name(owner) && gh_valid_name(sl + 1);
	free(owner);
	return ok;
}

/* ---- record parts ---- */

/* A time as "YYYY-MM-DDTHH:MM:SSZ" in UTC, null when absent or unreadable. */
void
gh_add_time(cJSON *rec, const char *key, const char *iso)
{
	time_t t;
	char out[21];

	if (iso == NULL || kh_parse_time(iso, &t) < 0) {
		kh_add_null(rec, key);
		return;
	}
	kh_iso8601(t, out);
	kh_add_str(rec, key, out);
}

/* s capped at GH_TEXT_MAX bytes, cut before a UTF-8 continuation byte. */
void
gh_add_text(cJSON *rec, const char *key, const char *s)
{
	size_t n;

	if (s == NULL) {
		kh_add_null(rec, key);
		return;
	}
	n = strlen(s);
	if (n > GH_TEXT_MAX) {
		n = GH_TEXT_MAX;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	kh_add_strn(rec, key, s, n);
}

/* {"login","user_id"} of a GitHub user object; {} for a deleted account. */
cJSON *
gh_person(const cJSON *user)
{
	cJSON *p = cJSON_CreateObject();
	const char *login = kh_get_str(user, "login");
	long long id;

	if (login)
		kh_add_str(p, "login", login);
	if (kh_get_int(user, "id", &id) == 0) {
		char buf[32];

		snprintf(buf, sizeof buf, "%lld", id);
		kh_add_str(p, "user_id", buf);
	}
	return p;
}

static cJSON *
labels(const cJSON *pr)
{
	cJSON *a = cJSON_CreateArray(), *l;

	cJSON_ArrayForEach(l, kh_get(pr, "labels")) {
		const char *name = kh_get_str(l, "name");

		if (name)
			cJSON_AddItemToArray(a, cJSON_CreateString(name));
	}
	return a;
}

static const cJSON *
nonnull(const cJSON *j)
{
	return j && !cJSON_IsNull(j) ? j : NULL;
}

/*
 * The evidence of a pull request, from a list item or the single-PR
 * answer. A list item has no merged/merged_by: merged is merged_at != null
 * and merged_by stays null until gh_pr_detail fills it in.
 */
cJSON *
gh_pr_record(const cJSON *pr, const char *repo_hint)
{
	cJSON *rec = cJSON_CreateObject();
	const cJSON *user = nonnull(kh_get(pr, "user"));
	const cJSON *base = nonnull(kh_get(pr, "base.repo"));
	const cJSON *head = nonnull(kh_get(pr, "head.repo"));
	const char *repo = kh_get_str(base, "full_name");
	const char *merged_at = kh_get_str(pr, "merged_at");
	const char *head_name = kh_get_str(head, "full_name");
	const cJSON *fork = kh_get(base, "fork");
	long long number = 0;
	char *id;

	if (repo == NULL)
		repo = repo_hint;
	kh_get_int(pr, "number", &number);
	kh_add_str(rec, "type", "evidence");
	id = kh_asprintf("github:pr:%s#%lld", repo ? repo : "?", number);
	kh_add_str(rec, "id", id);
	free(id);
	kh_add_str(rec, "kind", "pr");
	kh_add_str(rec, "source", "github");
	cJSON_AddItemToObject(rec, "person", gh_person(user));
	kh_add_str(rec, "url", kh_get_str(pr, "html_url"));
	gh_add_time(rec, "at", merged_at ? merged_at :
	    kh_get_str(pr, "closed_at"));
	kh_add_str(rec, "repo", repo);
	if (cJSON_IsBool(fork))
		kh_add_bool(rec, "upstream", cJSON_IsFalse(fork));
	else
		kh_add_null(rec, "upstream");
	kh_add_int(rec, "number", number);
	kh_add_str(rec, "title", kh_get_str(pr, "title"));
	gh_add_text(rec, "text", kh_get_str(pr, "body"));
	kh_add_str(rec, "author_type", kh_get_str(user, "type"));
	if (cJSON_IsBool(kh_get(pr, "merged")))
		kh_add_bool(rec, "merged", cJSON_IsTrue(kh_get(pr, "merged")));
	else
		kh_add_bool(rec, "merged", merged_at != NULL);
	gh_add_time(rec, "merged_at", merged_at);
	kh_add_str(rec, "merged_by", kh_get_str(pr, "merged_by.login"));
	kh_add_str(rec, "base_repo", repo);
	kh_add_str(rec, "head_repo", head_name);
	/* a deleted fork (head.repo null) leaves from_fork unknown */
	if (head_name && repo)
		kh_add_bool(rec, "from_fork", strcasecmp(head_name, repo) != 0);
	else
		kh_add_null(rec, "from_fork");
	cJSON_AddItemToObject(rec, "labels", labels(pr));
	return rec;
}

/* What only the single-PR answer says for sure: merged, merged_by. */
void
gh_pr_detail(cJSON *rec, const cJSON *pr)
{
	const char *merged_at = kh_get_str(pr, "merged_at");
	const char *by = kh_get_str(pr, "merged_by.login");
	cJSON *t = cJSON_CreateObject();

	if (cJSON_IsBool(kh_get(pr, "merged")))
		kh_set(rec, "merged", cJSON_CreateBool(
		    cJSON_IsTrue(kh_get(pr, "merged"))));
	else
		kh_set(rec, "merged", cJSON_CreateBool(merged_at != NULL));
	gh_add_time(t, "at", merged_at ? merged_at :
	    kh_get_str(pr, "closed_at"));
	gh_add_time(t, "merged_at", merged_at);
	kh_set(rec, "at", cJSON_DetachItemFromObject(t, "at"));
	kh_set(rec, "merged_at", cJSON_DetachItemFromObject(t, "merged_at"));
	cJSON_Delete(t);
	kh_set(rec, "merged_by", by ? cJSON_CreateString(by) :
	    cJSON_CreateNull());
}

/* {"name","email"} of a commit's git identity (the account is "person"). */
cJSON *
gh_ident(const cJSON *who)
{
	cJSON *o = cJSON_CreateObject();

	kh_add_str(o, "name", kh_get_str(who, "name"));
	kh_add_str(o, "email", kh_get_str(who, "email"));
	return o;
}

void
gh_logins(const cJSON *rec, void (*fn)(struct gh *, const char *),
    struct gh *g)
{
	const char *login = kh_get_str(rec, "person.login");
	const cJSON *l;

	if (login)
		fn(g, login);
	cJSON_ArrayForEach(l, kh_get(rec, "logins"))
		if (cJSON_IsString(l))
			fn(g, l->valuestring);
}

/* ---- the entry ---- */

static char *
api_base(const char *arg)
{
	const char *s = arg ? arg : getenv("KH_API_URL");
	size_t n;

	if (s == NULL || *s == '\0')
		s = DEFAULT_API;
	if (strncmp(s, "https://", 8) != 0 && strncmp(s, "http://", 7) != 0)
		kh_usage("API URL '%s' is not an http(s) URL", s);
	n = strlen(s);
	while (n > 0 && s[n - 1] == '/')
		n--;
	return kh_strndup(s, n);
}

/* "https://api.github.com" -> "github.com"; GHE: the API's own host. */
static char *
web_host(const char *api)
{
	const char *h = strstr(api, "://") + 3;
	size_t n = strcspn(h, "/:");

	if (n == 14 && strncmp(h, "api.github.com", 14) == 0)
		return kh_strdup("github.com");
	return kh_strndup(h, n);
}

int
fetch_github(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "parallel", required_argument, NULL, 'p' },
		{ "cache", required_argument, NULL, OPT_CACHE },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "offline", no_argument, NULL, OPT_OFFLINE },
		{ "no-wait", no_argument, NULL, OPT_NO_WAIT },
		{ "retries", required_argument, NULL, OPT_RETRIES },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "api-url", required_argument, NULL, OPT_API_URL },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "files", no_argument, NULL, OPT_FILES },
		{ "complete", no_argument, NULL, OPT_COMPLETE },
		{ "repos", required_argument, NULL, OPT_REPOS },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const headers[] = {
		"Accept: application/vnd.github+json",
		"X-GitHub-Api-Version: " API_VERSION,
		NULL
	};
	struct kh_http_opts o = { 0 };
	struct kh_http_opts2 o2 = { 0 };
	struct gh g = { 0 };
	const char *api_arg = NULL, *sub;
	int c, rc;

	kh_usage_text = usage_text;
	o.retries = 3;
	o2.timeout = 30;
	g.parallel = 4;
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS "p:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'p':
			g.parallel = (int)kh_opt_num("--parallel", optarg, 1,
			    64);
			break;
		case OPT_CACHE:
			o.cache_dir = optarg;
			break;
		case OPT_NO_CACHE:
			o2.no_cache = 1;
			break;
		case OPT_OFFLINE:
			o2.offline = 1;
			break;
		case OPT_NO_WAIT:
			o2.no_wait = 1;
			break;
		case OPT_RETRIES:
			o.retries = (int)kh_opt_num("--retries", optarg, 0, 20);
			break;
		case OPT_TIMEOUT:
			o2.timeout = (long)kh_opt_num("--timeout", optarg, 1,
			    3600);
			break;
		case OPT_API_URL:
			api_arg = optarg;
			break;
		case OPT_SINCE:
			if (kh_parse_time(optarg, &g.since) < 0)
				kh_usage("option '--since' wants a date "
				    "(YYYY-MM-DD), not '%s'", optarg);
			g.have_since = 1;
			break;
		case OPT_ALL:
			g.all = 1;
			break;
		case OPT_FILES:
			g.files = 1;
			break;
		case OPT_COMPLETE:
			g.complete = 1;
			break;
		case OPT_REPOS:
			g.repos_file = optarg;
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		kh_usage("github: which subcommand? (prs, user, repos, search, "
		    "claims)");
	sub = argv[0];
	argc--;
	argv++;
	if (o2.no_cache && o2.offline)
		kh_usage("--offline needs the cache, not --no-cache");
	if ((g.all || g.complete) && strcmp(sub, "prs") != 0)
		kh_usage("options '--all' and '--complete' are for 'prs'");
	if (g.files && strcmp(sub, "prs") != 0 && strcmp(sub, "claims") != 0)
		kh_usage("option '--files' is for 'prs' and 'claims'");
	if (g.repos_file && strcmp(sub, "search") != 0)
		kh_usage("option '--repos' is for 'search'");
	if (g.have_since && strcmp(sub, "prs") != 0 &&
	    strcmp(sub, "search") != 0)
		kh_usage("option '--since' is for 'prs' and 'search'");
	if (g.complete && (g.all || g.have_since))
		kh_usage("'--complete' takes no '--all' or '--since'");

	g.api = api_base(api_arg);
	g.web_host = web_host(g.api);
	g.window = (size_t)g.parallel * 8;
	o.token_env = "GITHUB_TOKEN:GH_TOKEN";
	o2.auth_origin = g.api;
	o2.parallel = g.parallel;
	o2.headers = headers;
	g.http = kh_http_new2(&o, &o2);

	if (strcmp(sub, "prs") == 0)
		rc = g.complete ? gh_complete(&g, argc, argv) :
		    gh_prs(&g, argc, argv);
	else if (strcmp(sub, "user") == 0)
		rc = gh_user(&g, argc, argv);
	else if (strcmp(sub, "repos") == 0)
		rc = gh_repos(&g, argc, argv);
	else if (strcmp(sub, "search") == 0)
		rc = gh_search(&g, argc, argv);
	else if (strcmp(sub, "claims") == 0)
		rc = gh_claims(&g, argc, argv);
	else
		kh_usage("github: unknown subcommand '%s'", sub);
	if (rc == 0) {
		struct kh_http_stats st;

		kh_http_run(g.http);
		gh_flush(&g);
		kh_http_stats(g.http, &st);
		kh_note("%lu requests, %lu not modified, %lu from the cache, "
		    "%lu failed", st.requests, st.not_modified, st.from_cache,
		    st.failed);
	}
	kh_http_free(g.http);
	gh_set_free(&g.seen);
	gh_set_free(&g.asked);
	free(g.api);
	free(g.web_host);
	return kh_finish();
}
