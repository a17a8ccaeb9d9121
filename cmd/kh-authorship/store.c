/*
 * store.c: reading evidence into the store. Each record is kept once, as
 * its compact JSON (the bulky "text" and "files" cut to a cap) plus the few
 * facts the verdicts need, and split into claims: the author, co-authors,
 * the committer and the merger, each with the identity the record gives.
 */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "authorship.h"

#define TEXT_CAP 2048	/* bytes of "text" kept in the candidate */
#define FILES_CAP 100	/* entries of "files" kept in the candidate */

const char *
intern(struct ctx *c, const char *s)
{
	return map_key(&c->strs, s);
}

/* Non-comment words of a data file, one line each, for patterns. */
static char **
read_lines(const char *path, size_t *n, int must)
{
	size_t len;
	char *text = kh_read_file(path, (size_t)4 << 20, &len), *line, *next;
	char **out = NULL;

	*n = 0;
	if (text == NULL) {
		if (must || errno != ENOENT)
			kh_die(KH_USAGE, "cannot read '%s': %s", path,
			    strerror(errno));
		return NULL;
	}
	for (line = text; line && *line; line = next) {
		char *hash, *e;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		while (isspace((unsigned char)*line))
			line++;
		e = line + strlen(line);
		while (e > line && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (*line == '\0')
			continue;
		out = kh_realloc(out, (*n + 1) * sizeof *out);
		out[(*n)++] = kh_strdup(line);
	}
	free(text);
	return out;
}

void
load_data(struct ctx *c)
{
	char *p;

	p = c->kernel_file ? kh_strdup(c->kernel_file) :
	    kh_data_path("kernel-paths.txt");
	c->kernel_pats = read_lines(p, &c->nkernel, c->kernel_file != NULL);
	free(p);
	p = c->bots_file ? kh_strdup(c->bots_file) : kh_data_path("bots.txt");
	c->bot_pats = read_lines(p, &c->nbots, c->bots_file != NULL);
	for (size_t i = 0; i < c->nbots; i++) {
		char *sp = strchr(c->bot_pats[i], ' ');

		if (sp == NULL || (strncmp(c->bot_pats[i], "login ", 6) != 0 &&
		    strncmp(c->bot_pats[i], "name ", 5) != 0 &&
		    strncmp(c->bot_pats[i], "email ", 6) != 0))
			kh_die(KH_USAGE, "bad line in '%s': '%s': want "
			    "'login|name|email PATTERN'", p, c->bot_pats[i]);
		*sp = '\0';	/* "kind\0pattern" */
		for (sp++; *sp == ' ' || *sp == '\t'; sp++)
			;
		memmove(c->bot_pats[i] + strlen(c->bot_pats[i]) + 1, sp,
		    strlen(sp) + 1);
	}
	free(p);
	if (c->mailmap_file)
		c->mailmap = mailmap_load(c->mailmap_file);
}

void
free_data(struct ctx *c)
{
	for (size_t i = 0; i < c->nkernel; i++)
		free(c->kernel_pats[i]);
	free(c->kernel_pats);
	for (size_t i = 0; i < c->nbots; i++)
		free(c->bot_pats[i]);
	free(c->bot_pats);
	mailmap_free(c->mailmap);
	map_free(&c->cache);
	kh_buf_free(&c->tmp);
}

/*
 * Pattern matching is the slow part of a record; the same logins, emails
 * and paths come back again and again, so answers are cached by string,
 * the cache emptied when it holds CACHE_MAX of them (memory stays bounded).
 */
#define CACHE_MAX 200000

static int
cached(struct ctx *c, char tag, const char *s, int (*fn)(const struct ctx *,
    const char *, const char *), const char *arg)
{
	int *v;

	kh_buf_reset(&c->tmp);
	kh_buf_addc(&c->tmp, tag);
	kh_buf_adds(&c->tmp, s);
	if ((v = map_get(&c->cache, c->tmp.p)) != NULL)
		return *v;
	if (c->cache.n >= CACHE_MAX)
		map_free(&c->cache);
	return *map_put(&c->cache, c->tmp.p, 0) = fn(c, arg, s);
}

static int
bot_match_raw(const struct ctx *c, const char *what, const char *s)
{
	for (size_t i = 0; i < c->nbots; i++) {
		const char *kind = c->bot_pats[i];

		if (strcmp(kind, what) == 0 &&
		    fnmatch(kind + strlen(kind) + 1, s, 0) == 0)
			return 1;
	}
	return 0;
}

int
bot_match(const struct ctx *c, const char *what, const char *s)
{
	if (s == NULL)
		return 0;
	return cached((struct ctx *)c, what[0], s, bot_match_raw, what);
}

static int
kernel_raw(const struct ctx *c, const char *unused, const char *path)
{
	(void)unused;
	for (size_t i = 0; i < c->nkernel; i++)
		if (fnmatch(c->kernel_pats[i], path, 0) == 0)
			return 1;
	return 0;
}

int
is_kernel_path(const struct ctx *c, const char *path)
{
	return cached((struct ctx *)c, 'k', path, kernel_raw, NULL);
}

/* Docs, CI and repository chores: changing only these is not kernel work. */
static int
docs_raw(const struct ctx *c, const char *unused, const char *path)
{
	static const char *const pats[] = {
		"*.md", "*.rst", "*.adoc", "*.markdown", "README*", "*/README*",
		"LICENSE*", "*/LICENSE*", "CHANGELOG*", "AUTHORS*",
		"CONTRIBUTING*", "CODEOWNERS", "*/CODEOWNERS", "docs/*",
		"doc/*", "*/docs/*", ".github/*", ".gitlab-ci.yml",
		".circleci/*", ".buildkite/*", ".pre-commit-config.yaml",
		".gitignore", "*/.gitignore", ".gitattributes", ".clang-format",
		".mailmap", "*.png", "*.jpg", "*.svg", NULL
	};

	(void)c, (void)unused;
	for (const char *const *p = pats; *p; p++)
		if (fnmatch(*p, path, 0) == 0)
			return 1;
	return 0;
}

static int
is_docs_path(struct ctx *c, const char *path)
{
	return cached(c, 'd', path, docs_raw, NULL);
}

static long long
int_or(const cJSON *rec, const char *path, long long def)
{
	long long v;

	return kh_get_int(rec, path, &v) == 0 ? v : def;
}

static enum kind
kind_of(const char *k)
{
	static const char *const names[] = { "commit", "pr", "leaderboard",
		"competition", "paper", "rating", "profile", "repo" };

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(k, names[i]) == 0)
			return (enum kind)i;
	return K_OTHER;
}

