/*
 * output.c: candidates, annotated evidence, identity conflicts. Lines are
 * written as text from the stored compact records, so a record is never
 * parsed twice.
 */
#include <stdlib.h>
#include <string.h>

#include "authorship.h"

char *
claim_key(const struct claim *cl)
{
	const struct who *w = &cl->who;

	if (w->login)
		return kh_asprintf("github:%s", w->login);
	if (w->email)
		return kh_asprintf("email:%s", w->email);
	if (w->handle)
		return kh_asprintf("handle:%s", w->handle);
	if (w->ghid)
		return kh_asprintf("handle:github-id:%s", w->ghid);
	return NULL;
}

static void
emit_buf(struct kh_buf *b)
{
	cJSON raw = { 0 };

	raw.type = cJSON_Raw;
	raw.valuestring = b->p;
	kh_emit(&raw);
}

static void
str(struct kh_buf *b, const char *s)
{
	if (s)
		kh_json_string(b, s, strlen(s));
	else
		kh_buf_adds(b, "null");
}

/* The record with "authorship" appended. */
static void
annotated(struct kh_buf *b, const struct ev *e, enum verdict v,
    const char *why, const char *cand, int with_cand)
{
	kh_buf_add(b, e->json, e->len);
	kh_buf_adds(b, e->len > 1 ? ",\"authorship\":{\"verdict\":\"" :
	    "\"authorship\":{\"verdict\":\"");
	kh_buf_adds(b, verdict_name[v]);
	kh_buf_adds(b, "\",\"why\":");
	str(b, why);
	if (with_cand) {
		kh_buf_adds(b, ",\"candidate\":");
		str(b, cand);
	}
	kh_buf_adds(b, "}}");
}

static void
emit_evidence(struct ctx *c)
{
	struct kh_buf b = { 0 };

	for (size_t i = 0; i < c->nevs; i++) {
		const struct ev *e = &c->evs[i];
		const struct claim *a = &c->claims[e->first_claim];
		const char *cand = NULL;

		if (e->nclaims > 0 && a->ev == (int)i && a->cand >= 0)
			cand = c->pp->cands[a->cand].id;
		kh_buf_reset(&b);
		annotated(&b, e, e->v, e->why, cand, 1);
		emit_buf(&b);
	}
	kh_buf_free(&b);
}

static const struct claim *sort_claims;	/* qsort has no context pointer */
static const struct ev *sort_evs;

static int
by_time(const void *x, const void *y)
{
	const struct ev *a = &sort_evs[sort_claims[*(const int *)x].ev];
	const struct ev *b = &sort_evs[sort_claims[*(const int *)y].ev];
	int r;

	if ((a->at == NULL) != (b->at == NULL))
		return a->at == NULL ? 1 : -1;	/* undated last */
	if (a->at && (r = strcmp(a->at, b->at)) != 0)
		return r;
	if ((r = strcmp(a->id, b->id)) != 0)
		return r;
	return (int)sort_claims[*(const int *)x].role -
	    (int)sort_claims[*(const int *)y].role;
}

static int
by_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A sorted set of strings, written as a JSON array. */
struct strset {
	const char **s;
	size_t n, cap;
};

static void
set_add(struct strset *s, const char *v)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (s->s[i] == v)	/* interned: one pointer per string */
			return;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->s = kh_realloc(s->s, s->cap * sizeof *s->s);
	}
	s->s[s->n++] = v;
}

static void
set_write(struct kh_buf *b, struct strset *s, size_t skip)
{
	if (s->n > 1)	/* qsort(NULL, 0) is undefined */
		qsort(s->s, s->n, sizeof *s->s, by_str);
	kh_buf_addc(b, '[');
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			kh_buf_addc(b, ',');
		str(b, s->s[i] + skip);
	}
	kh_buf_addc(b, ']');
	free(s->s);
	memset(s, 0, sizeof *s);
}

struct repo_sum {
	const char *repo;
	long long prs, commits, lines, kernel;
};

static int
by_lines(const void *x, const void *y)
{
	const struct repo_sum *a = x, *b = y;

	if (a->lines != b->lines)
		return a->lines > b->lines ? -1 : 1;
	return strcmp(a->repo, b->repo);
}

