/*
 * score.c: one candidate's score. Each kind of proof of work becomes one or
 * more signals {signal, points, evidence, why}; the total is their sum. Only
 * evidence whose authorship verdict is verified or coauthor earns points.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

#define NFIELDS 39
enum { P_KERNEL, P_CODE, P_TEST, P_BENCH, P_CI, P_DOCS, NPCLASS };
static const char *const pclass_names[NPCLASS] = {
	"kernel", "code", "tests", "benchmarks", "CI and build", "docs"
};
enum { R_LISTED, R_DEFAULT, R_PERSONAL, R_LEARNING, R_REVIEWED };

struct ev {
	const cJSON *j;
	const char *id, *kind, *repo, *verdict;
	double credit;		/* 0: earns nothing */
	time_t at;
	int has_at, cited, code, kernel, shared, merged;
	int dup;		/* a commit its credited PR already counts */
	double q;		/* leaderboard quality, 0..1 */
	int personal;		/* in a personal or learning repository */
	int reviewed;		/* landed through a PR someone else merged */
	const cJSON *sig;	/* signals, or NULL */
	const cJSON *files;	/* files, or NULL */
	const cJSON *f[NFIELDS];	/* the fields scoring reads, by index */
	int inf, tr;		/* specialty */
};

/*
 * The evidence fields scoring reads. Each evidence object's keys are
 * walked once and kept by index, so later lookups cost a hash, not a
 * scan of thirty keys with strcmp.
 */
static const char *const field_names[NFIELDS] = {
	"id", "kind", "repo", "authorship", "at", "committed_at",
	"merged_at", "merged", "signals", "files", "title", "text",
	"number", "pr", "merge", "upstream", "added", "board",
	"board_name", "gpu", "rank", "ranked", "after_deadline",
	"deadline", "competition", "organiser", "placing", "placing_text",
	"self_reported", "confidence", "venue", "position", "year",
	"topics", "ambiguous", "rating", "max_rating", "max_rank_title",
	"source"
};
static signed char field_slot[256];	/* hash -> index + 1, 0: empty */

static unsigned
field_hash(const char *k)
{
	unsigned h = 5381;

	while (*k)
		h = h * 33 + (unsigned char)*k++;
	return h & 255;
}

static int
field_index(const char *k)
{
	static int built;
	unsigned h;

	if (!built) {
		for (int i = 0; i < NFIELDS; i++) {
			for (h = field_hash(field_names[i]);
			    field_slot[h]; h = (h + 1) & 255)
				;
			field_slot[h] = (signed char)(i + 1);
		}
		built = 1;
	}
	for (h = field_hash(k); field_slot[h]; h = (h + 1) & 255)
		if (strcmp(field_names[field_slot[h] - 1], k) == 0)
			return field_slot[h] - 1;
	return -1;
}

struct sig {
	char *name, *why;
	double points;
	cJSON *ids;
	cJSON *extra;		/* "speedup" object or NULL */
	int seq;
};

struct cand {
	const struct weights *w;
	const struct brief *b;
	const cJSON *rec;
	time_t now;
	struct ev *ev;
	int nev;
	struct sig *sig;
	int nsig, sigcap;
	int strong, moderate;
	unsigned gens;
	cJSON *gen_ids[NARCH];
	struct kh_buf low, tmp;
};

/* One key, not a dotted path: the lookups on the hot path. */
static cJSON *
get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *
get_str(const cJSON *o, const char *key)
{
	const cJSON *j = get(o, key);

	return cJSON_IsString(j) ? j->valuestring : NULL;
}

/* A whole number (never valueint, which saturates), or digits in a string. */
static int
get_int(const cJSON *o, const char *key, long long *v)
{
	const cJSON *j = get(o, key);

	if (cJSON_IsNumber(j) && j->valuedouble == floor(j->valuedouble) &&
	    fabs(j->valuedouble) < 9e15) {
		*v = (long long)j->valuedouble;
		return 0;
	}
	return cJSON_IsString(j) ? kh_get_int(o, key, v) : -1;
}

/* A multiple of 0.1 as exact JSON text ("21.2", "18", "-3.5"), raw. */
static cJSON *
tenths(double x)
{
	long long t = llround(x * 10);
	char b[32];

	if (t % 10 == 0)
		snprintf(b, sizeof b, "%lld", t / 10);
	else
		snprintf(b, sizeof b, "%s%lld.%lld", t < 0 ? "-" : "",
		    llabs(t) / 10, llabs(t) % 10);
	return cJSON_CreateRaw(b);
}

static double
round1(double x)
{
	return floor(x * 10 + 0.5) / 10;
}

static char *
commas(char *out, size_t n, double v)
{
	char d[32];
	long long x = (long long)floor(v + 0.5);
	size_t len, o = 0;

	snprintf(d, sizeof d, "%lld", x < 0 ? -x : x);
	len = strlen(d);
	if (x < 0 && o + 1 < n)
		out[o++] = '-';
	for (size_t i = 0; i < len && o + 2 < n; i++) {
		out[o++] = d[i];
		if ((len - i - 1) % 3 == 0 && i + 1 < len)
			out[o++] = ',';
	}
	out[o] = '\0';
	return out;
}

static const char *
plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static struct sig *
add_sig(struct cand *c, const char *name, double points)
{
	struct sig *s;

	if (c->nsig == c->sigcap) {
		c->sigcap = c->sigcap ? c->sigcap * 2 : 16;
		c->sig = kh_realloc(c->sig, (size_t)c->sigcap * sizeof *c->sig);
	}
	s = &c->sig[c->nsig];
	memset(s, 0, sizeof *s);
	s->name = kh_strdup(name);
	s->points = round1(points);
	s->ids = cJSON_CreateArray();
	s->seq = c->nsig++;
	return s;
}

static void
cite(struct sig *s, struct ev *e)
{
	cJSON_AddItemToArray(s->ids, cJSON_CreateString(e->id));
	e->cited = 1;
}

/* Apply a cap to signals [from, nsig): the best keep their points. */
static void
cap_group(struct cand *c, int from, double cap, const char *what)
{
	double left = cap;
	int order[256], n = 0;

	for (int i = from; i < c->nsig && n < 256; i++)
		order[n++] = i;
	for (int i = 1; i < n; i++)	/* insertion sort, points desc */
		for (int k = i; k > 0 && c->sig[order[k]].points >
		    c->sig[order[k - 1]].points; k--) {
			int t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		struct sig *s = &c->sig[order[i]];

		if (s->points > left) {
			char *why = kh_asprintf("%s; %s count at most %g "
			    "points together", s->why, what, cap);

			free(s->why);
			s->why = why;
			s->points = round1(left > 0 ? left : 0);
		}
		left -= s->points;
	}
}

/* Sort values desc and weight the k-th by 1/k: diminishing returns. */
static void
diminish(struct cand *c, int from, const char *what)
{
	int n = c->nsig - from;

	for (int i = 1; i < n; i++)
		for (int k = from + i; k > from && c->sig[k].points >
		    c->sig[k - 1].points; k--) {
			struct sig t = c->sig[k];

			c->sig[k] = c->sig[k - 1];
			c->sig[k - 1] = t;
		}
	for (int k = 0; k < n; k++)	/* ties keep this order */
		c->sig[from + k].seq = from + k;
	for (int k = 1; k < n; k++) {
		struct sig *s = &c->sig[from + k];
		char *why = kh_asprintf("%s; %s %d of %d, counted at 1/%d",
		    s->why, what, k + 1, n, k + 1);

		free(s->why);
		s->why = why;
		s->points = round1(s->points / (k + 1));
	}
}

/* A field of the evidence (borrowed), NULL when absent. */
static const cJSON *
ef(const struct ev *e, const char *key)
{
	int i = field_index(key);

	return i < 0 ? get(e->j, key) : e->f[i];
}

static const char *
ev_str(const struct ev *e, const char *key)
{
	const cJSON *j = ef(e, key);

	return cJSON_IsString(j) ? j->valuestring : NULL;
}

static int
ev_int(const struct ev *e, const char *key, long long *v)
{
	const cJSON *j = ef(e, key);

	if (cJSON_IsNumber(j) && j->valuedouble == floor(j->valuedouble) &&
	    fabs(j->valuedouble) < 9e15) {
		*v = (long long)j->valuedouble;
		return 0;
	}
	return cJSON_IsString(j) ? kh_get_int(e->j, key, v) : -1;
}