/* The PR number a body says landed this commit: PyTorch-style syncs. */
static long long
pr_from_text(const char *text, const char *repo)
{
	static const char tag[] = "Pull Request resolved: https://github.com/";
	const char *p = text ? strstr(text, tag) : NULL;
	size_t n;

	if (p == NULL || repo == NULL)
		return -1;
	p += sizeof tag - 1;
	n = strlen(repo);
	if (strncasecmp(p, repo, n) != 0 || strncmp(p + n, "/pull/", 6) != 0 ||
	    !isdigit((unsigned char)p[n + 6]))
		return -1;
	return strtoll(p + n + 6, NULL, 10);
}

/* Kernel lines and docs-only from "files"; drop entries past the cap. */
static void
scan_files(struct ctx *c, cJSON *rec, struct ev *e)
{
	cJSON *files = cJSON_GetObjectItemCaseSensitive(rec, "files"), *f;
	long long n = 0;
	int docs = 1;

	if (!cJSON_IsArray(files))
		return;
	e->kernel = 0;
	cJSON_ArrayForEach(f, files) {
		const char *path = kh_get_str(f, "path");

		n++;
		if (path == NULL)
			continue;
		if (!is_docs_path(c, path))
			docs = 0;
		if (is_kernel_path(c, path))
			e->kernel += int_or(f, "added", 0) +
			    int_or(f, "deleted", 0);
	}
	e->nfiles = n;
	e->docs_only = n > 0 && docs;
	while (n-- > FILES_CAP)
		cJSON_DeleteItemFromArray(files, FILES_CAP);
}

