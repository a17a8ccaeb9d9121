/*
 * github-prs.c: kh-fetch github prs (the closed pull requests of each
 * repository), prs --complete (fill in PR evidence whose merged is null)
 * and claims (PR and commit URLs as pasted from a resume).
 *
 * The list pages follow the Link header. When page 1 names a rel="last"
 * and the next and last URLs differ only in their page number, the other
 * pages are fetched in parallel from that pattern (the page URLs GitHub
 * gives are stable for a listing; a page that shifts under us yields a
 * duplicate, dropped by id, never a gap we would not also have with
 * sequential paging). Without rel="last", and with --since, pages are
 * fetched one after the other.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "github.h"

/* ---- details and files of one PR ---- */

enum { PRX_LIST, PRX_COMPLETE, PRX_CLAIM };

struct prx {
	struct gh_slot *s;
	char *repo;
	long long n;
	int mode, want_files, waiting, failed;
	char *claimed;
	cJSON *files;
	long long nfiles, fadded, fdeleted;
	int have_sizes;
	long long added, deleted, changed;
	struct kh_signals *sig;
};

static void
prx_finish(struct gh *g, struct prx *x)
{
	cJSON *rec = x->s->rec;

	if (x->failed && x->mode != PRX_COMPLETE) {
		/* reported already; a half record would mislead */
		cJSON_Delete(rec);
		x->s->rec = NULL;
	} else if (!x->failed && rec && x->want_files) {
		cJSON *sig;

		cJSON_AddItemToObject(rec, "files", x->files);
		x->files = NULL;
		kh_add_int(rec, "added", x->have_sizes ? x->added : x->fadded);
		kh_add_int(rec, "deleted", x->have_sizes ? x->deleted :
		    x->fdeleted);
		kh_add_int(rec, "changed_files", x->have_sizes ? x->changed :
		    x->nfiles);
		if (x->nfiles >= GH_FILES_CAP)
			kh_add_bool(rec, "files_capped", 1);
		if ((sig = kh_signals_json(x->sig)) != NULL)
			cJSON_AddItemToObject(rec, "signals", sig);
	}
	if (!x->failed && rec && x->claimed)
		kh_add_str(rec, "claimed", x->claimed);
	cJSON_Delete(x->files);
	kh_signals_free(x->sig);
	free(x->repo);
	free(x->claimed);
	free(x);
}

static void
prx_done(struct gh *g, struct prx *x)
{
	if (--x->waiting == 0)
		prx_finish(g, x);
}

/*
 * Fill in an input record (prs --complete) from the single-PR answer: the
 * merged state always, and every field the input left null or empty (a
 * trimmed GH Archive payload has no author, title, body or labels).
 */
static void
complete_record(cJSON *rec, const cJSON *pr)
{
	cJSON *full = gh_pr_record(pr, kh_get_str(rec, "repo")), *f;

	gh_pr_detail(rec, pr);
	cJSON_ArrayForEach(f, full) {
		const cJSON *have = cJSON_GetObjectItemCaseSensitive(rec,
		    f->string);

		if (cJSON_IsNull(f) || (cJSON_IsObject(f) && f->child == NULL))
			continue;
		if (have == NULL || cJSON_IsNull(have) ||
		    (cJSON_IsObject(have) && have->child == NULL))
			kh_set(rec, f->string, cJSON_Duplicate(f, 1));
	}
	cJSON_Delete(full);
}

static int
on_detail(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	struct prx *x = arg;

	if (j == NULL) {
		x->failed = 1;
		prx_done(g, x);
		return 0;
	}
	if (!cJSON_IsNumber(kh_get(j, "number")))
		return -1;
	switch (x->mode) {
	case PRX_LIST:
		gh_pr_detail(s->rec, j);
		break;
	case PRX_COMPLETE:
		complete_record(s->rec, j);
		break;
	case PRX_CLAIM:
		s->rec = gh_pr_record(j, x->repo);
		gh_pr_detail(s->rec, j);
		break;
	}
	if (kh_get_int(j, "additions", &x->added) == 0 &&
	    kh_get_int(j, "deletions", &x->deleted) == 0 &&
	    kh_get_int(j, "changed_files", &x->changed) == 0)
		x->have_sizes = 1;
	prx_done(g, x);
	return 0;
}