static int
ev_true(const struct ev *e, const char *key)
{
	return cJSON_IsTrue(ef(e, key));
}

static int
lcase_eq(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

/* repositories */

struct repo {
	const char *name;
	double weight;
	int kind;
	const cJSON *dirs;
	const char *specialty;
};

static void
repo_info(const struct cand *c, const char *name, struct repo *r)
{
	const struct weights *w = c->w;
	const cJSON *e;
	const char *slash;

	memset(r, 0, sizeof *r);
	r->name = name;
	cJSON_ArrayForEach(e, w->repos)
		if (strcasecmp(e->string, name) == 0) {
			r->weight = get(e, "weight")->valuedouble;
			r->kind = R_LISTED;
			r->dirs = get(e, "kernel_dirs");
			r->specialty = get_str(e, "specialty");
			return;
		}
	slash = strchr(name, '/');
	if (slash) {
		const char *base = slash + 1;
		size_t olen = (size_t)(slash - name);

		cJSON_ArrayForEach(e, get(c->rec, "logins"))
			if (cJSON_IsString(e) && strlen(e->valuestring) ==
			    olen && strncasecmp(e->valuestring, name, olen) ==
			    0) {
				r->weight = w->repo_personal;
				r->kind = R_PERSONAL;
				return;
			}
		lower_into((struct kh_buf *)&c->tmp, base, 200);
		cJSON_ArrayForEach(e, w->learning_patterns)
			if (cJSON_IsString(e) && strstr(c->tmp.p,
			    e->valuestring)) {
				r->weight = w->repo_learning;
				r->kind = R_LEARNING;
				return;
			}
	}
	/* an unlisted repository where others merged the candidate's PRs */
	for (int i = 0; i < c->nev; i++)
		if (c->ev[i].reviewed && c->ev[i].repo &&
		    strcasecmp(c->ev[i].repo, name) == 0) {
			r->weight = w->repo_reviewed;
			r->kind = R_REVIEWED;
			return;
		}
	r->weight = w->repo_default;
	r->kind = R_DEFAULT;
}

static int
has_seg(const char *path, const char *seg)
{
	size_t n = strlen(seg);
	const char *p = path;

	while ((p = strstr(p, seg)) != NULL) {
		if ((p == path || p[-1] == '/') && (p[n] == '/' || p[n] == '\0'))
			return 1;
		p++;
	}
	return 0;
}

static int
ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && strcasecmp(s + n - m, suf) == 0;
}

static int
path_class(const char *path, const cJSON *dirs)
{
	static const char *const docs_ext[] = { ".md", ".rst", ".txt",
	    ".adoc", ".html", ".png", ".jpg", ".svg", ".ipynb", NULL };
	static const char *const ci_ext[] = { ".yml", ".yaml", ".toml",
	    ".cfg", ".cmake", ".json", ".sh", ".lock", "Makefile",
	    "CMakeLists.txt", "Dockerfile", "setup.py", ".gitignore",
	    ".clang-format", NULL };
	const char *base = strrchr(path, '/');
	const cJSON *d;

	base = base ? base + 1 : path;
	if (has_seg(path, "docs") || has_seg(path, "doc") ||
	    strncasecmp(base, "README", 6) == 0 ||
	    strncasecmp(base, "LICENSE", 7) == 0 ||
	    strncasecmp(base, "CHANGELOG", 9) == 0)
		return P_DOCS;
	for (int i = 0; docs_ext[i]; i++)
		if (ends_with(path, docs_ext[i]))
			return P_DOCS;
	if (has_seg(path, ".github") || has_seg(path, ".ci") ||
	    has_seg(path, "ci") || has_seg(path, ".circleci") ||
	    has_seg(path, ".buildkite") || has_seg(path, "docker") ||
	    has_seg(path, "cmake") || has_seg(path, "scripts"))
		return P_CI;
	for (int i = 0; ci_ext[i]; i++)
		if (ends_with(base, ci_ext[i]))
			return P_CI;
	if (has_seg(path, "test") || has_seg(path, "tests") ||
	    has_seg(path, "testing") || strncmp(base, "test_", 5) == 0 ||
	    strstr(base, "_test.") || strstr(base, ".test."))
		return P_TEST;
	if (has_seg(path, "bench") || has_seg(path, "benchmark") ||
	    has_seg(path, "benchmarks") || strncmp(base, "bench", 5) == 0)
		return P_BENCH;
	if (ends_with(path, ".cu") || ends_with(path, ".cuh") ||
	    ends_with(path, ".ptx") || ends_with(path, ".hip"))
		return P_KERNEL;
	if (!kh_signals_code_file(path))
		return P_DOCS;	/* data, images: next to nothing */
	cJSON_ArrayForEach(d, dirs)
		if (cJSON_IsString(d) && strncmp(path, d->valuestring,
		    strlen(d->valuestring)) == 0)
			return P_KERNEL;
	/* an unlisted repository: its source files may be kernels */
	return dirs ? P_CODE : P_KERNEL;
}

static int
docs_title(struct cand *c, const char *title)
{
	static const char *const t[] = { "doc", "readme", "typo", "bump ",
	    "ci:", "ci ", "[ci]", "workflow", "changelog", "release", NULL };

	if (title == NULL)
		return 0;
	lower_into(&c->low, title, 200);
	for (int i = 0; t[i]; i++)
		if (term_in(c->low.p, c->low.len, t[i]))
			return 1;
	return 0;
}

/* An instruction count: names hold dots ("mma.sync"), so no kh_get path. */
static int
insn_count(const cJSON *sig, const char *name, long long *n)
{
	const cJSON *ins = cJSON_GetObjectItemCaseSensitive(sig,
	    "instructions");
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(ins, name);

	if (!cJSON_IsNumber(j) || j->valuedouble < 1)
		return -1;
	*n = (long long)j->valuedouble;
	return 0;
}

static int
has_insn(const cJSON *sig)
{
	static const char *const deep[] = { "inline_asm", "mma.sync",
	    "ldmatrix", "cp.async", "wgmma", "tma", "setmaxnreg", "tcgen05",
	    "tmem", "mfma", NULL };

	long long n;

	for (int i = 0; deep[i]; i++)
		if (insn_count(sig, deep[i], &n) == 0)
			return 1;
	return 0;
}

/* landed work, per repository */

#define MAXDIRS 8
struct repo_acc {
	struct repo r;
	double nk, no, kl, ol, cls[NPCLASS];
	int prs, commits, coauth, capped, nids;
	int nkfiles;
	char **kfiles;
	int kfcap;
	struct {
		char name[64];
		double lines;
	} dirs[MAXDIRS];
	int ndirs;
	int first;	/* first evidence index */
};

static void
note_kfile(struct repo_acc *a, const char *path)
{
	int i;

	for (i = 0; i < a->nkfiles; i++)
		if (strcmp(a->kfiles[i], path) == 0)
			break;
	if (i == a->nkfiles && a->nkfiles < 2000) {
		if (a->nkfiles == a->kfcap) {
			a->kfcap = a->kfcap ? a->kfcap * 2 : 16;
			a->kfiles = kh_realloc(a->kfiles, (size_t)a->kfcap *
			    sizeof *a->kfiles);
		}
		a->kfiles[a->nkfiles++] = kh_strdup(path);
	}
}

static void
note_dir(struct repo_acc *a, const char *path, double lines)
{
	const char *slash = strchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : strlen(path);
	int i;

	if (!slash || dl >= sizeof a->dirs[0].name)
		return;
	for (i = 0; i < a->ndirs; i++)
		if (strlen(a->dirs[i].name) == dl &&
		    strncmp(a->dirs[i].name, path, dl) == 0)
			break;
	if (i == a->ndirs) {
		if (a->ndirs == MAXDIRS)
			return;
		memcpy(a->dirs[i].name, path, dl);
		a->dirs[i].name[dl] = '\0';
		a->ndirs++;
	}
	a->dirs[i].lines += lines;
}

/* 1 + the index of the credited PR repo#num, or 0. */
static int
pr_in(const struct cand *c, const char *repo, long long num)
{
	for (int i = 0; i < c->nev; i++) {
		const struct ev *e = &c->ev[i];
		long long n;

		if (e->credit > 0 && e->kind && strcmp(e->kind, "pr") == 0 &&
		    lcase_eq(e->repo, repo) &&
		    ev_int(e, "number", &n) == 0 && n == num)
			return i + 1;
	}
	return 0;
}