/* Cut "text" to TEXT_CAP bytes on a character boundary. */
static void
cap_text(cJSON *rec)
{
	cJSON *t = cJSON_GetObjectItemCaseSensitive(rec, "text");
	size_t n;

	if (!cJSON_IsString(t) || (n = strlen(t->valuestring)) <= TEXT_CAP)
		return;
	n = TEXT_CAP;
	while (n > 0 && ((unsigned char)t->valuestring[n] & 0xc0) == 0x80)
		n--;
	t->valuestring[n] = '\0';
}

static int
richness(const cJSON *rec, const struct ev *e)
{
	const cJSON *j;
	int r = 0;

	cJSON_ArrayForEach(j, rec)
		if (!cJSON_IsNull(j))
			r++;
	return r + (e->upstream == 1) * 1000 + (e->merged != -1) * 100 +
	    (e->nfiles >= 0) * 50;
}

/* The top-level fields the verdicts read, found in one pass. */
struct fields {
	const cJSON *kind, *id, *source, *repo, *at, *title, *sha, *upstream,
	    *merged, *merge, *pr, *number, *added, *deleted, *changed_files,
	    *base_repo, *author_type, *text, *ranked, *after_deadline,
	    *self_reported, *ambiguous, *fork, *confidence, *rank, *stars,
	    *rating, *board, *board_name, *gpu, *parent, *venue, *organiser,
	    *placing, *placing_text;
};

static void
find_fields(const cJSON *rec, struct fields *f)
{
	static const struct { const char *name; size_t off; } tab[] = {
#define F(x) { #x, offsetof(struct fields, x) }
		F(kind), F(id), F(source), F(repo), F(at), F(title), F(sha),
		F(upstream), F(merged), F(merge), F(pr), F(number), F(added),
		F(deleted), F(changed_files), F(base_repo), F(author_type),
		F(text), F(ranked), F(after_deadline), F(self_reported),
		F(ambiguous), F(fork), F(confidence), F(rank), F(stars),
		F(rating), F(board), F(board_name), F(gpu), F(parent), F(venue),
		F(organiser), F(placing), F(placing_text),
#undef F
	};
	const size_t n = sizeof tab / sizeof *tab;

	memset(f, 0, sizeof *f);
	for (const cJSON *j = rec->child; j; j = j->next) {
		const char *k = j->string;

		/* a record has few keys: compare the first byte before the rest */
		for (size_t i = 0; i < n; i++)
			if (tab[i].name[0] == k[0] && strcmp(tab[i].name, k) == 0) {
				*(const cJSON **)((char *)f + tab[i].off) = j;
				break;
			}
	}
}

static const char *
str_of(const cJSON *j)
{
	return cJSON_IsString(j) ? j->valuestring : NULL;
}

/* A whole number, or a string of digits; def otherwise (as kh_get_int). */
static long long
num_of(const cJSON *j, long long def)
{
	if (cJSON_IsNumber(j)) {
		double d = j->valuedouble;

		return d == (double)(long long)d && d > -9007199254740992.0 &&
		    d < 9007199254740992.0 ? (long long)d : def;
	}
	if (cJSON_IsString(j) && j->valuestring[0]) {
		char *end;
		long long v = strtoll(j->valuestring, &end, 10);

		return *end == '\0' ? v : def;
	}
	return def;
}

static int
bool_of(const cJSON *j, int def)
{
	return cJSON_IsBool(j) ? cJSON_IsTrue(j) : def;
}