static void
summary(struct kh_buf *b, struct ctx *c, const struct cand *cd)
{
	long long verified = 0, co = 0, prs = 0, commits = 0, lines = 0,
	    kernel = 0;
	const char *first = NULL, *last = NULL;
	struct repo_sum *rs = NULL;
	size_t nrs = 0;
	struct strset sources = { 0 };
	struct map pr_lines = { 0 };
	char *k, num[24];

	/* PRs with their own line counts: their commits are not counted twice */
	for (size_t i = 0; i < cd->n; i++) {
		const struct claim *cl = &c->claims[cd->claims[i]];
		const struct ev *e = &c->evs[cl->ev];

		if (cl->v == V_VERIFIED && e->kind == K_PR && e->added >= 0) {
			k = join3(e->base_repo, "#", numstr(e->pr, num));
			/* 1: the PR has lines; 2: and kernel lines (it had files) */
			*map_put(&pr_lines, k, 1) = e->kernel >= 0 ? 2 : 1;
			free(k);
		}
	}
	for (size_t i = 0; i < cd->n; i++) {
		const struct claim *cl = &c->claims[cd->claims[i]];
		const struct ev *e = &c->evs[cl->ev];
		const char *repo = e->kind == K_PR ? e->base_repo : e->repo;
		long long l = 0, kl = 0;
		size_t j;

		set_add(&sources, e->source);
		if (cl->v == V_COAUTHOR)
			co++;
		if (cl->v != V_VERIFIED && cl->v != V_COAUTHOR)
			continue;
		if (e->at && (first == NULL || strcmp(e->at, first) < 0))
			first = e->at;
		if (e->at && (last == NULL || strcmp(e->at, last) > 0))
			last = e->at;
		if (cl->v != V_VERIFIED)
			continue;
		verified++;
		if (e->kind != K_PR && e->kind != K_COMMIT)
			continue;
		if (e->kind == K_COMMIT && e->pr >= 0) {
			int *pl;

			k = join3(e->repo, "#", numstr(e->pr, num));
			pl = map_get(&pr_lines, k);
			if (pl == NULL)
				l = (e->added > 0 ? e->added : 0) +
				    (e->deleted > 0 ? e->deleted : 0);
			if (pl == NULL || *pl == 1)
				kl = e->kernel > 0 ? e->kernel : 0;
			free(k);
		} else {
			l = (e->added > 0 ? e->added : 0) +
			    (e->deleted > 0 ? e->deleted : 0);
			kl = e->kernel > 0 ? e->kernel : 0;
		}
		lines += l;
		kernel += kl;
		if (e->kind == K_PR)
			prs++;
		else
			commits++;
		for (j = 0; j < nrs && rs[j].repo != repo; j++)
			;
		if (j == nrs) {
			rs = kh_realloc(rs, (nrs + 1) * sizeof *rs);
			rs[nrs++] = (struct repo_sum){ repo, 0, 0, 0, 0 };
		}
		rs[j].prs += e->kind == K_PR;
		rs[j].commits += e->kind == K_COMMIT;
		rs[j].lines += l;
		rs[j].kernel += kl;
	}
	kh_buf_addf(b, "\"summary\":{\"verified\":%lld,\"coauthored\":%lld,"
	    "\"prs\":%lld,\"commits\":%lld,\"lines\":%lld,"
	    "\"kernel_lines\":%lld,\"repos\":[", verified, co, prs, commits,
	    lines, kernel);
	for (size_t j = 0; j < nrs; j++)
		if (rs[j].repo == NULL)
			rs[j].repo = "";
	if (nrs > 1)
		qsort(rs, nrs, sizeof *rs, by_lines);
	for (size_t j = 0; j < nrs; j++) {
		kh_buf_adds(b, j ? ",{\"repo\":" : "{\"repo\":");
		str(b, *rs[j].repo ? rs[j].repo : NULL);
		kh_buf_addf(b, ",\"prs\":%lld,\"commits\":%lld,\"lines\":%lld,"
		    "\"kernel_lines\":%lld}", rs[j].prs, rs[j].commits,
		    rs[j].lines, rs[j].kernel);
	}
	kh_buf_adds(b, "],\"first\":");
	str(b, first);
	kh_buf_adds(b, ",\"last\":");
	str(b, last);
	kh_buf_adds(b, ",\"sources\":");
	set_write(b, &sources, 0);
	kh_buf_addc(b, '}');
	free(rs);
	map_free(&pr_lines);
}