/* One commit or PR into its repository's account. */
static void
add_item(struct cand *c, struct repo_acc *a, struct ev *e)
{
	const struct weights *w = c->w;
	const cJSON *files = e->files, *f;
	double k = 0, cls[NPCLASS] = { 0 }, o = 0;
	int any_kernel_file = 0;

	if (files) {
		cJSON_ArrayForEach(f, files) {
			const char *path = get_str(f, "path");
			long long add;
			int pc;

			if (path == NULL || get_int(f, "added", &add) != 0 ||
			    add <= 0)
				continue;
			pc = path_class(path, a->r.kind == R_LISTED ? a->r.dirs :
			    NULL);
			cls[pc] += (double)add;
			if (pc == P_KERNEL) {
				any_kernel_file = 1;
				note_kfile(a, path);
				note_dir(a, path, (double)add);
			}
		}
	} else {
		long long add = 0;
		int pc;

		ev_int(e, "added", &add);
		if (add < 0)
			add = 0;
		if (docs_title(c, ev_str(e, "title")))
			pc = P_DOCS;
		else if (e->sig)
			pc = P_KERNEL;
		else
			pc = P_CODE;
		cls[pc] = (double)add * w->landed.unsized;
	}
	k = cls[P_KERNEL];
	if (k > w->landed.item_cap || cls[P_CODE] + cls[P_TEST] +
	    cls[P_BENCH] + cls[P_CI] + cls[P_DOCS] > w->landed.item_cap * 4)
		a->capped++;
	if (k > w->landed.item_cap)
		k = w->landed.item_cap;
	for (int i = P_CODE; i < NPCLASS; i++)
		o += cls[i] * w->landed.path[i];
	if (o > w->landed.item_cap)
		o = w->landed.item_cap;
	for (int i = 0; i < NPCLASS; i++)
		a->cls[i] += (i == P_KERNEL ? k : cls[i]) * e->credit;
	e->kernel = k >= w->landed.kernel_min || (k > 0 && e->sig &&
	    has_insn(e->sig)) || (any_kernel_file && e->sig != NULL);
	if (e->kernel) {
		a->nk += e->credit;
		a->kl += k * e->credit;
	} else {
		a->no += e->credit;
	}
	a->ol += o * e->credit;
	if (strcmp(e->kind, "pr") == 0)
		a->prs++;
	else
		a->commits++;
	if (e->credit < 1)
		a->coauth++;
	e->shared = (a->r.kind == R_LISTED || a->r.kind == R_REVIEWED) &&
	    a->r.weight >= w->shared_min;
}

static void
why_items(struct kh_buf *b, const struct repo_acc *a)
{
	if (a->prs)
		kh_buf_addf(b, "%d merged %s", a->prs, plural(a->prs, "PR",
		    "PRs"));
	if (a->prs && a->commits)
		kh_buf_adds(b, " and ");
	if (a->commits)
		kh_buf_addf(b, "%d %s", a->commits, plural(a->commits,
		    "commit", "commits"));
	if (a->coauth)
		kh_buf_addf(b, " (%d as co-author)", a->coauth);
}

static void
landed(struct cand *c)
{
	const struct weights *w = c->w;
	struct repo_acc *acc = NULL;
	int nacc = 0, from = c->nsig;
	char n1[32], n2[32];

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		struct repo_acc *a = NULL;

		if (e->credit <= 0 || !e->code || e->repo == NULL)
			continue;
		if (strcmp(e->kind, "pr") == 0 && !e->merged)
			continue;
		if (strcmp(e->kind, "commit") == 0 &&
		    (ev_true(e, "merge") || e->dup))
			continue;	/* counted by its PR */
		if (cJSON_IsFalse(ef(e, "upstream")))
			continue;	/* a fork: nothing landed */
		for (int k = 0; k < nacc; k++)
			if (strcasecmp(acc[k].r.name, e->repo) == 0)
				a = &acc[k];
		if (a == NULL) {
			acc = kh_realloc(acc, (size_t)(nacc + 1) * sizeof *acc);
			a = &acc[nacc++];
			memset(a, 0, sizeof *a);
			repo_info(c, e->repo, &a->r);
			a->first = i;
		}
		add_item(c, a, e);
	}
	for (int k = 0; k < nacc; k++) {
		struct repo_acc *a = &acc[k];
		struct kh_buf b = { 0 };
		double lw = w->landed.lines, pts;
		const char *name;
		int personal = a->r.kind == R_PERSONAL ||
		    a->r.kind == R_LEARNING;
		struct sig *s;

		pts = w->landed.count * log2(1 + a->nk) +
		    w->landed.count_other * log2(1 + a->no) +
		    lw * log2(1 + a->kl / w->landed.unit) +
		    w->landed.lines_other * log2(1 + a->ol / w->landed.unit);
		pts *= a->r.weight;
		if (pts > w->landed.repo_cap)
			pts = w->landed.repo_cap;
		if (personal)
			name = a->nk > 0 ? "learning_in_public" :
			    "personal_work";
		else
			name = a->nk > 0 ? "landed_kernel_work" :
			    "landed_other_work";
		if (personal && a->nk > 0)
			kh_buf_adds(&b, "learning in public: ");
		why_items(&b, a);
		kh_buf_addf(&b, " in %s (%s, weight %.2f)", a->r.name,
		    a->r.kind == R_LISTED ? "listed repository" :
		    a->r.kind == R_PERSONAL ? "personal repository" :
		    a->r.kind == R_LEARNING ? "learning or course repository" :
		    a->r.kind == R_REVIEWED ? "unlisted repository, pull "
		    "requests merged by others" : "unlisted repository",
		    a->r.weight);
		if (a->nk > 0) {
			kh_buf_addf(&b, ": %s kernel %s", commas(n1, sizeof n1,
			    a->cls[P_KERNEL]), plural(a->cls[P_KERNEL],
			    "line", "lines"));
			if (personal)
				kh_buf_addf(&b, " in %d kernel %s", a->nkfiles,
				    plural(a->nkfiles, "file", "files"));
			else if (a->ndirs > 0) {
				int best = 0, second = -1;

				for (int d = 1; d < a->ndirs; d++)
					if (a->dirs[d].lines >
					    a->dirs[best].lines)
						best = d;
				for (int d = 0; d < a->ndirs; d++)
					if (d != best && (second < 0 ||
					    a->dirs[d].lines >
					    a->dirs[second].lines))
						second = d;
				kh_buf_addf(&b, " in %s", a->dirs[best].name);
				if (second >= 0)
					kh_buf_addf(&b, ", %s",
					    a->dirs[second].name);
			}
		} else {
			kh_buf_adds(&b, ": no kernel code");
		}
		{
			int first = 1;

			for (int p = P_CODE; p < NPCLASS; p++) {
				if (a->cls[p] < 0.5)
					continue;
				kh_buf_addf(&b, "%s%s %s", first ? "; " : ", ",
				    commas(n2, sizeof n2, a->cls[p]),
				    pclass_names[p]);
				first = 0;
			}
			if (!first)
				kh_buf_adds(&b, " lines");
		}
		if (a->capped)
			kh_buf_addf(&b, "; %d %s over %g lines, capped",
			    a->capped, plural(a->capped, "item", "items"),
			    w->landed.item_cap);
		if (personal && a->nk > 0)
			kh_buf_adds(&b, "; junior at most on its own");
		s = add_sig(c, name, pts);
		s->why = kh_buf_detach(&b);
		kh_buf_free(&b);
		for (int i = a->first; i < c->nev; i++) {
			struct ev *e = &c->ev[i];

			if (e->credit > 0 && e->code && e->repo &&
			    strcasecmp(e->repo, a->r.name) == 0 &&
			    !e->cited &&
			    (strcmp(e->kind, "pr") != 0 || e->merged) &&
			    !cJSON_IsFalse(ef(e, "upstream")) &&
			    !ev_true(e, "merge"))
				cite(s, e);	/* a dup: the same work, cited */
		}
		if (a->nk > 0 && !personal) {
			if ((a->r.kind == R_LISTED || a->r.kind ==
			    R_REVIEWED) && a->r.weight >= w->shared_min)
				c->strong = 1;
			else
				c->moderate = 1;
		}
		for (int f = 0; f < a->nkfiles; f++)
			free(a->kfiles[f]);
		free(a->kfiles);
	}
	free(acc);
	/* breadth counts, with diminishing returns: the k-th repository at
	 * 1/sqrt(k) */
	for (int i = from + 1; i < c->nsig; i++)
		for (int k = i; k > from && c->sig[k].points >
		    c->sig[k - 1].points; k--) {
			struct sig t = c->sig[k];

			c->sig[k] = c->sig[k - 1];
			c->sig[k - 1] = t;
		}
	for (int k = from; k < c->nsig; k++)
		c->sig[k].seq = k;
	for (int k = 1; from + k < c->nsig; k++) {
		struct sig *s = &c->sig[from + k];
		char *why = kh_asprintf("%s; repository %d by points, counted "
		    "at 1/sqrt(%d)", s->why, k + 1, k + 1);

		free(s->why);
		s->why = why;
		s->points = round1(s->points / sqrt(k + 1));
	}
	cap_group(c, from, w->landed.cap, "landed and personal work");
}