static void
facts(struct ctx *c, cJSON *rec, struct ev *e)
{
	struct fields f;
	const char *s;
	long long v;

	find_fields(rec, &f);
	memset(e, 0, sizeof *e);
	e->kind = kind_of(str_of(f.kind));
	e->id = intern(c, str_of(f.id));
	e->source = intern(c, str_of(f.source));
	e->repo = intern(c, str_of(f.repo));
	e->at = intern(c, str_of(f.at));
	e->title = intern(c, str_of(f.title));
	e->sha = intern(c, str_of(f.sha));
	e->upstream = bool_of(f.upstream, -1);
	e->merged = bool_of(f.merged, -1);
	e->merge = bool_of(f.merge, 0);
	e->pr = num_of(e->kind == K_PR ? f.number : f.pr, -1);
	e->added = num_of(f.added, -1);
	e->deleted = num_of(f.deleted, -1);
	e->nfiles = num_of(f.changed_files, -1);
	e->kernel = -1;
	e->landed = e->next_title = -1;
	s = str_of(f.base_repo);
	e->base_repo = s ? intern(c, s) : e->repo;
	s = str_of(f.author_type);
	e->bot = s && strcmp(s, "Bot") == 0;
	s = str_of(f.text);
	if (e->kind == K_COMMIT) {
		e->cherry = s && strstr(s, "(cherry picked from commit ") != NULL;
		if (e->pr < 0)
			e->pr = pr_from_text(s, e->repo);
	}
	if (e->kind != K_COMMIT && e->kind != K_PR) {
		/* gpumode: "ranked" is how many are ranked on the board */
		e->ranked = (int)num_of(f.ranked, -1);
		e->after_deadline = bool_of(f.after_deadline, 0);
		e->self_reported = bool_of(f.self_reported, 0);
		e->ambiguous = bool_of(f.ambiguous, 0);
		e->fork = bool_of(f.fork, 0);
		s = str_of(f.confidence);
		e->low_conf = s && strcmp(s, "low") == 0;
		e->rank = num_of(f.rank, -1);
		e->stars = num_of(f.stars, -1);
		e->rating = num_of(f.rating, -1);
		e->board = intern(c, str_of(f.board_name) ?
		    str_of(f.board_name) : str_of(f.board));
		e->gpu = intern(c, str_of(f.gpu));
		e->parent = intern(c, str_of(f.parent));
		e->venue = intern(c, str_of(f.venue));
		e->organiser = intern(c, str_of(f.organiser));
		e->placing = intern(c, str_of(f.placing_text));
		if (e->placing == NULL && (v = num_of(f.placing, -1)) >= 0) {
			char num[32];

			snprintf(num, sizeof num, "%lld", v);
			e->placing = intern(c, num);
		}
	}
	scan_files(c, rec, e);
	cap_text(rec);
}

/* kh_json_write with a fast path for whole numbers, most of a record's. */
static void
jwrite(struct kh_buf *b, const cJSON *j)
{
	const cJSON *x;
	int first = 1;

	if (cJSON_IsNumber(j) && j->valuedouble == (double)(long long)
	    j->valuedouble && j->valuedouble > -1e15 && j->valuedouble < 1e15) {
		char d[24], *p = d + sizeof d;
		long long v = (long long)j->valuedouble;
		unsigned long long u = v < 0 ? (unsigned long long)-v :
		    (unsigned long long)v;

		do
			*--p = (char)('0' + u % 10);
		while ((u /= 10) != 0);
		if (v < 0)
			*--p = '-';
		kh_buf_add(b, p, (size_t)(d + sizeof d - p));
	} else if (cJSON_IsArray(j) || cJSON_IsObject(j)) {
		kh_buf_addc(b, cJSON_IsArray(j) ? '[' : '{');
		for (x = j->child; x; x = x->next) {
			if (!first)
				kh_buf_addc(b, ',');
			first = 0;
			if (cJSON_IsObject(j)) {
				kh_json_string(b, x->string, strlen(x->string));
				kh_buf_addc(b, ':');
			}
			jwrite(b, x);
		}
		kh_buf_addc(b, cJSON_IsArray(j) ? ']' : '}');
	} else
		kh_json_write(b, j);
}