/* The '+' lines of a file's patch go to the hardware-signal scanner. */
static void
scan_patch(struct kh_signals *sig, const char *path, const char *patch)
{
	kh_signals_file(sig, path);
	while (patch && *patch) {
		const char *nl = strchr(patch, '\n');
		size_t len = nl ? (size_t)(nl - patch) : strlen(patch);

		if (len > 0 && patch[0] == '+' &&
		    !(len >= 3 && strncmp(patch, "+++", 3) == 0))
			kh_signals_line(sig, patch + 1, len - 1);
		patch += len + (nl ? 1 : 0);
	}
}

static int
on_files(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	struct prx *x = arg;
	const cJSON *f;

	if (j == NULL) {
		x->failed = 1;
		prx_done(g, x);
		return 0;
	}
	cJSON_ArrayForEach(f, j)
		if (kh_get_str(f, "filename") == NULL)
			return -1;
	cJSON_ArrayForEach(f, j) {
		cJSON *o = cJSON_CreateObject();
		const char *path = kh_get_str(f, "filename");
		long long a = 0, d = 0;

		kh_get_int(f, "additions", &a);
		kh_get_int(f, "deletions", &d);
		kh_add_str(o, "path", path);
		kh_add_int(o, "added", a);
		kh_add_int(o, "deleted", d);
		cJSON_AddItemToArray(x->files, o);
		x->nfiles++;
		x->fadded += a;
		x->fdeleted += d;
		scan_patch(x->sig, path, kh_get_str(f, "patch"));
	}
	if (r->next && x->nfiles < GH_FILES_CAP && gh_next_ok(g, r->next)) {
		x->waiting++;
		gh_get(g, r->next, s, cJSON_Array, on_files, x);
	}
	prx_done(g, x);
	return 0;
}

/* Queue the single-PR answer (and the files, with --files) for slot s. */
static void
pr_more(struct gh *g, struct gh_slot *s, const char *repo, long long n,
    int mode, const char *claimed)
{
	struct prx *x = kh_calloc(1, sizeof *x);
	char *url;

	x->s = s;
	x->repo = kh_strdup(repo);
	x->n = n;
	x->mode = mode;
	x->want_files = g->files;
	x->claimed = claimed ? kh_strdup(claimed) : NULL;
	x->waiting = 1 + g->files;
	if (g->files) {
		x->files = cJSON_CreateArray();
		x->sig = kh_signals_new();
	}
	url = gh_url(g, "/repos/%s/pulls/%lld", repo, n);
	gh_get(g, url, s, cJSON_Object, on_detail, x);
	free(url);
	if (g->files) {
		url = gh_url(g, "/repos/%s/pulls/%lld/files?per_page=100",
		    repo, n);
		gh_get(g, url, s, cJSON_Array, on_files, x);
		free(url);
	}
}

void
gh_files(struct gh *g, struct gh_slot *s, const char *repo, long long n)
{
	pr_more(g, s, repo, n, PRX_LIST, NULL);
}

/* ---- prs: the list pages of one repository ---- */

struct repo {
	char *name;
	struct gh_slot *end;	/* held until no more pages will come */
	char *pre, *post;	/* the page URL pattern: pre N post */
	long long next_page, last_page;
	int queued;		/* page slots not yet left */
	int stop;		/* --since: older than the window */
};

static int on_page(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg);

static void
repo_leave(struct gh *g, struct gh_slot *s)
{
	struct repo *rp = s->arg;

	free(rp->name);
	free(rp->pre);
	free(rp->post);
	free(rp);
}

static void feed(struct gh *g, struct repo *rp);

static void
page_leave(struct gh *g, struct gh_slot *s)
{
	struct repo *rp = s->arg;

	rp->queued--;
	feed(g, rp);
}