/* leaderboards and competitions */

static int
after_deadline(const struct ev *e)
{
	const cJSON *a = ef(e, "after_deadline");
	const char *d = ev_str(e, "deadline");
	time_t dl;

	if (cJSON_IsBool(a))
		return cJSON_IsTrue(a);
	return d && e->has_at && kh_parse_time(d, &dl) == 0 && e->at > dl;
}

static void
leaderboards(struct cand *c)
{
	const struct weights *w = c->w;
	int from = c->nsig;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		long long rank, ranked;
		const char *board, *gpu;
		double top, q, size;
		int after;
		struct sig *s;

		if (e->credit <= 0 || strcmp(e->kind, "leaderboard") != 0)
			continue;
		if (ev_int(e, "rank", &rank) != 0 ||
		    ev_int(e, "ranked", &ranked) != 0 || rank < 1 ||
		    ranked < rank)
			continue;	/* no rank: reported as no points */
		board = ev_str(e, "board_name");
		if (board == NULL)
			board = ev_str(e, "board");
		gpu = ev_str(e, "gpu");
		after = after_deadline(e);
		top = (double)(rank - 1) / (double)ranked;
		size = log((double)ranked) / log(w->lb.full);
		if (size > 1)
			size = 1;
		q = pow(1 - top, w->lb.shape) * size;
		e->q = q;
		s = add_sig(c, after ? "leaderboard_skill" : "leaderboard",
		    w->lb.points * q * (after ? w->lb.after : 1) * e->credit);
		s->why = kh_asprintf("rank %lld of %lld on %s%s%s%s, %s: "
		    "top %.1f%%%s", rank, ranked, board ? board : "a board",
		    gpu ? " (" : "", gpu ? gpu : "", gpu ? ")" : "",
		    after ? "after the deadline" : "before the deadline",
		    100.0 * (double)rank / (double)ranked,
		    after ? "; skill, not a placement" :
		    size < 0.75 ? "; a small board counts less" : "");
		cite(s, e);
		if (q >= w->lb.proof) {
			if (after)
				c->moderate = 1;
			else
				c->strong = 1;
		}
	}
	diminish(c, from, "leaderboard result");
	cap_group(c, from, w->lb.cap, "leaderboard results");
}

static void
competitions(struct cand *c)
{
	const struct weights *w = c->w;
	int from = c->nsig;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		long long placing;
		const char *name, *org, *text, *conf;
		int self, has_place;
		double pts, cf = w->comp.conf_medium;
		struct kh_buf b = { 0 };
		struct sig *s;

		if (e->credit <= 0 || strcmp(e->kind, "competition") != 0)
			continue;
		name = ev_str(e, "competition");
		org = ev_str(e, "organiser");
		text = ev_str(e, "placing_text");
		conf = ev_str(e, "confidence");
		self = ev_true(e, "self_reported");
		has_place = ev_int(e, "placing", &placing) == 0 &&
		    placing >= 1;
		if (!has_place)
			pts = w->comp.named;
		else if (placing == 1)
			pts = w->comp.first;
		else if (placing == 2)
			pts = w->comp.second;
		else if (placing == 3)
			pts = w->comp.third;
		else if (placing <= 10)
			pts = w->comp.top10;
		else
			pts = w->comp.named;
		if (conf && strncmp(conf, "high", 4) == 0)
			cf = w->comp.conf_high;
		else if (conf && strncmp(conf, "low", 3) == 0)
			cf = w->comp.conf_low;
		pts *= cf * (self ? w->comp.self : 1) * e->credit;
		if (text)
			kh_buf_addf(&b, "\"%s\"", text);
		else if (has_place)
			kh_buf_addf(&b, "placed %lld", placing);
		else
			kh_buf_adds(&b, "named");
		kh_buf_addf(&b, " in %s", name ? name : "a competition");
		if (org && !self)
			kh_buf_addf(&b, ", stated by the organiser %s", org);
		if (self)
			kh_buf_addf(&b, ", self-reported: counts %g",
			    w->comp.self);
		if (conf)
			kh_buf_addf(&b, "; confidence %s", conf);
		s = add_sig(c, "competition", pts);
		s->why = kh_buf_detach(&b);
		kh_buf_free(&b);
		cite(s, e);
		if (!self && (has_place && placing <= 10))
			c->strong = 1;
		else
			c->moderate = 1;
	}
	diminish(c, from, "competition result");
	cap_group(c, from, w->comp.cap, "competition results");
}

static void
papers(struct cand *c)
{
	const struct weights *w = c->w;
	int from = c->nsig;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		const char *venue, *title, *pos;
		const char *vkey = NULL, *topic = NULL;
		double vw = w->paper.other_venue, tw = w->paper.off_topic;
		double pw = w->paper.pos_middle;
		long long year = 0;
		const cJSON *t;
		struct kh_buf b = { 0 };
		struct sig *s;

		if (e->credit <= 0 || strcmp(e->kind, "paper") != 0)
			continue;
		venue = ev_str(e, "venue");
		title = ev_str(e, "title");
		pos = ev_str(e, "position");
		if (venue) {
			lower_into(&c->low, venue, 300);
			cJSON_ArrayForEach(t, w->paper.venues) {
				lower_into(&c->tmp, t->string, 100);
				if (term_in(c->low.p, c->low.len, c->tmp.p) &&
				    (vkey == NULL || t->valuedouble > vw)) {
					vkey = t->string;
					vw = t->valuedouble;
				}
			}
		}
		lower_into(&c->low, title, 500);
		cJSON_ArrayForEach(t, ef(e, "topics"))
			if (cJSON_IsString(t)) {
				kh_buf_addc(&c->low, ' ');
				for (const char *p = t->valuestring; *p; p++)
					kh_buf_addc(&c->low, *p >= 'A' &&
					    *p <= 'Z' ? *p + 32 : *p);
			}
		cJSON_ArrayForEach(t, w->paper.topics)
			if (cJSON_IsString(t) && term_in(c->low.p, c->low.len,
			    t->valuestring)) {
				topic = t->valuestring;
				tw = 1;
				break;
			}
		if (pos && strcmp(pos, "first") == 0)
			pw = w->paper.pos_first;
		else if (pos && strcmp(pos, "only") == 0)
			pw = w->paper.pos_only;
		else if (pos && strcmp(pos, "last") == 0)
			pw = w->paper.pos_last;
		ev_int(e, "year", &year);
		kh_buf_addf(&b, "%s author of \"%s\" (%s", pos ? pos : "an",
		    title ? title : "untitled", venue ? venue : "no venue");
		if (year)
			kh_buf_addf(&b, " %lld", year);
		kh_buf_adds(&b, ")");
		if (vkey)
			kh_buf_addf(&b, ", venue %s", vkey);
		else
			kh_buf_adds(&b, ", not a listed venue");
		if (topic)
			kh_buf_addf(&b, ", on topic (%s)", topic);
		else
			kh_buf_adds(&b, ", off topic");
		if (ev_true(e, "ambiguous")) {
			pw *= w->paper.ambiguous;
			kh_buf_adds(&b, "; the author match is ambiguous");
		}
		s = add_sig(c, "paper", w->paper.points * vw * tw * pw *
		    e->credit);
		s->why = kh_buf_detach(&b);
		kh_buf_free(&b);
		cite(s, e);
		if (vw >= w->paper.proof && topic &&
		    !ev_true(e, "ambiguous"))
			c->strong = 1;
		else if (topic)
			c->moderate = 1;
	}
	diminish(c, from, "paper");
	cap_group(c, from, w->paper.cap, "papers");
}

/* measured speedups */