/* The "profile" object of a profile record, as JSON text (caller frees). */
static char *
profile_of(const struct ev *e)
{
	char *s = kh_malloc(e->len + 2), *out = NULL;
	cJSON *rec, *p;

	memcpy(s, e->json, e->len);
	memcpy(s + e->len, "}", 2);
	rec = cJSON_Parse(s);
	p = cJSON_GetObjectItemCaseSensitive(rec, "profile");
	if (cJSON_IsObject(p))
		out = kh_json_print(p);
	cJSON_Delete(rec);
	free(s);
	return out;
}

/* The most used name among the claims, ties to the smaller. */
static const char *
main_name(const struct ctx *c, const struct cand *cd)
{
	const char *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < cd->n; i++) {
		const char *nm = c->claims[cd->claims[i]].who.name;
		size_t n = 0;

		if (nm == NULL || c->claims[cd->claims[i]].who.nname == NULL)
			continue;
		for (size_t j = 0; j < cd->n; j++)
			n += c->claims[cd->claims[j]].who.name == nm;
		if (n > best_n || (n == best_n && strcmp(nm, best) < 0))
			best = nm, best_n = n;
	}
	return best;
}

static void
candidate(struct kh_buf *b, struct ctx *c, size_t ci, const int *nodes,
    size_t nn, const int *links, size_t nl)
{
	const struct cand *cd = &c->pp->cands[ci];
	struct strset logins = { 0 }, emails = { 0 }, names = { 0 },
	    handles = { 0 };
	const struct ev *prof = NULL;
	char *pj = NULL, *pname = NULL;
	const char *name;

	for (size_t i = 0; i < nn; i++) {
		const struct node *nd = &c->pp->nodes[nodes[i]];

		if (nd->kind == N_LOGIN)
			set_add(&logins, nd->key);
		else if (nd->kind == N_EMAIL)
			set_add(&emails, nd->key);
		else if (nd->kind == N_HANDLE)
			set_add(&handles, nd->key);
	}
	for (size_t i = 0; i < cd->n; i++) {
		const struct claim *cl = &c->claims[cd->claims[i]];
		const struct ev *e = &c->evs[cl->ev];

		if (cl->who.nname)
			set_add(&names, cl->who.name);
		if (e->kind == K_PROFILE && cl->role == R_AUTHOR &&
		    (prof == NULL || (e->at && prof->at &&
		    strcmp(e->at, prof->at) > 0)))
			prof = e;
	}
	if (prof && (pj = profile_of(prof)) != NULL) {
		cJSON *p = cJSON_Parse(pj);
		const char *n = kh_get_str(p, "name");

		pname = n ? kh_strdup(n) : NULL;
		cJSON_Delete(p);
	}
	name = pname ? pname : main_name(c, cd);
	kh_buf_adds(b, "{\"type\":\"candidate\",\"id\":");
	str(b, cd->id);
	kh_buf_adds(b, ",\"name\":");
	str(b, name);
	kh_buf_adds(b, ",\"logins\":");
	set_write(b, &logins, 7);
	kh_buf_adds(b, ",\"emails\":");
	set_write(b, &emails, 6);
	kh_buf_adds(b, ",\"names\":");
	set_write(b, &names, 0);
	kh_buf_adds(b, ",\"handles\":");
	set_write(b, &handles, 7);
	kh_buf_adds(b, ",\"profile\":");
	kh_buf_adds(b, pj ? pj : "null");
	free(pj);
	free(pname);
	if (c->explain) {
		kh_buf_adds(b, ",\"identity_links\":[");
		for (size_t i = 0; i < nl; i++) {
			const struct link *l = &c->pp->links[links[i]];

			kh_buf_adds(b, i ? ",{\"from\":" : "{\"from\":");
			str(b, c->pp->nodes[l->a].key);
			kh_buf_adds(b, ",\"to\":");
			str(b, c->pp->nodes[l->b].key);
			kh_buf_adds(b, ",\"rule\":");
			str(b, l->rule);
			kh_buf_adds(b, ",\"via\":");
			str(b, l->via);
			kh_buf_addc(b, '}');
		}
		kh_buf_addc(b, ']');
	}
	kh_buf_addc(b, ',');
	summary(b, c, cd);
	kh_buf_adds(b, ",\"evidence\":[");
	sort_claims = c->claims;
	sort_evs = c->evs;
	if (cd->n > 1)
		qsort(cd->claims, cd->n, sizeof *cd->claims, by_time);
	for (size_t i = 0, n = 0; i < cd->n; i++) {
		const struct claim *cl = &c->claims[cd->claims[i]];
		const struct ev *e = &c->evs[cl->ev];

		if (e->kind == K_PROFILE)
			continue;	/* it is the "profile" above */
		if (n++)
			kh_buf_addc(b, ',');
		annotated(b, e, cl->v, cl->why ? cl->why : e->why, NULL, 0);
	}
	kh_buf_adds(b, "]}");
}