static void
queue_page(struct gh *g, struct repo *rp, const char *url, long long page)
{
	struct gh_slot *s = gh_slot_new(g, rp->end);

	s->arg = rp;
	s->on_leave = page_leave;
	rp->queued++;
	gh_get(g, url, s, cJSON_Array, on_page, (void *)(long)page);
}

/* Queue pattern pages while fewer than the window wait. */
static void
feed(struct gh *g, struct repo *rp)
{
	while (rp->pre && rp->next_page <= rp->last_page &&
	    (size_t)rp->queued < g->window / 2 + 1) {
		char *url = kh_asprintf("%s%lld%s", rp->pre, rp->next_page,
		    rp->post);

		queue_page(g, rp, url, rp->next_page);
		free(url);
		rp->next_page++;
	}
}

/* The value of "page=" in url: where it starts and its length, or -1. */
static long long
page_param(const char *url, size_t *at, size_t *len)
{
	const char *q = strchr(url, '?'), *p = q;

	while (p && (p = strstr(p, "page=")) != NULL) {
		if (p[-1] == '?' || p[-1] == '&') {
			size_t n = strspn(p + 5, "0123456789");

			if (n == 0 || n > 9)
				return -1;
			*at = (size_t)(p + 5 - url);
			*len = n;
			return strtoll(p + 5, NULL, 10);
		}
		p += 5;
	}
	return -1;
}

/*
 * From page 1's next and last: the URL pattern, if they differ only in the
 * page number. Then pages 2..last can be asked for at once.
 */
static void
pattern(struct repo *rp, const char *next, const char *last)
{
	size_t na, nl, la, ll;
	long long np = page_param(next, &na, &nl);
	long long lp = page_param(last, &la, &ll);

	if (np != 2 || lp < 3 || na != la ||
	    strncmp(next, last, na) != 0 ||
	    strcmp(next + na + nl, last + la + ll) != 0)
		return;
	rp->pre = kh_strndup(next, na);
	rp->post = kh_strdup(next + na + nl);
	rp->next_page = 2;
	rp->last_page = lp;
}

static int
on_page(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	struct repo *rp = s->arg;
	long long page = (long)arg;
	struct gh_slot *at = s;
	const cJSON *pr;
	int older = 0, items = 0;

	if (j == NULL) {	/* reported; a re-run resumes from the cache */
		if (!rp->pre || page >= rp->last_page)
			rp->end->held = 0;
		return 0;
	}
	cJSON_ArrayForEach(pr, j)
		if (!cJSON_IsNumber(kh_get(pr, "number")))
			return -1;
	cJSON_ArrayForEach(pr, j) {
		const char *merged_at = kh_get_str(pr, "merged_at");
		const char *closed_at = kh_get_str(pr, "closed_at");
		const char *updated = kh_get_str(pr, "updated_at");
		time_t t;

		kh_count_in();
		items++;
		if (g->have_since && updated &&
		    kh_parse_time(updated, &t) == 0 && t < g->since)
			older++;
		if (merged_at == NULL && !g->all)
			continue;
		if (g->have_since && (kh_parse_time(merged_at ? merged_at :
		    closed_at ? closed_at : "", &t) < 0 || t < g->since))
			continue;
		at = gh_slot_after(g, at);
		at->rec = gh_pr_record(pr, rp->name);
		if (g->files)
			gh_files(g, at, kh_get_str(at->rec, "repo"),
			    (long long)kh_get(pr, "number")->valuedouble);
	}
	/* --since lists by update time, newest first: stop past it */
	if (g->have_since && items > 0 && older == items)
		rp->stop = 1;
	if (page == 1 && r->next && r->last && !g->have_since)
		pattern(rp, r->next, r->last);
	if (rp->pre && page < rp->last_page)
		feed(g, rp);
	else if (r->next && !rp->stop && (!rp->pre || page >= rp->last_page) &&
	    gh_next_ok(g, r->next)) {
		/* no pattern (or the list grew past its last page): follow */
		free(rp->pre);
		free(rp->post);
		rp->pre = rp->post = NULL;
		queue_page(g, rp, r->next, page + 1);
	} else
		rp->end->held = 0;
	return 0;
}