static void
speedups(struct cand *c)
{
	const struct weights *w = c->w;
	int from = c->nsig;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		struct speedup sp;
		const char *title = ev_str(e, "title");
		double f, pts;
		struct kh_buf b = { 0 };
		struct sig *s;
		cJSON *o;

		if (e->credit <= 0 || !e->code || e->dup ||
		    (strcmp(e->kind, "pr") == 0 && !e->merged))
			continue;
		if (!speedup_parse(w, title, ev_str(e, "text"), &sp))
			continue;
		f = log2(sp.factor) / 2;
		if (f > 1)
			f = 1;
		pts = (sp.gpu >= 0 ? w->speedup.hw : w->speedup.nohw) *
		    (0.5 + 0.5 * f) * e->credit;
		kh_buf_addf(&b, "measured %gx", sp.factor);
		if (sp.metric[0])
			kh_buf_addf(&b, " %s", sp.metric);
		if (sp.baseline[0])
			kh_buf_addf(&b, " over %s", sp.baseline);
		if (sp.gpu >= 0)
			kh_buf_addf(&b, " on %s", w->gpus[sp.gpu].name);
		else
			kh_buf_adds(&b, ", no hardware named: counts less");
		if (title)
			kh_buf_addf(&b, " (\"%s\"%s)", title,
			    e->repo ? "" : "");
		if (e->repo)
			kh_buf_addf(&b, " in %s", e->repo);
		s = add_sig(c, "speedup", pts);
		s->why = kh_buf_detach(&b);
		kh_buf_free(&b);
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "factor", sp.factor);
		kh_add_str(o, "metric", sp.metric[0] ? sp.metric : NULL);
		kh_add_str(o, "baseline", sp.baseline[0] ? sp.baseline : NULL);
		kh_add_str(o, "hardware", sp.gpu >= 0 ? w->gpus[sp.gpu].name :
		    NULL);
		kh_add_str(o, "evidence", e->id);
		s->extra = o;
		cite(s, e);
	}
	diminish(c, from, "speedup");
	cap_group(c, from, w->speedup.cap, "speedups");
}

/* hardware generations, kernel stacks, data types */

static const char *const arch_insns[NARCH][4] = {
	{ NULL }, { NULL },
	{ "mma.sync", "ldmatrix", "cp.async", NULL },
	{ NULL },
	{ "wgmma", "tma", "setmaxnreg", NULL },
	{ "tcgen05", "tmem", NULL },
	{ "mfma", NULL }, { "mfma", NULL }, { "mfma", NULL }, { "mfma", NULL },
};
static const char *const arch_guards[NARCH] = {
	NULL, NULL, "sm_80", "sm_89", "sm_90", "sm_100", NULL, "gfx", "gfx",
	"gfx"
};

static void
generations(struct cand *c)
{
	const struct weights *w = c->w;
	int from = c->nsig;

	for (int a = 0; a < NARCH; a++) {
		double best = 0, counts[4] = { 0 }, guards = 0;
		int ncode = 0, nlb = 0, personal_only = 1;
		struct kh_buf b = { 0 }, gpus = { 0 };
		struct sig *s;

		for (int i = 0; i < c->nev; i++) {
			struct ev *e = &c->ev[i];
			const cJSON *x;
			double f = 0;
			int hit = 0;

			if (e->credit <= 0)
				continue;
			if (e->code && e->sig) {
				int specific = 0;

				cJSON_ArrayForEach(x, get(e->sig, "arch")) {
					int k = cJSON_IsString(x) ?
					    arch_index(x->valuestring) : -1;

					if (k == a)
						hit = 1;
					if (k > arch_index("cdna"))
						specific = 1;
				}
				/* "cdna" only when no cdnaN says more */
				if (a == arch_index("cdna") && specific)
					hit = 0;
			}
			if (hit && e->dup) {
				/* its PR counts the same code: cite only */
				f = 0;
			} else if (hit) {
				int deep = 0;
				long long n;

				for (int k = 0; arch_insns[a][k]; k++)
					if (insn_count(e->sig, arch_insns[a][k],
					    &n) == 0) {
						counts[k] += (double)n;
						deep = 1;
					}
				if (arch_guards[a] && insn_count(e->sig,
				    arch_guards[a], &n) == 0)
					guards += (double)n;
				f = deep ? 1 : w->gen.guard_only;
				if (!e->shared) {
					struct repo r;

					repo_info(c, e->repo ? e->repo : "",
					    &r);
					if ((r.kind != R_LISTED && r.kind !=
					    R_REVIEWED) || r.weight <
					    w->shared_min)
						f *= w->gen.personal;
					else
						personal_only = 0;
				} else {
					personal_only = 0;
				}
				ncode++;
			} else if (strcmp(e->kind, "leaderboard") == 0) {
				const char *g = ev_str(e, "gpu");
				int k = g ? gpu_find(w, g, strlen(g)) : -1;

				if (k < 0 || w->gpus[k].arch != a)
					continue;
				/* a low rank proves less about the chip */
				f = w->gen.lb_only * (e->q >= w->lb.proof ? 1 :
				    0.5);
				if (nlb == 0 || !strstr(gpus.p, g))
					kh_buf_addf(&gpus, "%s%s", nlb ? ", " :
					    "", g);
				nlb++;
				hit = 1;
				personal_only = 0;
			}
			if (!hit)
				continue;
			if (f > best)
				best = f;
			if (c->gen_ids[a] == NULL)
				c->gen_ids[a] = cJSON_CreateArray();
			cJSON_AddItemToArray(c->gen_ids[a],
			    cJSON_CreateString(e->id));
		}
		if (c->gen_ids[a] == NULL) {
			kh_buf_free(&gpus);
			continue;
		}
		c->gens |= 1u << a;
		/* one item proves less than several */
		best *= ncode + nlb >= 3 ? 1 : ncode + nlb == 2 ? 0.8 : 0.6;
		kh_buf_addf(&b, "%s:", arch_names[a]);
		if (ncode) {
			int first = 1;

			for (int k = 0; arch_insns[a][k]; k++)
				if (counts[k] > 0) {
					kh_buf_addf(&b, "%s %s %g", first ? "" :
					    ",", arch_insns[a][k], counts[k]);
					first = 0;
				}
			if (guards > 0)
				kh_buf_addf(&b, "%s %s guards %g", first ? "" :
				    ",", arch_guards[a], guards);
			kh_buf_addf(&b, " in the added code of %d %s", ncode,
			    plural(ncode, "item", "items"));
			if (first)
				kh_buf_adds(&b, " (architecture guards only: "
				    "counts less)");
			if (personal_only)
				kh_buf_adds(&b, ", none in a listed shared "
				    "repository: counts less");
		}
		if (nlb)
			kh_buf_addf(&b, "%s%d leaderboard %s on %s", ncode ?
			    "; " : " ", nlb, plural(nlb, "result", "results"),
			    gpus.p);
		kh_buf_free(&gpus);
		s = add_sig(c, "generation", w->gen.points[a] * best);
		s->why = kh_buf_detach(&b);
		kh_buf_free(&b);
		cJSON_Delete(s->ids);
		s->ids = cJSON_Duplicate(c->gen_ids[a], 1);
	}
	cap_group(c, from, w->gen.cap, "hardware generations");
}

