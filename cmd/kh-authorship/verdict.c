/*
 * verdict.c: what each record proves, and for whom. The author's verdict
 * is worked out once per record; co-authors, committers and mergers get
 * theirs from it. The tests are in order: the first that holds decides.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "authorship.h"

const char *const verdict_name[] = { "verified", "coauthor", "fork-only",
	"copy", "unmerged", "trivial", "bulk", "bot", "committer-only",
	"unverified" };

/* Lower-cased "a|b|c" key for the indexes below. */
static char *
key3(const char *a, const char *b, const char *c)
{
	char *ab = join3(a, "|", b), *k = join3(ab, "|", c);

	free(ab);

	for (char *p = k; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p + 32);
	return k;
}

static char *
key_pr(const char *repo, long long n)
{
	char num[24];

	return key3(repo, "#", numstr(n, num));
}

static int
starts_with_ci(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

struct index {
	struct map upstream;	/* author email|at|title -> upstream commit */
	struct map commit_pr;	/* repo|#|N -> a commit that landed PR N */
	struct map title;	/* repo|title -> first commit (chain: next_title) */
	struct map pr;		/* repo|#|N -> the PR */
};

/* Titles that say the commit moves other people's code in bulk. */
static int
bulk_title(const char *t)
{
	static const char *const pre[] = { "sync from", "sync with",
		"sync to ", "sync upstream", "upstream sync", "merge upstream",
		"update from upstream", "import from", "initial import",
		"squashed commit", "release v", "release:", "vendor ",
		"internal change", NULL };

	if (t == NULL)
		return 0;
	for (const char *const *p = pre; *p; p++)
		if (starts_with_ci(t, *p))
			return 1;
	return strcasestr(t, "copybara") != NULL;
}

/* Titles of typo, formatting and docs fixes. */
static int
trivial_title(const char *t)
{
	static const char *const pre[] = { "typo", "fix typo", "fix a typo",
		"fix typos", "docs:", "doc:", "[docs]", "[doc]", "docs(",
		"update readme", "update readme.md", "readme", "format",
		"reformat", "lint", "style:", "whitespace", "ci:", "[ci]",
		"chore(docs)", NULL };

	if (t == NULL)
		return 0;
	for (const char *const *p = pre; *p; p++)
		if (starts_with_ci(t, *p))
			return 1;
	return 0;
}

static const struct claim *
author_claim(const struct ctx *c, const struct ev *e)
{
	const struct claim *cl = &c->claims[e->first_claim];

	return e->nclaims > 0 && cl->role == R_AUTHOR ? cl : NULL;
}

static int
is_fork(const struct ctx *c, const char *repo)
{
	char *k;
	int *f;

	if (repo == NULL)
		return 0;
	k = key3(repo, "", "");
	f = map_get(&c->forks, k);
	free(k);
	return f && *f;
}

static void
build_index(struct ctx *c, struct index *ix)
{
	char *k;

	for (size_t i = 0; i < c->nevs; i++) {
		const struct ev *e = &c->evs[i];

		if (e->kind == K_REPO && e->repo) {
			k = key3(e->repo, "", "");
			*map_put(&c->forks, k, 0) = e->fork;
			free(k);
		}
	}
	for (size_t i = 0; i < c->nevs; i++) {
		struct ev *e = &c->evs[i];
		const struct claim *a = author_claim(c, e);
		int *slot;

		if (e->kind == K_PR && e->pr >= 0) {
			k = key_pr(e->base_repo, e->pr);
			map_put(&ix->pr, k, (int)i);
			free(k);
		}
		if (e->kind != K_COMMIT || e->upstream == 0 ||
		    (e->upstream < 0 && is_fork(c, e->repo)))
			continue;
		/* the commits that are (or may be) in an upstream */
		if (e->upstream == 1 && a && a->who.email0) {
			k = key3(a->who.email0, e->at, e->title);
			map_put(&ix->upstream, k, (int)i);
			free(k);
		}
		if (e->pr >= 0) {
			k = key_pr(e->repo, e->pr);
			map_put(&ix->commit_pr, k, (int)i);
			free(k);
		}
		if (e->title && !e->merge) {
			k = key3(e->repo, e->title, "");
			slot = map_put(&ix->title, k, (int)i);
			if (*slot != (int)i) {
				e->next_title = c->evs[*slot].next_title;
				c->evs[*slot].next_title = (int)i;
			}
			free(k);
		}
	}
}

static void
say(struct ev *e, enum verdict v, const char *fmt, ...) KH_PRINTF(3, 4);

static void
say(struct ev *e, enum verdict v, const char *fmt, ...)
{
	va_list ap;
	struct kh_buf b = { 0 };
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		kh_die(KH_SYS, "out of memory");
	va_end(ap);
	kh_buf_adds(&b, s);
	free(s);
	e->v = v;
	free(e->why);
	e->why = kh_buf_detach(&b);
}

static const char *
or(const char *s, const char *def)
{
	return s ? s : def;
}

static const char *
short_sha(const struct ev *e, char out[13])
{
	snprintf(out, 13, "%.12s", e->sha ? e->sha : e->id);
	return out;
}

/* Bulk or trivial by size and files; 1 when it decided. */
static int
size_verdict(const struct ctx *c, struct ev *e)
{
	long long lines = (e->added >= 0 ? e->added : 0) +
	    (e->deleted >= 0 ? e->deleted : 0);
	int known = e->added >= 0 || e->deleted >= 0;

	if ((c->max_files > 0 && e->nfiles > c->max_files) ||
	    (c->max_lines > 0 && known && lines > c->max_lines)) {
		say(e, V_BULK, "%lld files, %lld lines: a release drop or mass "
		    "import, not credited to whoever pushed it",
		    e->nfiles < 0 ? 0 : e->nfiles, lines);
		return 1;
	}
	if (e->kind == K_COMMIT && e->title && bulk_title(e->title)) {
		say(e, V_BULK, "a sync or import commit ('%s'), not credited "
		    "to whoever pushed it", e->title);
		return 1;
	}
	if (e->docs_only) {
		say(e, V_TRIVIAL, "docs- or CI-only change (%lld file%s)",
		    e->nfiles, e->nfiles == 1 ? "" : "s");
		return 1;
	}
	if (e->title && trivial_title(e->title)) {
		say(e, V_TRIVIAL, "a typo, formatting or docs fix ('%s')",
		    e->title);
		return 1;
	}
	if (known && lines < c->min_lines) {
		say(e, V_TRIVIAL, "%lld changed line%s, below --min-lines=%lld",
		    lines, lines == 1 ? "" : "s", c->min_lines);
		return 1;
	}
	return 0;
}

static void
judge_commit(struct ctx *c, struct index *ix, struct ev *e,
    const struct claim *a)
{
	char sha[13], *k;
	int *hit;

	if (a && a->who.bot) {
		say(e, V_BOT, "authored by a bot (%s)", or(e->author, "?"));
		return;
	}
	if (e->merge) {
		say(e, V_COMMITTER_ONLY, "a merge commit: it merges other "
		    "people's work");
		return;
	}
	if (e->upstream == 0 || (e->upstream < 0 && is_fork(c, e->repo))) {
		k = a && a->who.email0 ? key3(a->who.email0, e->at, e->title) :
		    NULL;
		hit = k ? map_get(&ix->upstream, k) : NULL;
		free(k);
		if (hit)
			say(e, V_COPY, "same author, date and subject as "
			    "upstream commit %s: rebased or cherry-picked "
			    "upstream work", short_sha(&c->evs[*hit], sha));
		else if (e->cherry)
			say(e, V_COPY, "cherry-picked from another commit");
		else
			say(e, V_FORK_ONLY, "only in %s %s, not in the upstream",
			    e->upstream == 0 ? "the fork" : "fork",
			    or(e->repo, "?"));
		return;
	}
	if (size_verdict(c, e))
		return;
	if (e->upstream == 1) {
		say(e, V_VERIFIED, "in the history of %s's default branch",
		    or(e->repo, "the upstream"));
		return;
	}
	if (e->pr >= 0 && e->repo) {
		k = key_pr(e->repo, e->pr);
		hit = map_get(&ix->pr, k);
		free(k);
		if (hit && c->evs[*hit].merged == 1) {
			say(e, V_VERIFIED, "landed through merged PR %s#%lld",
			    e->repo, e->pr);
			return;
		}
	}
	say(e, V_UNVERIFIED, "not known to be upstream: fetched without "
	    "--upstream and no merged PR names it");
}

/* A commit of the same person, or naming the PR, that landed it. */
static int
landed(struct ctx *c, struct index *ix, const struct ev *e,
    const struct claim *a)
{
	char *k = key_pr(e->base_repo, e->pr);
	int *hit = map_get(&ix->commit_pr, k), i;

	free(k);
	if (hit)
		return *hit;
	if (e->title == NULL || a == NULL || a->cand < 0)
		return -1;
	k = key3(e->base_repo, e->title, "");
	hit = map_get(&ix->title, k);
	free(k);
	for (i = hit ? *hit : -1; i >= 0; i = c->evs[i].next_title) {
		const struct claim *ca = author_claim(c, &c->evs[i]);

		if (ca && ca->cand == a->cand)
			return i;
	}
	return -1;
}

static void
judge_pr(struct ctx *c, struct index *ix, struct ev *e, const struct claim *a)
{
	const char *repo = or(e->base_repo, "?");
	char sha[13];
	int l;

	if ((a && a->who.bot) || e->bot) {
		say(e, V_BOT, "opened by a bot (%s)", or(e->author, "?"));
		return;
	}
	if (is_fork(c, e->base_repo)) {
		say(e, V_FORK_ONLY, "a PR into the fork %s, not the upstream",
		    repo);
		return;
	}
	l = e->merged == 1 ? -1 : landed(c, ix, e, a);
	if (e->merged != 1 && l < 0) {
		if (e->merged == 0)
			say(e, V_UNMERGED, "PR %s#%lld was not merged and no "
			    "commit landed it", repo, e->pr);
		else
			say(e, V_UNVERIFIED, "PR %s#%lld: merge state unknown",
			    repo, e->pr);
		return;
	}
	if (size_verdict(c, e))
		return;
	if (l >= 0)
		say(e, V_VERIFIED, "PR %s#%lld closed unmerged, but landed as "
		    "commit %s", repo, e->pr, short_sha(&c->evs[l], sha));
	else
		say(e, V_VERIFIED, "merged into %s as PR #%lld", repo, e->pr);
}

static void
judge_other(struct ev *e, const struct claim *a)
{
	switch (e->kind) {
	case K_LEADERBOARD:
		/*
		 * A rank taken after the deadline is machine-verified skill,
		 * not a prize placement: verified here, and kh-score credits
		 * it as skill only.
		 */
		if (e->after_deadline && e->rank >= 1)
			say(e, V_VERIFIED, "ranked %lld on %s (%s) after the "
			    "deadline: skill, not a placement", e->rank,
			    or(e->board, "a board"), or(e->gpu, "?"));
		else if (e->after_deadline)
			say(e, V_UNVERIFIED, "submitted after the deadline of %s",
			    or(e->board, "the board"));
		else if (e->rank >= 1 && e->ranked >= e->rank)
			say(e, V_VERIFIED, "ranked %lld of %d on %s (%s)",
			    e->rank, e->ranked, or(e->board, "a board"),
			    or(e->gpu, "?"));
		else if (e->rank >= 1)
			say(e, V_VERIFIED, "ranked %lld on %s (%s)", e->rank,
			    or(e->board, "a board"), or(e->gpu, "?"));
		else
			say(e, V_UNVERIFIED, "on %s but not ranked",
			    or(e->board, "the board"));
		break;
	case K_COMPETITION:
		/* A self-reported placing is the member's own entry, so it
		 * is theirs; kh-score gives it less than an organiser's word.
		 * Low confidence in the registry is not enough facts. */
		if (e->low_conf)
			say(e, V_UNVERIFIED, "placing %s is of low confidence",
			    or(e->placing, "?"));
		else if (e->self_reported)
			say(e, V_VERIFIED, "placed %s, self-reported (the "
			    "organiser does not say): counts less",
			    or(e->placing, "?"));
		else
			say(e, V_VERIFIED, "placed %s (organiser: %s)",
			    or(e->placing, "?"), or(e->organiser, "?"));
		break;
	case K_PAPER:
		if (e->ambiguous)
			say(e, V_UNVERIFIED, "the author name matches more than "
			    "one person");
		else
			say(e, V_VERIFIED, "an author of a paper in %s",
			    or(e->venue, "an unknown venue"));
		break;
	case K_RATING:
		say(e, V_VERIFIED, "rated %lld by %s", e->rating,
		    or(e->source, "?"));
		break;
	case K_REPO:
		if (e->fork)
			say(e, V_FORK_ONLY, "a fork of %s",
			    or(e->parent, "another repository"));
		else
			say(e, V_UNVERIFIED, "own repository (%lld stars): "
			    "not reviewed by an upstream", e->stars < 0 ? 0 :
			    e->stars);
		break;
	case K_PROFILE:
		say(e, V_UNVERIFIED, "a profile: says who, proves no work");
		break;
	default:
		say(e, V_UNVERIFIED, "no rule for this kind of evidence");
	}
	if (a && a->who.bot)
		say(e, V_BOT, "a bot (%s)", or(e->author, "?"));
}

/* The verdict for one non-author claim, from the author's. */
static void
judge_claim(struct ctx *c, struct claim *cl)
{
	const struct ev *e = &c->evs[cl->ev];
	const char *by = or(e->author, "someone else");
	char sha[13];

	cl->v = e->v;
	if (cl->role == R_AUTHOR)
		return;
	if (cl->who.bot) {
		cl->v = V_BOT;
		cl->why = kh_asprintf("a bot or AI agent credited as %s",
		    cl->role == R_COAUTHOR ? "co-author" : "committer");
	} else if (cl->role == R_COMMITTER) {
		cl->v = V_COMMITTER_ONLY;
		cl->why = kh_asprintf("committed %s's work", by);
	} else if (cl->role == R_MERGER) {
		cl->v = V_COMMITTER_ONLY;
		cl->why = kh_asprintf("merged %s's PR", by);
	} else if (e->v == V_VERIFIED) {
		cl->v = V_COAUTHOR;
		cl->why = kh_asprintf("co-author of %s's %s %s", by,
		    e->kind == K_PR ? "PR" : "commit", e->kind == K_PR ?
		    or(e->id, "?") : short_sha(e, sha));
	} else
		cl->why = kh_asprintf("co-author; the author's verdict: %s",
		    e->why);
}

void
judge(struct ctx *c)
{
	struct index ix;

	memset(&ix, 0, sizeof ix);
	build_index(c, &ix);
	for (size_t i = 0; i < c->nevs; i++) {
		struct ev *e = &c->evs[i];
		const struct claim *a = author_claim(c, e);

		if (e->kind == K_COMMIT)
			judge_commit(c, &ix, e, a);
		else if (e->kind == K_PR)
			judge_pr(c, &ix, e, a);
		else
			judge_other(e, a);
		/* landed work with no one to credit: a deleted account, root@ */
		if (e->v == V_VERIFIED && (a == NULL || (!a->who.login &&
		    !a->who.email && !a->who.handle && !a->who.ghid))) {
			char *why = kh_asprintf("%s, but its author is gone or "
			    "generic: no one to credit", e->why);

			say(e, V_UNVERIFIED, "%s", why);
			free(why);
		}
	}
	for (size_t i = 0; i < c->nclaims; i++)
		if (c->claims[i].ev >= 0)
			judge_claim(c, &c->claims[i]);
	map_free(&ix.upstream);
	map_free(&ix.commit_pr);
	map_free(&ix.title);
	map_free(&ix.pr);
}
