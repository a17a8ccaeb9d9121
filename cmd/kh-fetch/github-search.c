/*
 * github-search.c: kh-fetch github search, the merged PRs each login
 * authored in the target repositories, through /search/issues.
 *
 * Search has its own rate limit (30 a minute with a token), so queries run
 * one at a time. A query names the login and as many repositories as fit
 * in 256 characters (GitHub refuses longer ones). A query only ever yields
 * its first 1,000 results: when total_count says more, the query is split
 * into two halves of its merged: date range, again until each half fits
 * (a single day that still has more is fetched to its 1,000 with a
 * warning). The page that would start past result 1,000 is never asked
 * for (GitHub answers it 422).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "github.h"

#define Q_MAX 256		/* GitHub's query length limit */
#define RESULTS_MAX 1000	/* what one query can reach */
#define PER_PAGE 100
#define DAY 86400L
#define EPOCH_2008 13879L	/* 2008-01-01 in days: before any PR */

struct login {			/* the anchor of one login's results */
	int tasks;		/* queries still to run */
};

struct task {
	struct task *next;
	char *login, *repos;	/* repos: "repo:A repo:B" */
	long lo, hi;		/* merged: range in days; lo < 0: none */
	struct gh_slot *end;
	int page;
	long long total;
};

static struct {
	struct task *head;
	int busy;
	char **repos;
	size_t nrepos;
} S;

static void run_next(struct gh *g);

static void
day(long d, char out[11])
{
	char iso[21];

	kh_iso8601((time_t)d * DAY, iso);
	memcpy(out, iso, 10);
	out[10] = '\0';
}

static char *
query(struct gh *g, const struct task *t)
{
	struct kh_buf b = { 0 };
	char a[11], z[11];

	kh_buf_addf(&b, "is:pr is:merged author:%s", t->login);
	if (t->lo >= 0) {
		day(t->lo, a);
		day(t->hi, z);
		kh_buf_addf(&b, " merged:%s..%s", a, z);
	} else if (g->have_since) {
		day((long)(g->since / DAY), a);
		kh_buf_addf(&b, " merged:>=%s", a);
	}
	kh_buf_addf(&b, " %s", t->repos);
	return kh_buf_detach(&b);
}

static void
task_done(struct gh *g, struct task *t)
{
	struct login *l = t->end->arg;

	if (--l->tasks == 0)
		t->end->held = 0;
	free(t->login);
	free(t->repos);
	free(t);
	S.busy = 0;
}

static void
login_leave(struct gh *g, struct gh_slot *s)
{
	free(s->arg);
}

static int on_results(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg);

static void
split(struct gh *g, struct task *t)
{
	struct task *a = kh_calloc(1, sizeof *a), *b = kh_calloc(1, sizeof *b);
	long mid = t->lo + (t->hi - t->lo) / 2;
	struct login *l = t->end->arg;

	*a = *t;
	*b = *t;
	a->login = kh_strdup(t->login);
	a->repos = kh_strdup(t->repos);
	b->login = kh_strdup(t->login);
	b->repos = kh_strdup(t->repos);
	a->hi = mid;
	b->lo = mid + 1;
	a->page = b->page = 0;
	a->next = b;
	b->next = S.head;
	S.head = a;
	l->tasks += 2;
}

/* A search item is an issue: the repository is only in repository_url. */
static cJSON *
item_record(const cJSON *it)
{
	const char *ru = kh_get_str(it, "repository_url"), *p;
	const char *merged_at = kh_get_str(it, "pull_request.merged_at");
	char *repo = NULL;
	cJSON *rec, *t;

	if (ru && (p = strstr(ru, "/repos/")) != NULL)
		repo = kh_strdup(p + 7);
	rec = gh_pr_record(it, repo);
	/* is:merged said so; the target repositories are upstreams */
	kh_set(rec, "upstream", cJSON_CreateBool(1));
	kh_set(rec, "merged", cJSON_CreateBool(1));
	t = cJSON_CreateObject();
	gh_add_time(t, "at", merged_at ? merged_at :
	    kh_get_str(it, "closed_at"));
	gh_add_time(t, "merged_at", merged_at);
	kh_set(rec, "at", cJSON_DetachItemFromObject(t, "at"));
	kh_set(rec, "merged_at", cJSON_DetachItemFromObject(t, "merged_at"));
	cJSON_Delete(t);
	free(repo);
	return rec;
}

static int
on_results(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	struct task *t = arg;
	const cJSON *items = kh_get(j, "items"), *it;
	struct gh_slot *at = s;
	long long total;

	if (j == NULL) {
		task_done(g, t);
		run_next(g);
		return 0;
	}
	if (!cJSON_IsArray(items) || kh_get_int(j, "total_count", &total) < 0)
		return -1;
	t->page++;
	if (t->page == 1) {
		t->total = total;
		if (total > RESULTS_MAX) {
			if (t->lo < 0) {
				t->lo = g->have_since ? (long)(g->since / DAY) :
				    EPOCH_2008;
				t->hi = (long)(kh_now() / DAY);
			}
			if (t->lo < t->hi) {
				char *q = query(g, t);

				kh_note("%lld results for '%s': splitting by "
				    "date", total, q);
				free(q);
				split(g, t);
				task_done(g, t);
				run_next(g);
				return 0;
			} else {
				char *q = query(g, t);

				kh_warn("%lld results for '%s': only the "
				    "first %d can be fetched", total, q,
				    RESULTS_MAX);
				free(q);
			}
		}
	}
	if (cJSON_IsTrue(kh_get(j, "incomplete_results"))) {
		char *q = query(g, t);

		kh_warn("results for '%s' are incomplete (GitHub timed out): "
		    "run again later for the rest", q);
		free(q);
	}
	cJSON_ArrayForEach(it, items) {
		kh_count_in();
		at = gh_slot_after(g, at);
		at->rec = item_record(it);
	}
	if (r->next && (long long)t->page * PER_PAGE <
	    (t->total < RESULTS_MAX ? t->total : RESULTS_MAX) &&
	    gh_next_ok(g, r->next)) {
		struct gh_slot *p = gh_slot_new(g, t->end);

		gh_get(g, r->next, p, cJSON_Object, on_results, t);
		return 0;
	}
	task_done(g, t);
	run_next(g);
	return 0;
}