static void
stacks(struct cand *c)
{
	static const struct {
		const char *insn, *label;
	} st[] = {
		{ "inline_asm", "inline PTX/assembly" },
		{ "cute", "CuTe/CUTLASS" }, { "cutlass", "CuTe/CUTLASS" },
		{ "cute_dsl", "CuTe DSL" }, { "triton", "Triton" },
		{ "gluon", "Gluon" }, { "warp_primitives", "warp primitives" },
	};
	static const struct {
		const char *dtype, *label;
		int fp4;
	} dt[] = {
		{ "fp8", "FP8", 0 }, { "mxfp8", "MXFP8", 0 },
		{ "fp4", "FP4", 1 }, { "nvfp4", "NVFP4", 1 },
		{ "mxfp4", "MXFP4", 1 },
	};
	const struct weights *w = c->w;
	int nst = (int)(sizeof st / sizeof st[0]);
	int ndt = (int)(sizeof dt / sizeof dt[0]);
	int stn[8] = { 0 }, dtn[8] = { 0 }, labels = 0, fp8 = 0, fp4 = 0;
	int shared = 0;		/* any of it outside personal repositories */
	struct kh_buf b = { 0 };
	cJSON *sids = cJSON_CreateArray(), *dids = cJSON_CreateArray();
	struct sig *s;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		int hs = 0, hd = 0;
		long long cnt;
		const cJSON *x;

		if (e->credit <= 0 || !e->code || e->sig == NULL || e->dup)
			continue;
		for (int k = 0; k < nst; k++)
			if (insn_count(e->sig, st[k].insn, &cnt) == 0) {
				stn[k]++;
				hs = 1;
			}
		cJSON_ArrayForEach(x, get(e->sig, "dtypes"))
			for (int k = 0; k < ndt; k++)
				if (cJSON_IsString(x) &&
				    strcmp(x->valuestring, dt[k].dtype) == 0) {
					dtn[k]++;
					hd = 1;
				}
		if ((hs || hd) && !e->personal)
			shared = 1;
		if (hs)
			cJSON_AddItemToArray(sids, cJSON_CreateString(e->id));
		if (hd)
			cJSON_AddItemToArray(dids, cJSON_CreateString(e->id));
	}
	/* CuTe and CUTLASS are one stack */
	for (int k = 0; k < nst; k++) {
		int n = stn[k];

		if (k == 1)
			n = stn[1] > stn[2] ? stn[1] : stn[2];
		if (k == 2 || n == 0)
			continue;
		kh_buf_addf(&b, "%s%s (%d %s)", labels ? ", " : "",
		    st[k].label, n, plural(n, "item", "items"));
		labels++;
	}
	if (labels) {
		double p = w->stack_points * labels;

		if (p > w->stack_cap)
			p = w->stack_cap;
		s = add_sig(c, "kernel_stack", shared ? p : p * w->gen.personal);
		s->why = kh_asprintf("kernel stacks in added code: %s%s", b.p,
		    shared ? "" : "; personal repositories only: counts less");
		cJSON_Delete(s->ids);
		s->ids = sids;
		sids = NULL;
	}
	kh_buf_reset(&b);
	labels = 0;
	for (int k = 0; k < ndt; k++) {
		if (dtn[k] == 0)
			continue;
		if (k == 0 || k == 1)
			fp8 = 1;
		else
			fp4 = 1;
		/* the generic name only when no specific one says more */
		if ((k == 0 && dtn[1] == dtn[0]) ||
		    (k == 2 && (dtn[3] == dtn[2] || dtn[4] == dtn[2])))
			continue;
		kh_buf_addf(&b, "%s%s (%d %s)", labels ? ", " : "",
		    dt[k].label, dtn[k], plural(dtn[k], "item", "items"));
		labels++;
	}
	if (fp8 || fp4) {
		double p = (fp8 ? w->lp_fp8 : 0) + (fp4 ? w->lp_fp4 : 0);

		if (p > w->lp_cap)
			p = w->lp_cap;
		s = add_sig(c, "low_precision", shared ? p : p * w->gen.personal);
		s->why = kh_asprintf("low-precision data types in added code: "
		    "%s%s", b.p, shared ? "" : "; personal repositories only: "
		    "counts less");
		cJSON_Delete(s->ids);
		s->ids = dids;
		dids = NULL;
	}
	cJSON_Delete(sids);
	cJSON_Delete(dids);
	kh_buf_free(&b);
}

static void
ratings(struct cand *c)
{
	const struct weights *w = c->w;
	struct ev *best = NULL;
	long long br = 0;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		long long r = 0, m = 0;

		if (e->credit <= 0 || strcmp(e->kind, "rating") != 0)
			continue;
		ev_int(e, "rating", &r);
		ev_int(e, "max_rating", &m);
		if (m > r)
			r = m;
		if (best == NULL || r > br) {
			best = e;
			br = r;
		}
	}
	if (best) {
		const cJSON *band;
		double pts = 0;
		long long r = 0, m = 0;
		const char *title = ev_str(best, "max_rank_title");
		struct sig *s;

		cJSON_ArrayForEach(band, w->rating_bands)
			if ((double)br >= cJSON_GetArrayItem(band,
			    0)->valuedouble) {
				pts = cJSON_GetArrayItem(band, 1)->valuedouble;
				break;
			}
		ev_int(best, "rating", &r);
		ev_int(best, "max_rating", &m);
		s = add_sig(c, "rating", pts * best->credit);
		s->why = kh_asprintf("%s rating %lld (max %lld%s%s): "
		    "algorithmic skill, not kernel proof",
		    ev_str(best, "source") ? ev_str(best, "source") : "contest",
		    r, m, title ? ", " : "", title ? title : "");
		cite(s, best);
	}
}

static void
recency(struct cand *c)
{
	const struct weights *w = c->w;
	struct ev *latest = NULL;
	char d[21], n[21];

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		int kernelish = (e->code && e->kernel) ||
		    strcmp(e->kind, "leaderboard") == 0 ||
		    strcmp(e->kind, "competition") == 0 ||
		    strcmp(e->kind, "paper") == 0;

		/* learning in public is not kept fresh by recency */
		if (e->credit <= 0 || !e->cited || !kernelish || !e->has_at ||
		    e->personal)
			continue;
		if (latest == NULL || e->at > latest->at)
			latest = e;
	}
	if (latest) {
		double days = difftime(c->now, latest->at) / 86400;
		struct sig *s;

		if (days < 0)
			days = 0;
		kh_iso8601(latest->at, d);
		kh_iso8601(c->now, n);
		d[10] = n[10] = '\0';
		s = add_sig(c, "recency", w->recency_points *
		    pow(0.5, days / w->half_life));
		s->why = kh_asprintf("latest credited proof of work %s, %.0f "
		    "days before %s (half-life %g days)", d, floor(days), n,
		    w->half_life);
		cite(s, latest);
	}
}

/* specialty: inference, training, both or unknown */

static void
note_term(struct kh_buf *terms, int *n, const char *t)
{
	if (*n >= 3 || (terms->len && strstr(terms->p, t)))
		return;
	kh_buf_addf(terms, "%s%s", *n ? ", " : "", t);
	(*n)++;
}

static const char *
specialty(struct cand *c)
{
	const struct weights *w = c->w;
	struct kh_buf ti = { 0 }, tt = { 0 };
	int ni = 0, nt = 0, nti = 0, ntt = 0;
	const char *label;
	cJSON *ids;
	struct sig *s;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		const cJSON *f, *t;
		struct repo r;
		int kernelish = (e->code && e->kernel) ||
		    strcmp(e->kind, "leaderboard") == 0 ||
		    strcmp(e->kind, "competition") == 0 ||
		    strcmp(e->kind, "paper") == 0;

		if (e->credit <= 0 || !e->cited || !kernelish)
			continue;
		kh_buf_reset(&c->tmp);
		kh_buf_adds(&c->tmp, "");
		{
			static const char *const keys[] = { "title", "board",
			    "board_name", "competition", NULL };

			for (int k = 0; keys[k]; k++)
				if (ev_str(e, keys[k])) {
					kh_buf_adds(&c->tmp, ev_str(e, keys[k]));
					kh_buf_addc(&c->tmp, '\n');
				}
		}
		if (ev_str(e, "text"))
			kh_buf_add(&c->tmp, ev_str(e, "text"),
			    strnlen(ev_str(e, "text"), 2048));
		cJSON_ArrayForEach(f, ef(e, "files"))
			if (get_str(f, "path")) {
				kh_buf_addc(&c->tmp, '\n');
				kh_buf_adds(&c->tmp, get_str(f, "path"));
			}
		cJSON_ArrayForEach(t, ef(e, "topics"))
			if (cJSON_IsString(t)) {
				kh_buf_addc(&c->tmp, '\n');
				kh_buf_adds(&c->tmp, t->valuestring);
			}
		lower_into(&c->low, c->tmp.p, c->tmp.len);
		/* paths use '_' and '/' where prose uses spaces */
		cJSON_ArrayForEach(t, w->inference_terms)
			if (cJSON_IsString(t) && term_in(c->low.p, c->low.len,
			    t->valuestring)) {
				e->inf = 1;
				note_term(&ti, &nti, t->valuestring);
			}
		cJSON_ArrayForEach(t, w->training_terms)
			if (cJSON_IsString(t) && term_in(c->low.p, c->low.len,
			    t->valuestring)) {
				e->tr = 1;
				note_term(&tt, &ntt, t->valuestring);
			}
		if (e->repo && (e->code)) {
			repo_info(c, e->repo, &r);
			if (r.specialty && strcmp(r.specialty, "inference") ==
			    0 && !e->inf) {
				e->inf = 1;
				note_term(&ti, &nti, e->repo);
			}
			if (r.specialty && strcmp(r.specialty, "training") ==
			    0 && !e->tr) {
				e->tr = 1;
				note_term(&tt, &ntt, e->repo);
			}
		}
		ni += e->inf;
		nt += e->tr;
	}
	if (ni == 0 && nt == 0)
		label = "unknown";
	else if (ni > 0 && nt > 0 && (ni < nt ? ni : nt) >=
	    w->both_share * (ni + nt))
		label = "both";
	else
		label = ni >= nt ? "inference" : "training";
	ids = cJSON_CreateArray();
	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		int want = strcmp(label, "both") == 0 ? e->inf || e->tr :
		    strcmp(label, "inference") == 0 ? e->inf : e->tr;

		if (want)
			cJSON_AddItemToArray(ids, cJSON_CreateString(e->id));
	}
	if (strcmp(label, "unknown") != 0) {
		struct kh_buf b = { 0 };

		kh_buf_addf(&b, "%s:", label);
		if (ni)
			kh_buf_addf(&b, " inference in %d %s (%s)", ni,
			    plural(ni, "item", "items"), ti.p);
		if (ni && nt)
			kh_buf_adds(&b, ";");
		if (nt)
			kh_buf_addf(&b, " training in %d %s (%s)", nt,
			    plural(nt, "item", "items"), tt.p);
		s = add_sig(c, "specialty", 0);
		s->why = kh_buf_detach(&b);
		kh_buf_free(&b);
		cJSON_Delete(s->ids);
		s->ids = ids;
		ids = NULL;
	}
	cJSON_Delete(ids);
	kh_buf_free(&ti);
	kh_buf_free(&tt);
	return label;
}