int
gh_prs(struct gh *g, int argc, char **argv)
{
	if (argc == 0)
		kh_usage("github prs: which repositories? (OWNER/REPO...)");
	for (int i = 0; i < argc; i++)
		if (!gh_valid_repo(argv[i]))
			kh_usage("github prs: '%s' is not OWNER/REPO", argv[i]);
	for (int i = 0; i < argc; i++) {
		struct repo *rp;
		char *url;

		char *key = kh_asprintf("prs:%s", argv[i]);
		int fresh;

		for (char *p = key; *p; p++)	/* names are case-insensitive */
			*p = (char)tolower((unsigned char)*p);
		fresh = gh_set_add(&g->asked, key);
		free(key);
		if (!fresh)
			continue;
		rp = kh_calloc(1, sizeof *rp);
		rp->name = kh_strdup(argv[i]);
		rp->end = gh_slot_new(g, NULL);
		rp->end->held = 1;
		rp->end->arg = rp;
		rp->end->on_leave = repo_leave;
		url = gh_url(g, "/repos/%s/pulls?state=closed&sort=%s&"
		    "direction=desc&per_page=100", argv[i],
		    g->have_since ? "updated" : "created");
		queue_page(g, rp, url, 1);
		free(url);
	}
	return 0;
}

/* ---- prs --complete ---- */

static int
complete_one(cJSON *rec, const struct kh_pos *pos, void *arg)
{
	struct gh *g = arg;
	struct gh_slot *s = gh_slot_new(g, NULL);
	const char *repo = kh_get_str(rec, "repo");
	const cJSON *merged = kh_get(rec, "merged");
	long long n;

	s->rec = cJSON_Duplicate(rec, 1);
	s->pass = 1;
	if (strcmp(kh_get_str(rec, "type"), "evidence") != 0 ||
	    !kh_get_str(rec, "kind") || strcmp(kh_get_str(rec, "kind"),
	    "pr") != 0 || (merged && !cJSON_IsNull(merged)))
		return 0;	/* nothing to complete: passes through */
	if (repo == NULL || !gh_valid_repo(repo) ||
	    kh_get_int(rec, "number", &n) < 0 || n <= 0) {
		cJSON_Delete(s->rec);
		s->rec = NULL;
		kh_bad(pos, "PR evidence needs 'repo' (OWNER/NAME) and "
		    "'number'");
		return -1;
	}
	pr_more(g, s, repo, n, PRX_COMPLETE, NULL);
	gh_pump(g);
	return 0;
}

int
gh_complete(struct gh *g, int argc, char **argv)
{
	kh_loop(argc, argv, complete_one, g);
	return 0;
}

/* ---- claims ---- */

/*
 * [{name, email, login}] from "Co-authored-by: Name <addr>" trailers, as
 * kh-fetch git writes them; login only for a GitHub noreply address.
 */
static cJSON *
coauthors(const char *msg)
{
	cJSON *a = cJSON_CreateArray();

	while (msg && *msg) {
		const char *nl = strchr(msg, '\n');
		size_t len = nl ? (size_t)(nl - msg) : strlen(msg);
		const char *lt, *gt, *v;

		if (len > 15 && strncasecmp(msg, "co-authored-by:", 15) == 0 &&
		    (lt = memchr(msg, '<', len)) != NULL &&
		    (gt = memchr(lt, '>', len - (size_t)(lt - msg))) != NULL &&
		    gt > lt + 1) {
			cJSON *o = cJSON_CreateObject();
			const char *ve = lt;
			char *email = kh_strndup(lt + 1, (size_t)(gt - lt - 1));
			char *login = NULL;

			for (v = msg + 15; v < lt && (*v == ' ' || *v == '\t');
			    v++)
				;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			kh_add_strn(o, "name", v, (size_t)(ve - v));
			kh_add_str(o, "email", email);
			if (kh_noreply(email, &login, NULL)) {
				kh_add_str(o, "login", login);
				free(login);
			}
			free(email);
			cJSON_AddItemToArray(a, o);
		}
		msg += len + (nl ? 1 : 0);
	}
	return a;
}