static void
emit_conflicts(struct ctx *c, const int *cand_of_root)
{
	struct people *p = c->pp;
	struct kh_buf b = { 0 };

	for (size_t i = 0; i < p->ncf; i++) {
		const struct conflict *cf = &p->cf[i];
		struct strset ids = { 0 }, evs = { 0 };

		for (size_t j = 0; j < cf->nnodes; j++) {
			int ci = cand_of_root[find(p, cf->nodes[j])];

			if (ci >= 0)
				set_add(&ids, p->cands[ci].id);
		}
		for (size_t j = 0; j < cf->nevs; j++)
			set_add(&evs, cf->evs[j]);
		kh_buf_reset(&b);
		kh_buf_adds(&b, "{\"type\":\"identity-conflict\",\"id\":");
		str(&b, cf->id);
		kh_buf_adds(&b, ",\"kind\":");
		str(&b, cf->kind);
		kh_buf_adds(&b, ",\"candidates\":");
		set_write(&b, &ids, 0);
		kh_buf_adds(&b, ",\"evidence\":");
		set_write(&b, &evs, 0);
		kh_buf_adds(&b, ",\"why\":");
		str(&b, cf->why);
		kh_buf_addc(&b, '}');
		emit_buf(&b);
	}
	kh_buf_free(&b);
}

/* Bucket items by candidate: start[ci]..start[ci+1] in out. */
static void
bucket(const int *cand, size_t n, size_t ncands, size_t **start, int **out)
{
	size_t *st = kh_calloc(ncands + 2, sizeof *st);
	int *o = kh_malloc((n + 1) * sizeof *o);

	for (size_t i = 0; i < n; i++)
		if (cand[i] >= 0)
			st[cand[i] + 2]++;
	for (size_t i = 2; i < ncands + 2; i++)
		st[i] += st[i - 1];
	for (size_t i = 0; i < n; i++)
		if (cand[i] >= 0)
			o[st[cand[i] + 1]++] = (int)i;
	*start = st;
	*out = o;
}

void
output(struct ctx *c)
{
	struct people *p = c->pp;
	int *cand_of_root = kh_malloc((p->n + 1) * sizeof(int));
	int *node_cand = kh_malloc((p->n + 1) * sizeof(int));
	int *link_cand = kh_malloc((p->nlinks + 1) * sizeof(int));
	size_t *nst, *lst;
	int *nodes, *links;
	struct kh_buf b = { 0 };

	if (c->evidence_mode) {
		emit_evidence(c);
		goto conflicts_only;
	}
	for (size_t i = 0; i < p->n; i++)
		cand_of_root[i] = -1;
	for (size_t i = 0; i < p->ncands; i++)
		cand_of_root[p->cands[i].root] = (int)i;
	for (size_t i = 0; i < p->n; i++)
		node_cand[i] = cand_of_root[find(p, (int)i)];
	for (size_t i = 0; i < p->nlinks; i++)
		link_cand[i] = cand_of_root[find(p, p->links[i].a)];
	bucket(node_cand, p->n, p->ncands, &nst, &nodes);
	bucket(link_cand, p->nlinks, p->ncands, &lst, &links);
	for (size_t i = 0; i < p->ncands; i++) {
		kh_buf_reset(&b);
		candidate(&b, c, i, nodes + nst[i], nst[i + 1] - nst[i],
		    links + lst[i], lst[i + 1] - lst[i]);
		emit_buf(&b);
	}
	free(nst), free(nodes), free(lst), free(links);
	kh_buf_free(&b);
conflicts_only:
	if (c->conflicts) {
		for (size_t i = 0; i < p->n; i++)
			cand_of_root[i] = -1;
		for (size_t i = 0; i < p->ncands; i++)
			cand_of_root[p->cands[i].root] = (int)i;
		emit_conflicts(c, cand_of_root);
	}
	free(cand_of_root);
	free(node_cand);
	free(link_cand);
}