static void
brief_match(struct cand *c)
{
	const struct weights *w = c->w;
	const struct brief *b = c->b;
	int from = c->nsig, any = 0;
	struct sig *s;

	if (b == NULL)
		return;
	for (int i = 0; i < c->nev && !any; i++)
		any = c->ev[i].credit > 0 && c->ev[i].cited;
	if (!any)
		return;	/* nothing credited: nothing to match */
	if (b->specialty) {
		int both = strcmp(b->specialty, "both") == 0;
		int inf = strcmp(b->specialty, "inference") == 0;
		double m = 0, f;

		s = add_sig(c, "brief_specialty", 0);
		for (int i = 0; i < c->nev; i++) {
			struct ev *e = &c->ev[i];

			if ((both && (e->inf || e->tr)) || (inf && e->inf) ||
			    (!both && !inf && e->tr)) {
				m++;
				cite(s, e);
			}
		}
		f = m / w->brief_full_at;
		s->points = round1(w->brief_specialty * (f > 1 ? 1 : f));
		if (m > 0)
			s->why = kh_asprintf("the brief asks for %s work: %g "
			    "credited %s it", b->specialty, m,
			    plural(m, "item shows", "items show"));
		else
			s->why = kh_asprintf("the brief asks for %s work: no "
			    "credited item shows it", b->specialty);
	}
	if (b->gens) {
		unsigned match = b->gens & c->gens;
		struct kh_buf names = { 0 };
		int n = 0;

		s = add_sig(c, "brief_hardware", 0);
		for (int a = 0; a < NARCH; a++) {
			const cJSON *x;

			if (!(match & (1u << a)))
				continue;
			kh_buf_addf(&names, "%s%s", n ? ", " : "",
			    arch_names[a]);
			n++;
			cJSON_ArrayForEach(x, c->gen_ids[a]) {
				const cJSON *y;
				int dup = 0;

				cJSON_ArrayForEach(y, s->ids)
					if (strcmp(y->valuestring,
					    x->valuestring) == 0)
						dup = 1;
				if (!dup)
					cJSON_AddItemToArray(s->ids,
					    cJSON_CreateString(x->valuestring));
			}
		}
		s->points = round1(w->brief_gen * n);
		if (n)
			s->why = kh_asprintf("the brief asks for %s: the "
			    "candidate's own work shows %s", b->gen_names,
			    names.p);
		else
			s->why = kh_asprintf("the brief asks for %s: none "
			    "shown in the candidate's own work", b->gen_names);
		kh_buf_free(&names);
	}
	cap_group(c, from, w->brief_cap, "brief matches");
}

static const char *const verdict_order[] = {
	"fork-only", "copy", "unmerged", "trivial", "bulk", "bot",
	"committer-only", "unverified", "malformed", NULL
};

static int
known_kind(const char *const *kinds, const char *k)
{
	for (int i = 0; kinds[i]; i++)
		if (strcmp(kinds[i], k) == 0)
			return 1;
	return 0;
}

static void
uncredited(struct cand *c)
{
	/* verdicts that earn nothing, in a fixed order, then the rest */
	for (int v = 0; ; v++) {
		const char *want = verdict_order[v];
		struct sig *s = NULL;
		const char *why1 = NULL, *other = NULL;
		int n = 0;

		for (int i = 0; i < c->nev; i++) {
			struct ev *e = &c->ev[i];
			int known = 0;

			if (e->credit > 0)
				continue;
			for (int k = 0; verdict_order[k]; k++)
				if (strcmp(e->verdict, verdict_order[k]) == 0)
					known = 1;
			if (want ? strcmp(e->verdict, want) != 0 : known)
				continue;
			if (s == NULL)
				s = add_sig(c, "uncredited", 0);
			if (why1 == NULL)
				why1 = get_str(ef(e, "authorship"), "why");
			if (other == NULL)
				other = e->verdict;
			if (e->id)
				cite(s, e);
			n++;
		}
		if (s && want && strcmp(want, "malformed") == 0)
			s->why = kh_asprintf("%d evidence %s not an object or "
			    "without an id: nothing to cite, no points", n,
			    plural(n, "item is", "items are"));
		else if (s)
			s->why = kh_asprintf("%d %s%s%s %s no points: only "
			    "verified and coauthor evidence counts%s%s%s", n,
			    want ? want : "item(s) with verdict '",
			    want ? "" : other, want ? "" : "'",
			    want ? plural(n, "item earns", "items earn") :
			    "earn", why1 ? " (\"" : "", why1 ? why1 : "",
			    why1 ? "\")" : "");
		if (want == NULL)
			break;
	}
	/* credited, yet nothing above used it: say which kinds */
	{
		static const char *const kinds[] = { "pr", "commit",
		    "leaderboard", "competition", "paper", "rating",
		    "profile", "repo", NULL };
		struct sig *s = NULL;
		struct kh_buf b = { 0 };
		int n = 0, first = 1;

		for (int i = 0; i < c->nev; i++) {
			struct ev *e = &c->ev[i];

			if (e->credit <= 0 || e->cited)
				continue;
			if (s == NULL)
				s = add_sig(c, "no_points", 0);
			cite(s, e);
			e->cited = 2;
			n++;
		}
		if (s == NULL)
			return;
		kh_buf_addf(&b, "%d credited %s no points (", n,
		    plural(n, "item earns", "items earn"));
		for (int k = 0; ; k++) {
			int m = 0;

			for (int i = 0; i < c->nev; i++)
				if (c->ev[i].cited == 2 && (kinds[k] ?
				    strcmp(c->ev[i].kind, kinds[k]) == 0 :
				    !known_kind(kinds, c->ev[i].kind)))
					m++;
			if (m)
				kh_buf_addf(&b, "%s%d %s", first ? "" : ", ", m,
				    kinds[k] ? kinds[k] : "other");
			first &= m == 0;
			if (kinds[k] == NULL)
				break;
		}
		kh_buf_adds(&b, "): unmerged or unranked, a merge commit, a "
		    "fork, or a kind that is not proof of work");
		s->why = kh_buf_detach(&b);
		kh_buf_free(&b);
	}
}

/* the candidate */

static const char *const tier_names[6] = {
	"principal", "staff", "senior", "mid", "junior", "unproven"
};

static int
tier_index(const struct weights *w, double total)
{
	for (int i = 0; i < 5; i++)
		if (total >= w->tier[i])
			return i;
	return 5;
}

static int
is_login(const struct cand *c, const char *s)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, get(c->rec, "logins"))
		if (cJSON_IsString(l) && strcasecmp(l->valuestring, s) == 0)
			return 1;
	return 0;
}