/* A commit claim: the commit, and its repository for the fork status. */
struct cmt {
	struct gh_slot *s;
	char *repo, *claimed;
	cJSON *commit;		/* the commit answer, until both are in */
	int waiting, failed, fork;	/* fork: -1 unknown */
};

static void
cmt_finish(struct gh *g, struct cmt *c)
{
	const cJSON *j = c->commit, *f;
	cJSON *rec, *files;
	const char *sha, *msg, *nl;
	long long v;
	char *id;

	if (--c->waiting > 0)
		return;
	if (!c->failed && j) {
		sha = kh_get_str(j, "sha");
		msg = kh_get_str(j, "commit.message");
		if (msg == NULL)
			msg = "";
		nl = strchr(msg, '\n');
		rec = cJSON_CreateObject();
		kh_add_str(rec, "type", "evidence");
		id = kh_asprintf("github:commit:%s@%s", c->repo, sha);
		kh_add_str(rec, "id", id);
		free(id);
		kh_add_str(rec, "kind", "commit");
		kh_add_str(rec, "source", "github");
		cJSON_AddItemToObject(rec, "person", gh_person(
		    cJSON_IsObject(kh_get(j, "author")) ? kh_get(j, "author") :
		    NULL));
		kh_add_str(rec, "url", kh_get_str(j, "html_url"));
		gh_add_time(rec, "at", kh_get_str(j, "commit.author.date"));
		kh_add_str(rec, "repo", c->repo);
		if (c->fork < 0)
			kh_add_null(rec, "upstream");
		else
			kh_add_bool(rec, "upstream", !c->fork);
		kh_add_str(rec, "sha", sha);
		cJSON_AddItemToObject(rec, "author",
		    gh_ident(kh_get(j, "commit.author")));
		cJSON_AddItemToObject(rec, "committer",
		    gh_ident(kh_get(j, "commit.committer")));
		gh_add_time(rec, "committed_at",
		    kh_get_str(j, "commit.committer.date"));
		if (nl) {
			kh_add_strn(rec, "title", msg, (size_t)(nl - msg));
			while (*nl == '\n')
				nl++;
			gh_add_text(rec, "text", nl);
		} else {
			kh_add_str(rec, "title", msg);
			kh_add_str(rec, "text", "");
		}
		cJSON_AddItemToObject(rec, "coauthors", coauthors(msg));
		files = cJSON_AddArrayToObject(rec, "files");
		cJSON_ArrayForEach(f, kh_get(j, "files")) {
			cJSON *o = cJSON_CreateObject();
			long long a = 0, d = 0;

			kh_get_int(f, "additions", &a);
			kh_get_int(f, "deletions", &d);
			kh_add_str(o, "path", kh_get_str(f, "filename"));
			kh_add_int(o, "added", a);
			kh_add_int(o, "deleted", d);
			cJSON_AddItemToArray(files, o);
		}
		kh_add_int(rec, "added", kh_get_int(j, "stats.additions",
		    &v) == 0 ? v : 0);
		kh_add_int(rec, "deleted", kh_get_int(j, "stats.deletions",
		    &v) == 0 ? v : 0);
		kh_add_str(rec, "claimed", c->claimed);
		c->s->rec = rec;
	}
	cJSON_Delete(c->commit);
	free(c->repo);
	free(c->claimed);
	free(c);
}

static int
on_commit(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	struct cmt *c = arg;

	if (j && !kh_get_str(j, "sha"))
		return -1;
	if (j == NULL)
		c->failed = 1;
	else
		c->commit = cJSON_Duplicate(j, 1);
	cmt_finish(g, c);
	return 0;
}

static int
on_repo(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	struct cmt *c = arg;

	if (j && !cJSON_IsBool(kh_get(j, "fork")))
		return -1;
	/* without the repository the claim still stands, upstream null */
	if (j)
		c->fork = cJSON_IsTrue(kh_get(j, "fork"));
	cmt_finish(g, c);
	return 0;
}