/* Serialise the record once, without its closing brace. */
static void
keep_json(struct ev *e, cJSON *rec)
{
	struct kh_buf b = { 0 };

	cJSON_DeleteItemFromObjectCaseSensitive(rec, "authorship");
	jwrite(&b, rec);
	b.p[--b.len] = '\0';	/* the '}' */
	free(e->json);
	e->len = b.len;
	e->json = kh_buf_detach(&b);
}

/* The identity an object {login,name,email,...} gives, for a source. */
static void
who_of(struct ctx *c, const cJSON *p, const char *source, struct who *w)
{
	const char *login = kh_get_str(p, "login"), *email, *name, *pname;
	const char *pemail, *handle, *uid, *orcid;
	char *s, *nl = NULL, *id = NULL;

	memset(w, 0, sizeof *w);
	if (!cJSON_IsObject(p))
		return;
	name = kh_get_str(p, "name");
	email = kh_get_str(p, "email");
	if ((s = kh_login_norm(login)) != NULL) {
		w->login = intern(c, s);
		free(s);
	}
	if ((s = kh_email_norm(email)) != NULL) {
		w->email0 = w->email = intern(c, s);
		free(s);
	}
	if (c->mailmap && (w->email || name)) {
		mailmap_map(c->mailmap, name, w->email, &pname, &pemail,
		    &w->by_name);
		if (pname)
			name = pname;
		if (pemail && (s = kh_email_norm(pemail)) != NULL) {
			w->email = intern(c, s);
			free(s);
		}
	}
	if (w->email && kh_noreply(w->email, &nl, &id)) {
		if (w->login == NULL)
			w->login = intern(c, nl);
		if (id)
			w->ghid = intern(c, id);
		free(nl);
		free(id);
	}
	/* GitHub's numeric account ids; Discord's are 17 digits and up. */
	if ((uid = kh_get_str(p, "user_id")) != NULL && strlen(uid) <= 10 &&
	    strspn(uid, "0123456789") == strlen(uid) && w->ghid == NULL &&
	    source && (strcmp(source, "github") == 0 ||
	    strcmp(source, "gharchive") == 0 || strcmp(source, "gpumode") == 0))
		w->ghid = intern(c, uid);
	w->name = intern(c, name);
	if ((s = kh_name_norm(name)) != NULL) {
		w->nname = intern(c, s);
		free(s);
	}
	w->bot = (w->login && strstr(w->login, "[bot]") != NULL) ||
	    bot_match(c, "login", w->login) || bot_match(c, "email", w->email) ||
	    bot_match(c, "name", w->nname);
	if (w->email && kh_email_generic(w->email))
		w->email = NULL;
	if (w->nname && kh_name_generic(w->nname))
		w->nname = NULL;
	handle = kh_get_str(p, "handle");
	orcid = kh_get_str(p, "orcid");
	if (handle && *handle) {
		s = kh_asprintf("%s:%s", source ? source : "-", handle);
		w->handle = intern(c, s);
		free(s);
	} else if (orcid && *orcid) {
		s = kh_asprintf("orcid:%s", orcid);
		w->handle = intern(c, s);
		free(s);
	}
	if (w->login || w->email || w->handle)
		return;
	/* a bot without a login still gets one identity for all its work */
	if (w->bot && (w->nname || email)) {
		s = kh_asprintf("bot:%s", w->nname ? w->nname : email);
		w->handle = intern(c, s);
		free(s);
	} else if (w->nname && kh_name_specific(w->nname)) {
		/* a name and nothing else: loose, joined only by the name rule */
		s = kh_asprintf("%s:%s", source ? source : "-", w->nname);
		w->handle = intern(c, s);
		free(s);
	}
}