static void
prepare(struct cand *c, const cJSON *evidence)
{
	const struct weights *w = c->w;
	const cJSON *j;
	int n = 0;

	c->ev = kh_calloc((size_t)cJSON_GetArraySize(evidence) + 1,
	    sizeof *c->ev);
	cJSON_ArrayForEach(j, evidence) {
		struct ev *e = &c->ev[n++];
		const char *at;

		e->j = j;
		if (cJSON_IsObject(j)) {
			const cJSON *k;

			cJSON_ArrayForEach(k, j) {
				int x = k->string ? field_index(k->string) : -1;

				if (x >= 0 && e->f[x] == NULL)
					e->f[x] = k;
			}
		}
		e->id = ev_str(e, "id");
		e->kind = ev_str(e, "kind");
		if (e->kind == NULL)
			e->kind = "unknown";
		e->repo = ev_str(e, "repo");
		e->verdict = get_str(ef(e, "authorship"), "verdict");
		if (e->verdict == NULL)
			e->verdict = "unverified";
		if (strcmp(e->verdict, "verified") == 0)
			e->credit = w->credit_verified;
		else if (strcmp(e->verdict, "coauthor") == 0)
			e->credit = w->credit_coauthor;
		if (!cJSON_IsObject(j) || e->id == NULL) {
			e->verdict = "malformed";	/* nothing to cite */
			e->credit = 0;
		}
		at = ev_str(e, "at");
		if (at == NULL)
			at = ev_str(e, "merged_at");
		if (at == NULL)
			at = ev_str(e, "committed_at");
		e->has_at = at && kh_parse_time(at, &e->at) == 0;
		e->code = strcmp(e->kind, "pr") == 0 ||
		    strcmp(e->kind, "commit") == 0;
		e->merged = strcmp(e->kind, "pr") == 0 && ev_true(e, "merged");
		e->sig = cJSON_IsObject(ef(e, "signals")) ?
		    ef(e, "signals") : NULL;
		e->files = cJSON_GetArraySize(ef(e, "files")) > 0 ?
		    ef(e, "files") : NULL;
	}
	c->nev = n;
	for (int i = 0; i < n; i++) {
		struct ev *e = &c->ev[i];
		const char *by = ev_str(e, "merged_by");
		long long prn;

		if (e->credit <= 0 || !e->code)
			continue;
		if (e->merged && by && !is_login(c, by))
			e->reviewed = 1;
		else if (strcmp(e->kind, "commit") == 0 &&
		    ev_int(e, "pr", &prn) == 0)
			e->reviewed = 1;	/* squash-merged "(#123)" */
	}
	for (int i = 0; i < n; i++) {
		struct repo r;

		if (c->ev[i].code && c->ev[i].repo) {
			repo_info(c, c->ev[i].repo, &r);
			c->ev[i].personal = r.kind == R_PERSONAL ||
			    r.kind == R_LEARNING;
		}
	}
	for (int i = 0; i < n; i++) {
		struct ev *e = &c->ev[i];
		long long prn;

		int p;

		if (strcmp(e->kind, "commit") != 0 || e->repo == NULL ||
		    ev_int(e, "pr", &prn) != 0 ||
		    (p = pr_in(c, e->repo, prn)) == 0)
			continue;
		e->dup = 1;
		/* a PR fetched without --files: its commit has them */
		if (c->ev[p - 1].sig == NULL)
			c->ev[p - 1].sig = e->sig;
		if (c->ev[p - 1].files == NULL)
			c->ev[p - 1].files = e->files;
	}
}

static void
hardware_list(struct cand *c, cJSON *out)
{
	const struct weights *w = c->w;
	cJSON *lists[MAX_GPUS] = { NULL };
	int order[MAX_GPUS], norder = 0;

	for (int i = 0; i < c->nev; i++) {
		struct ev *e = &c->ev[i];
		int g = -1, g2 = -1;
		const char *s;

		if (e->credit <= 0 || e->cited != 1)
			continue;
		if (strcmp(e->kind, "leaderboard") == 0 &&
		    (s = ev_str(e, "gpu")))
			g = gpu_find(w, s, strlen(s));
		for (int k = 0; k < c->nsig; k++)
			if (c->sig[k].extra && strcmp(get_str(c->sig[k].extra,
			    "evidence"), e->id) == 0 &&
			    (s = get_str(c->sig[k].extra, "hardware")))
				g2 = gpu_find(w, s, strlen(s));
		for (int t = 0; t < 2; t++) {
			int x = t ? g2 : g;

			if (x < 0 || (t && g2 == g))
				continue;
			if (lists[x] == NULL) {
				lists[x] = cJSON_CreateArray();
				order[norder++] = x;
			}
			cJSON_AddItemToArray(lists[x], cJSON_CreateString(e->id));
		}
	}
	for (int k = 0; k < norder; k++) {
		cJSON *o = cJSON_CreateObject();

		kh_add_str(o, "gpu", w->gpus[order[k]].name);
		cJSON_AddItemToObject(o, "evidence", lists[order[k]]);
		cJSON_AddItemToArray(out, o);
	}
}

static int
by_points(const void *a, const void *b)
{
	const struct sig *x = a, *y = b;

	if (x->points != y->points)
		return x->points < y->points ? 1 : -1;
	return x->seq - y->seq;
}

cJSON *
score_candidate(const struct weights *w, const struct brief *b,
    const cJSON *cand, time_t now)
{
	struct cand c;
	cJSON *score, *arr;
	const char *spec;
	double total = 0;
	int tier, cap;

	memset(&c, 0, sizeof c);
	c.w = w;
	c.b = b;
	c.rec = cand;
	c.now = now;
	prepare(&c, get(cand, "evidence"));
	landed(&c);
	leaderboards(&c);
	competitions(&c);
	papers(&c);
	speedups(&c);
	generations(&c);
	stacks(&c);
	ratings(&c);
	recency(&c);
	spec = specialty(&c);
	brief_match(&c);
	uncredited(&c);

	for (int i = 0; i < c.nsig; i++)
		total += c.sig[i].points;
	total = round1(total);
	if (total > w->total_cap) {
		struct sig *s = add_sig(&c, "total_cap", w->total_cap - total);

		s->why = kh_asprintf("the total is capped at %g", w->total_cap);
		total = w->total_cap;
	}
	tier = tier_index(w, total);
	cap = c.strong ? 0 : c.moderate ? w->cap_no_proof : w->cap_personal;
	if (tier < cap && cap > 0) {
		double held = round1(w->tier[cap - 1] - 0.1);
		struct sig *s = add_sig(&c, "tier_cap", held - total);

		s->why = kh_asprintf(c.moderate ? "no landed kernel work in a "
		    "listed shared repository (weight %.2f or more), no "
		    "ranked leaderboard result before a deadline, no "
		    "organiser-stated competition result and no paper at a "
		    "kernel venue: held at %s" : "all kernel work is in "
		    "personal or learning repositories (learning in public) "
		    "and nothing else proves it (weight %.2f or more needed): "
		    "held at %s", w->shared_min, tier_names[cap]);
		total = held;
		tier = tier_index(w, total);
	}
	qsort(c.sig, (size_t)c.nsig, sizeof *c.sig, by_points);

	score = cJSON_CreateObject();
	cJSON_AddItemToObject(score, "total", tenths(total));
	kh_add_str(score, "tier", tier_names[tier]);
	kh_add_str(score, "specialty", spec);
	arr = cJSON_AddArrayToObject(score, "generations");
	for (int a = 0; a < NARCH; a++) {
		cJSON *o;

		if (c.gen_ids[a] == NULL)
			continue;
		o = cJSON_CreateObject();
		kh_add_str(o, "arch", arch_names[a]);
		cJSON_AddItemToObject(o, "evidence", c.gen_ids[a]);
		cJSON_AddItemToArray(arr, o);
	}
	hardware_list(&c, cJSON_AddArrayToObject(score, "hardware"));
	arr = cJSON_AddArrayToObject(score, "signals");
	for (int i = 0; i < c.nsig; i++) {
		struct sig *s = &c.sig[i];
		cJSON *o = cJSON_CreateObject();

		kh_add_str(o, "signal", s->name);
		cJSON_AddItemToObject(o, "points", tenths(s->points));
		cJSON_AddItemToObject(o, "evidence", s->ids);
		kh_add_str(o, "why", s->why ? s->why : "");
		if (s->extra)
			cJSON_AddItemToObject(o, "speedup", s->extra);
		cJSON_AddItemToArray(arr, o);
		free(s->name);
		free(s->why);
	}
	free(c.sig);
	free(c.ev);
	kh_buf_free(&c.low);
	kh_buf_free(&c.tmp);
	return score;
}