/*
 * "https://github.com/O/R/pull/N[/...]", ".../O/R/commit/SHA",
 * ".../O/R/pull/N/commits/SHA" (scheme optional; query and fragment
 * ignored). Returns 'p' or 'c' with repo and n or sha set, else 0.
 */
static int
parse_claim(struct gh *g, const char *url, char **repo, long long *n,
    char **sha)
{
	char *u = kh_strdup(url), *p = u, *seg[6] = { 0 }, *save = NULL;
	int k = 0, kind = 0;
	size_t hl;

	p[strcspn(p, "?#")] = '\0';
	if (strncmp(p, "https://", 8) == 0)
		p += 8;
	else if (strncmp(p, "http://", 7) == 0)
		p += 7;
	hl = strcspn(p, "/");
	if (!((hl == 10 && strncasecmp(p, "github.com", 10) == 0) ||
	    (hl == 14 && strncasecmp(p, "www.github.com", 14) == 0) ||
	    (hl == strlen(g->web_host) && strncasecmp(p, g->web_host, hl) ==
	    0)))
		goto out;
	p += hl;
	for (char *s = strtok_r(p, "/", &save); s && k < 6;
	    s = strtok_r(NULL, "/", &save))
		seg[k++] = s;
	if (k < 4 || !gh_valid_name(seg[0]) || !gh_valid_name(seg[1]))
		goto out;
	if (strcmp(seg[2], "pull") == 0 || strcmp(seg[2], "pulls") == 0) {
		char *end;

		*n = strtoll(seg[3], &end, 10);
		if (*end || *n <= 0)
			goto out;
		if (k >= 6 && strcmp(seg[4], "commits") == 0) {
			seg[3] = seg[5];
			goto commit;
		}
		kind = 'p';
	} else if (strcmp(seg[2], "commit") == 0) {
commit:
		if (strlen(seg[3]) < 7 || strlen(seg[3]) > 64 ||
		    strspn(seg[3], "0123456789abcdefABCDEF") != strlen(seg[3]))
			goto out;
		*sha = kh_strdup(seg[3]);
		kind = 'c';
	}
	if (kind)
		*repo = kh_asprintf("%s/%s", seg[0], seg[1]);
out:
	free(u);
	return kind;
}

static void
claim(struct gh *g, const char *url, const struct kh_pos *pos)
{
	char *repo = NULL, *sha = NULL, *u;
	long long n = 0;
	int kind;
	struct gh_slot *s;

	kh_count_in();
	kind = parse_claim(g, url, &repo, &n, &sha);
	if (kind == 0) {
		kh_bad(pos, "not a GitHub pull request or commit URL '%s'",
		    url);
		return;
	}
	s = gh_slot_new(g, NULL);
	if (kind == 'p')
		pr_more(g, s, repo, n, PRX_CLAIM, url);
	else {
		struct cmt *c = kh_calloc(1, sizeof *c);

		c->s = s;
		c->repo = kh_strdup(repo);
		c->claimed = kh_strdup(url);
		c->waiting = 2;
		c->fork = -1;
		u = gh_url(g, "/repos/%s/commits/%s", repo, sha);
		gh_get(g, u, s, cJSON_Object, on_commit, c);
		free(u);
		u = gh_url(g, "/repos/%s", repo);
		gh_get(g, u, s, cJSON_Object, on_repo, c);
		free(u);
	}
	free(repo);
	free(sha);
	gh_pump(g);
}

static void
claim_line(const char *line, const struct kh_pos *pos, void *g)
{
	claim(g, line, pos);
}

int
gh_claims(struct gh *g, int argc, char **argv)
{
	struct kh_pos pos = { "<argv>", 0, 0 };

	for (int i = 0; i < argc; i++) {
		pos.line = (unsigned long)i + 1;
		claim(g, argv[i], &pos);
	}
	/* no operands: one URL a line on stdin */
	if (argc == 0)
		kh_loop_text(claim_line, g);
	return 0;
}