static void
run_next(struct gh *g)
{
	struct task *t = S.head;
	char *q, *eq, *url;
	struct gh_slot *s;

	if (S.busy || t == NULL)
		return;
	S.head = t->next;
	S.busy = 1;
	q = query(g, t);
	eq = gh_escape(q);
	url = gh_url(g, "/search/issues?q=%s&per_page=%d", eq, PER_PAGE);
	s = gh_slot_new(g, t->end);
	gh_get(g, url, s, cJSON_Object, on_results, t);
	free(url);
	free(eq);
	free(q);
}

static void
ask(struct gh *g, const char *login)
{
	struct gh_slot *end;
	struct login *l;
	struct task **tail = &S.head;
	char *k;
	size_t i = 0;

	if (!gh_valid_name(login)) {
		kh_note("'%s' is not a GitHub login: skipped", login);
		return;
	}
	k = kh_asprintf("search:%s", login);
	for (char *p = k; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if (!gh_set_add(&g->asked, k)) {
		free(k);
		return;
	}
	free(k);
	end = gh_slot_new(g, NULL);
	l = kh_calloc(1, sizeof *l);
	end->arg = l;
	end->held = 1;
	end->on_leave = login_leave;
	while (*tail)
		tail = &(*tail)->next;
	/* as many repositories a query as fit in Q_MAX with a date range */
	while (i < S.nrepos) {
		struct task *t = kh_calloc(1, sizeof *t);
		struct kh_buf b = { 0 };
		size_t base = strlen("is:pr is:merged author:") +
		    strlen(login) + strlen(" merged:2008-01-01..2026-12-31 ");

		kh_buf_adds(&b, "");
		do {
			size_t add = strlen(S.repos[i]) + 5 + (b.len ? 1 : 0);

			if (b.len && base + b.len + add > Q_MAX)
				break;
			kh_buf_addf(&b, "%srepo:%s", b.len ? " " : "",
			    S.repos[i]);
			i++;
		} while (i < S.nrepos);
		t->login = kh_strdup(login);
		t->repos = kh_buf_detach(&b);
		t->lo = t->hi = -1;
		t->end = end;
		l->tasks++;
		*tail = t;
		tail = &t->next;
	}
	if (l->tasks == 0)
		end->held = 0;
	run_next(g);
}

/* share/kh/repos.txt: OWNER/NAME a line, "#" comments. */
static void
load_repos(struct gh *g)
{
	char *path = g->repos_file ? kh_strdup(g->repos_file) :
	    kh_data_path("repos.txt");
	size_t len;
	char *data = kh_read_file(path, (size_t)1 << 20, &len), *save = NULL;
	unsigned long lineno = 0;

	if (data == NULL)
		kh_die(KH_USAGE, "cannot read the repository list '%s': %s",
		    path, strerror(errno));
	for (char *line = data, *nl; line < data + len; line = nl + 1) {
		char *w;

		nl = memchr(line, '\n', (size_t)(data + len - line));
		if (nl == NULL)
			nl = data + len;
		*nl = '\0';
		lineno++;
		line[strcspn(line, "#")] = '\0';
		w = strtok_r(line, " \t\r", &save);
		if (w == NULL)
			continue;
		if (!gh_valid_repo(w))
			kh_die(KH_USAGE, "%s:%lu: '%s' is not OWNER/NAME",
			    path, lineno, w);
		S.repos = kh_realloc(S.repos, (S.nrepos + 1) *
		    sizeof *S.repos);
		S.repos[S.nrepos++] = kh_strdup(w);
	}
	free(data);
	free(path);
}

static int
filter_one(cJSON *rec, const struct kh_pos *pos, void *arg)
{
	struct gh *g = arg;
	struct gh_slot *s = gh_slot_new(g, NULL);

	s->rec = cJSON_Duplicate(rec, 1);
	s->pass = 1;
	gh_logins(rec, ask, g);
	gh_pump(g);
	return 0;
}

int
gh_search(struct gh *g, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!gh_valid_name(argv[i]))
			kh_usage("github search: '%s' is not a GitHub login",
			    argv[i]);
	load_repos(g);
	if (argc == 0)
		kh_loop(0, argv, filter_one, g);
	for (int i = 0; i < argc; i++) {
		ask(g, argv[i]);
		gh_pump(g);
	}
	kh_http_run(g->http);
	gh_flush(g);
	for (size_t i = 0; i < S.nrepos; i++)
		free(S.repos[i]);
	free(S.repos);
	return 0;
}