static void
add_claim(struct ctx *c, int ev, enum role role, const struct who *w)
{
	struct claim *cl;

	if (c->nclaims == c->capclaims) {
		c->capclaims = c->capclaims ? c->capclaims * 2 : 256;
		c->claims = kh_realloc(c->claims, c->capclaims * sizeof *cl);
	}
	cl = &c->claims[c->nclaims++];
	memset(cl, 0, sizeof *cl);
	cl->ev = ev;
	cl->role = role;
	cl->who = *w;
	cl->node = cl->cand = -1;
	c->evs[ev].nclaims++;
}

static int
same_person(const struct who *a, const struct who *b)
{
	return (a->login && a->login == b->login) ||
	    (a->email && a->email == b->email) ||
	    (!a->login && !a->email && !b->login && !b->email &&
	    a->nname == b->nname);
}

/* The claims of one record: author, co-authors, committer, merger. */
static void
claims_of(struct ctx *c, cJSON *rec, int ev)
{
	struct ev *e = &c->evs[ev];
	const cJSON *person = kh_get(rec, "person"), *co;
	struct who author, w;
	cJSON *merged = NULL;

	e->first_claim = (int)c->nclaims;
	e->nclaims = 0;
	/* a commit's author object adds to what person says */
	if (e->kind == K_COMMIT && cJSON_IsObject(kh_get(rec, "author"))) {
		merged = cJSON_Duplicate(kh_get(rec, "author"), 1);
		if (cJSON_IsObject(person))
			for (const cJSON *f = person->child; f; f = f->next)
				if (!cJSON_GetObjectItemCaseSensitive(merged,
				    f->string))
					cJSON_AddItemToObject(merged, f->string,
					    cJSON_Duplicate(f, 1));
		person = merged;
	} else if (e->kind == K_PROFILE && !cJSON_IsObject(person))
		person = kh_get(rec, "profile");
	who_of(c, person, e->source, &author);
	if (e->kind == K_PROFILE && author.login == NULL) {
		const char *l = kh_get_str(rec, "profile.login");
		char *s = kh_login_norm(l);

		author.login = intern(c, s);
		free(s);
	}
	if (e->kind == K_PROFILE && author.email == NULL &&
	    author.login != NULL) {
		char *s = kh_email_norm(kh_get_str(rec, "profile.email"));

		if (s && !kh_email_generic(s))
			author.email = intern(c, s);
		free(s);
	}
	author.bot |= e->bot;
	cJSON_Delete(merged);
	e->author = author.login ? author.login : author.name ? author.name :
	    author.email0;
	add_claim(c, ev, R_AUTHOR, &author);
	cJSON_ArrayForEach(co, kh_get(rec, "coauthors")) {
		who_of(c, co, e->source, &w);
		if (!same_person(&w, &author))
			add_claim(c, ev, R_COAUTHOR, &w);
	}
	if (e->kind == K_COMMIT) {
		who_of(c, kh_get(rec, "committer"), e->source, &w);
		/* GitHub itself and bots commit squash merges: no claim */
		if (!w.bot && (w.login || w.email) && !same_person(&w, &author))
			add_claim(c, ev, R_COMMITTER, &w);
	}
	if (e->kind == K_PR && e->merged == 1) {
		const cJSON *mb = kh_get(rec, "merged_by");
		cJSON tmp = { 0 }, *l = NULL;

		/* merged_by is a login string, or an object with one */
		if (cJSON_IsString(mb)) {
			l = cJSON_CreateString(mb->valuestring);
			tmp.type = cJSON_Object;
			tmp.child = l;
			l->string = (char *)"login";
			mb = &tmp;
		}
		who_of(c, mb, e->source, &w);
		if (l) {
			l->string = NULL;
			cJSON_Delete(l);
		}
		if (!w.bot && w.login && !same_person(&w, &author))
			add_claim(c, ev, R_MERGER, &w);
	}
}

static int
require(cJSON *rec, const struct kh_pos *pos, const char *field)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(rec, field);

	if (cJSON_IsString(j) && *j->valuestring)
		return 0;
	kh_bad(pos, "missing required field '%s'", field);
	return -1;
}

static int
new_ev(struct ctx *c)
{
	if (c->nevs == c->capevs) {
		c->capevs = c->capevs ? c->capevs * 2 : 256;
		c->evs = kh_realloc(c->evs, c->capevs * sizeof *c->evs);
	}
	memset(&c->evs[c->nevs], 0, sizeof *c->evs);
	return (int)c->nevs++;
}

/* Is rec, serialised as keep_json would, smaller than what e keeps? */
static int
smaller(cJSON *rec, const struct ev *e)
{
	struct kh_buf b = { 0 };
	int r;

	cJSON_DeleteItemFromObjectCaseSensitive(rec, "authorship");
	jwrite(&b, rec);
	b.p[--b.len] = '\0';
	r = strcmp(b.p, e->json) < 0;
	kh_buf_free(&b);
	return r;
}

/* Store one evidence record; a duplicate id keeps the richer record. */
static int
store(struct ctx *c, cJSON *rec)
{
	struct ev e;
	int *slot;

	facts(c, rec, &e);
	e.rich = richness(rec, &e);
	slot = map_put(&c->ev_ids, e.id, -1);
	if (*slot >= 0) {
		struct ev *old = &c->evs[*slot];

		/* equal: the smaller text, so input order does not matter */
		if (old->rich > e.rich || (old->rich == e.rich &&
		    !smaller(rec, old)))
			return -1;
		/* the new record is richer: retire the old one's claims */
		for (int i = 0; i < old->nclaims; i++)
			c->claims[old->first_claim + i].ev = -1;
		e.json = old->json;
		*old = e;
	} else {
		*slot = new_ev(c);
		c->evs[*slot] = e;
	}
	keep_json(&c->evs[*slot], rec);
	claims_of(c, rec, *slot);
	return *slot;
}

static int
check(cJSON *rec, const struct kh_pos *pos)
{
	const char *type = kh_get_str(rec, "type");

	if (strcmp(type, "evidence") != 0)
		return 1;
	if (require(rec, pos, "id") < 0 || require(rec, pos, "kind") < 0)
		return -1;
	return 0;
}

int
gather(cJSON *rec, const struct kh_pos *pos, void *ctx)
{
	int r = check(rec, pos);

	if (r != 0) {
		if (r > 0)
			kh_emit(rec);	/* not evidence: pass it on */
		return r < 0 ? -1 : 0;
	}
	store(ctx, rec);
	return 0;
}

void
store_reset(struct ctx *c)
{
	for (size_t i = 0; i < c->nevs; i++) {
		free(c->evs[i].json);
		free(c->evs[i].why);
	}
	for (size_t i = 0; i < c->nclaims; i++)
		free(c->claims[i].why);
	c->nevs = c->nclaims = 0;
	map_free(&c->ev_ids);
	map_free(&c->forks);
	people_free(c);
	/* interned strings go too: in --sorted mode memory stays per group */
	map_free(&c->strs);
}

/* --key: one line per claim, the key first so that sort(1) groups them. */
int
print_key(cJSON *rec, const struct kh_pos *pos, void *ctx)
{
	static const char *const roles[] = { "author", "coauthor",
		"committer", "merger" };
	struct ctx *c = ctx;
	struct kh_buf b = { 0 };
	int r = check(rec, pos), ev;
	cJSON raw = { 0 };

	if (r != 0) {
		if (r > 0)
			kh_emit(rec);
		return r < 0 ? -1 : 0;
	}
	ev = store(c, rec);
	raw.type = cJSON_Raw;
	for (int i = 0; ev >= 0 && i < c->evs[ev].nclaims; i++) {
		const struct claim *cl = &c->claims[c->evs[ev].first_claim + i];
		char *key = claim_key(cl);

		kh_buf_reset(&b);
		kh_buf_adds(&b, "{\"authorship\":{\"key\":");
		if (key)
			kh_json_string(&b, key, strlen(key));
		else
			kh_buf_adds(&b, "null");
		kh_buf_adds(&b, ",\"role\":\"");
		kh_buf_adds(&b, roles[cl->role]);
		kh_buf_adds(&b, "\"},");
		kh_buf_add(&b, c->evs[ev].json + 1, c->evs[ev].len - 1);
		kh_buf_addc(&b, '}');
		raw.valuestring = b.p;
		kh_emit(&raw);
		free(key);
	}
	kh_buf_free(&b);
	/* the map step keeps nothing */
	store_reset(c);
	return 0;
}

/* The key as sort(1) sees it in a --key line: escaped, closing quote on. */
static char *
sort_form(const char *key)
{
	struct kh_buf b = { 0 };

	if (key == NULL)
		return kh_strdup("\x7f");	/* null sorts after every string */
	kh_json_string(&b, key, strlen(key));
	return kh_buf_detach(&b);
}

void
flush_group(struct ctx *c)
{
	if (!c->in_group)
		return;
	resolve(c);
	judge(c);
	output(c);
	store_reset(c);
	free(c->group);
	c->group = NULL;
	c->in_group = 0;
}

/* --sorted: records of one key arrive together; each key is a candidate. */
int
gather_sorted(cJSON *rec, const struct kh_pos *pos, void *ctx)
{
	static const char *const roles[] = { "author", "coauthor",
		"committer", "merger" };
	struct ctx *c = ctx;
	const cJSON *kj = kh_get(rec, "authorship.key");
	const char *role = kh_get_str(rec, "authorship.role");
	const char *key;
	char *form;
	int r = check(rec, pos), ev, kept = 0, ri;

	if (r != 0) {
		if (r > 0)
			kh_emit(rec);
		return r < 0 ? -1 : 0;
	}
	if ((!cJSON_IsString(kj) && !cJSON_IsNull(kj)) || role == NULL) {
		kh_bad(pos, "missing required field 'authorship.%s' (make "
		    "the input with kh-authorship --key)",
		    cJSON_IsString(kj) || cJSON_IsNull(kj) ? "role" : "key");
		return -1;
	}
	key = cJSON_IsString(kj) ? kj->valuestring : NULL;
	for (ri = 0; ri < 4 && strcmp(roles[ri], role) != 0; ri++)
		;
	if (ri == 4) {
		kh_bad(pos, "unknown authorship.role '%s'", role);
		return -1;
	}
	form = sort_form(key);
	if (c->in_group && strcmp(form, c->group_form) != 0) {
		if (strcmp(form, c->group_form) < 0) {
			fflush(stdout);
			kh_err("%s:%lu: input is not sorted by key ('%s' after "
			    "'%s'): sort it with LC_ALL=C sort", pos->file,
			    pos->line, key ? key : "null",
			    c->group ? c->group : "null");
			free(form);
			exit(KH_DATA);
		}
		flush_group(c);
	}
	if (!c->in_group) {
		free(c->group_form);
		c->group_form = form;
		c->group = key ? kh_strdup(key) : NULL;
		c->in_group = 1;
	} else
		free(form);
	/* keep the one claim this line is for (key and role die with the
	 * "authorship" object: c->group is the key from here on) */
	cJSON_DeleteItemFromObjectCaseSensitive(rec, "authorship");
	key = c->group;
	if ((ev = store(c, rec)) < 0)
		return 0;	/* a poorer duplicate */
	for (int i = 0; i < c->evs[ev].nclaims; i++) {
		struct claim *cl = &c->claims[c->evs[ev].first_claim + i];
		char *k = claim_key(cl);
		int match = !kept && (int)cl->role == ri &&
		    ((k == NULL && key == NULL) || (k && key && !strcmp(k, key)));

		free(k);
		if (match)
			kept = 1;
		else
			cl->ev = -1;
	}
	return 0;
}
