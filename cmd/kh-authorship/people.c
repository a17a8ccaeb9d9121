/*
 * people.c: who is who. Every login, email, GitHub account id and handle a
 * record names is a node; nodes are merged (union-find) by rules applied
 * strongest first, each on the state the stronger rules left:
 *
 *   1. facts of one record: a noreply address is its login's, a GitHub
 *      account id is its login's (a renamed account keeps its id), an
 *      address --mailmap rewrote is the address it was rewritten to;
 *   2. an email and a login met in one record (a profile, a commit joined
 *      to its PR by "(#N)"): merged when the address meets exactly one
 *      GitHub account; when it meets several it is a conflict, merged
 *      with none of them;
 *   3. names, only for identities with no login: an author name equal to
 *      a login ("login used as a display name"); or a full name (two
 *      words, no initials) carried by exactly one GitHub account, when no
 *      identity with that name has an employer's address the account does
 *      not have. Two identities without a login never merge on a name.
 *
 * Generic names and addresses (root, ubuntu, localhost, noreply@github.com)
 * never become nodes, so they never merge anyone.
 */
#include <stdlib.h>
#include <string.h>

#include "authorship.h"

static const char *const prefix[] = { "github:", "email:", "github-id:",
	"handle:" };

int
node_of(struct ctx *c, enum nkind k, const char *val)
{
	struct people *p = c->pp;
	int *slot;
	const char *kept, *key;

	kh_buf_reset(&c->tmp);
	kh_buf_adds(&c->tmp, prefix[k]);
	kh_buf_adds(&c->tmp, val);
	key = c->tmp.p;
	if ((slot = map_get(&p->keys, key)) == NULL) {
		kept = map_key(&p->keys, key);
		slot = map_get(&p->keys, kept);
		if (p->n == p->cap) {
			p->cap = p->cap ? p->cap * 2 : 256;
			p->nodes = kh_realloc(p->nodes, p->cap * sizeof *p->nodes);
		}
		*slot = (int)p->n;
		p->nodes[p->n].key = kept;
		p->nodes[p->n].kind = k;
		p->nodes[p->n].parent = (int)p->n;
		p->nodes[p->n].first = -1;
		p->n++;
	}
	return *slot;
}

int
find(struct people *p, int i)
{
	while (p->nodes[i].parent != i) {
		p->nodes[i].parent = p->nodes[p->nodes[i].parent].parent;
		i = p->nodes[i].parent;
	}
	return i;
}

/* Merge two nodes' groups; the older root stays root (deterministic). */
static void
unite(struct people *p, int a, int b, const char *rule, const char *via)
{
	int ra = find(p, a), rb = find(p, b);

	if (ra == rb)
		return;
	if (rb < ra) {
		int t = ra;

		ra = rb, rb = t;
	}
	p->nodes[rb].parent = ra;
	if (p->nlinks == p->caplinks) {
		p->caplinks = p->caplinks ? p->caplinks * 2 : 64;
		p->links = kh_realloc(p->links, p->caplinks * sizeof *p->links);
	}
	p->links[p->nlinks++] = (struct link){ a, b, rule, via };
}

/* An email and a login met in one record (rule 2, applied later). */
struct assoc {
	int email, login;
	const char *rule, *via;
	const char *name;	/* the name the address came with, or NULL */
};

struct assocs {
	struct assoc *a;
	size_t n, cap;
};

static void
assoc_add(struct assocs *as, int email, int login, const char *rule,
    const char *via, const char *name)
{
	if (as->n == as->cap) {
		as->cap = as->cap ? as->cap * 2 : 64;
		as->a = kh_realloc(as->a, as->cap * sizeof *as->a);
	}
	as->a[as->n++] = (struct assoc){ email, login, rule, via, name };
}

/* Rule 1: the nodes of one claim and what the record itself proves. */
static void
claim_nodes(struct ctx *c, struct claim *cl, struct assocs *as)
{
	const struct who *w = &cl->who;
	const struct ev *e = &c->evs[cl->ev];
	int l = -1, em = -1, id = -1, h = -1;

	if (w->login)
		l = node_of(c, N_LOGIN, w->login);
	if (w->ghid)
		id = node_of(c, N_GHID, w->ghid);
	if (w->email)
		em = node_of(c, N_EMAIL, w->email);
	if (w->handle)
		h = node_of(c, N_HANDLE, w->handle);
	cl->node = l >= 0 ? l : id >= 0 ? id : em >= 0 ? em : h;
	if (l >= 0 && id >= 0)
		unite(c->pp, l, id, "github-id", e->id);
	if (h >= 0 && cl->node != h)
		unite(c->pp, cl->node, h, "same-record", e->id);
	/* an address mapped whatever the name is the same address */
	if (w->email0 && w->email0 != w->email && em >= 0 && !w->by_name &&
	    !kh_email_generic(w->email0))
		unite(c->pp, node_of(c, N_EMAIL, w->email0), em, "mailmap",
		    c->mailmap_file);
	if (em >= 0) {
		char *nl = NULL;

		kh_noreply(w->email, &nl, NULL);
		if (nl && l >= 0 && strcmp(nl, w->login) == 0)
			unite(c->pp, em, l, "noreply", e->id);
		else if (l >= 0)
			assoc_add(as, em, l, e->kind == K_PROFILE ? "profile" :
			    "same-record", e->id, w->nname);
		else if (id >= 0)
			unite(c->pp, em, id, "same-record", e->id);
		free(nl);
	}
	if (cl->node >= 0 && c->pp->nodes[cl->node].first < 0)
		c->pp->nodes[cl->node].first = (int)(cl - c->claims);
}

/* Rule 2 source: a commit that names its PR shares the PR author's identity. */
static void
pr_joins(struct ctx *c, struct assocs *as)
{
	struct map prs = { 0 };
	char num[24];

	for (size_t i = 0; i < c->nevs; i++) {
		struct ev *e = &c->evs[i];
		char *k;

		if (e->kind != K_PR || e->pr < 0 || e->base_repo == NULL)
			continue;
		k = join3(e->base_repo, "#", numstr(e->pr, num));
		for (char *q = k; *q; q++)
			*q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
		*map_put(&prs, k, (int)i) = (int)i;
		free(k);
	}
	for (size_t i = 0; i < c->nclaims; i++) {
		struct claim *cl = &c->claims[i], *pc;
		struct ev *e;
		int *pi;
		char *k;

		if (cl->ev < 0 || cl->role != R_AUTHOR || cl->who.login ||
		    cl->who.email == NULL)
			continue;
		e = &c->evs[cl->ev];
		if (e->kind != K_COMMIT || e->merge || e->pr < 0 || !e->repo)
			continue;
		k = join3(e->repo, "#", numstr(e->pr, num));
		for (char *q = k; *q; q++)
			*q = (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q);
		pi = map_get(&prs, k);
		free(k);
		if (pi == NULL)
			continue;
		pc = &c->claims[c->evs[*pi].first_claim];
		if (pc->ev == *pi && pc->role == R_AUTHOR && pc->who.login &&
		    !pc->who.bot && !cl->who.bot)
			assoc_add(as, node_of(c, N_EMAIL, cl->who.email),
			    node_of(c, N_LOGIN, pc->who.login), "pr-join",
			    e->id, cl->who.nname);
	}
	map_free(&prs);
}

static struct conflict *
conflict_new(struct people *p, const char *id, const char *kind,
    const char *why)
{
	struct conflict *cf;

	p->cf = kh_realloc(p->cf, (p->ncf + 1) * sizeof *p->cf);
	cf = &p->cf[p->ncf++];
	memset(cf, 0, sizeof *cf);
	cf->id = id;
	cf->kind = kind;
	cf->why = why;
	return cf;
}

static void
conflict_node(struct people *p, struct conflict *cf, int node)
{
	for (size_t i = 0; i < cf->nnodes; i++)
		if (find(p, cf->nodes[i]) == find(p, node))
			return;
	cf->nodes = kh_realloc(cf->nodes, (cf->nnodes + 1) * sizeof *cf->nodes);
	cf->nodes[cf->nnodes++] = node;
}

static void
conflict_ev(struct conflict *cf, const char *id)
{
	if (cf->nevs >= 20)
		return;		/* enough to review by */
	for (size_t i = 0; i < cf->nevs; i++)
		if (cf->evs[i] == id)
			return;
	cf->evs = kh_realloc(cf->evs, (cf->nevs + 1) * sizeof *cf->evs);
	cf->evs[cf->nevs++] = id;
}

/* Rule 2: an address joins the one GitHub account it met, or none. */
static void
apply_assocs(struct ctx *c, struct assocs *as, char *contested)
{
	struct people *p = c->pp;
	size_t n = p->n;
	int *login_of = kh_malloc(n * sizeof *login_of);

	for (size_t i = 0; i < n; i++)
		login_of[i] = -1;
	for (size_t i = 0; i < n; i++)
		if (p->nodes[i].kind == N_LOGIN)
			login_of[find(p, (int)i)] = find(p, (int)i);
	for (size_t i = 0; i < as->n; i++) {
		int er = find(p, as->a[i].email), lr = find(p, as->a[i].login);

		if (er == lr)
			continue;
		if (login_of[er] >= 0 && login_of[er] != lr)
			contested[er] = 1;
		login_of[er] = lr;
	}
	/* conflicts first, while the groups are still apart: one pass over
	 * the associations and one over the claims, whatever their number */
	int *cf_of = kh_malloc((n + 1) * sizeof *cf_of);
	for (size_t r = 0; r < n; r++) {
		cf_of[r] = -1;
		if (!contested[r])
			continue;
		conflict_new(p, p->nodes[r].key, "shared-email",
		    "one address, several GitHub accounts: merged with none; "
		    "its records go to the account whose name they carry, "
		    "else stay apart");
		cf_of[r] = (int)p->ncf - 1;
		if (p->nodes[r].kind == N_LOGIN)
			conflict_node(p, &p->cf[cf_of[r]], (int)r);
	}
	for (size_t i = 0; i < as->n; i++) {
		int er = find(p, as->a[i].email);

		if (cf_of[er] >= 0)
			conflict_node(p, &p->cf[cf_of[er]], as->a[i].login);
	}
	for (size_t i = 0; i < c->nclaims; i++) {
		int r;

		if (c->claims[i].ev < 0 || c->claims[i].node < 0)
			continue;
		r = find(p, c->claims[i].node);
		if (cf_of[r] >= 0)
			conflict_ev(&p->cf[cf_of[r]], c->evs[c->claims[i].ev].id);
	}
	free(cf_of);
	for (size_t i = 0; i < as->n; i++) {
		const struct assoc *a = &as->a[i];

		if (!contested[find(p, a->email)])
			unite(p, a->email, a->login, a->rule, a->via);
	}
	free(login_of);
}

struct carry {			/* one name and who carries it */
	const char *name;
	int login_root;		/* the one login group, -1 none, -2 several */
	int loose_org;		/* a loose group has an employer's address */
};

static const char *
domain(const char *email)
{
	return strchr(email, '@') + 1;
}

/* Rule 3: names, for groups without a login. */
static void
name_rule(struct ctx *c, const char *contested)
{
	struct people *p = c->pp;
	size_t n = p->n, ncs = 0;
	char *has_login = kh_calloc(n, 1);
	struct map names = { 0 }, doms = { 0 };
	struct carry *cs = NULL;
	int *target = kh_malloc(n * sizeof *target);
	const char **via = kh_calloc(n, sizeof *via), **rule;
	char *k, num[24];

	rule = kh_calloc(n, sizeof *rule);
	for (size_t i = 0; i < n; i++) {
		target[i] = -1;
		if (p->nodes[i].kind == N_LOGIN)
			has_login[find(p, (int)i)] = 1;
	}
	/* the employers' domains each group has an address at */
	for (size_t i = 0; i < n; i++) {
		const char *key = p->nodes[i].key;

		if (p->nodes[i].kind != N_EMAIL || kh_email_personal(key + 6))
			continue;
		k = join3(numstr(find(p, (int)i), num), "|", domain(key));
		map_put(&doms, k, 1);
		free(k);
	}
	/* who carries each name */
	for (size_t i = 0; i < c->nclaims; i++) {
		const struct claim *cl = &c->claims[i];
		int r, *slot;
		struct carry *ca;

		if (cl->ev < 0 || cl->node < 0 || cl->who.nname == NULL)
			continue;
		r = find(p, cl->node);
		slot = map_put(&names, cl->who.nname, -1);
		if (*slot < 0) {
			cs = kh_realloc(cs, (ncs + 1) * sizeof *cs);
			cs[ncs] = (struct carry){ cl->who.nname, -1, 0 };
			*slot = (int)ncs++;
		}
		ca = &cs[*slot];
		if (has_login[r]) {
			if (ca->login_root == -1)
				ca->login_root = r;
			else if (ca->login_root != r)
				ca->login_root = -2;
		}
	}
	/* a loose group at an employer the one account is not known at */
	for (size_t i = 0; i < c->nclaims; i++) {
		const struct claim *cl = &c->claims[i];
		struct carry *ca;
		int r;

		if (cl->ev < 0 || cl->node < 0 || cl->who.nname == NULL ||
		    cl->who.email == NULL || kh_email_personal(cl->who.email))
			continue;
		r = find(p, cl->node);
		ca = &cs[*map_get(&names, cl->who.nname)];
		if (has_login[r] || ca->login_root < 0)
			continue;
		k = join3(numstr(ca->login_root, num), "|", domain(cl->who.email));
		if (map_get(&doms, k) == NULL)
			ca->loose_org = 1;
		free(k);
	}
	/* each loose group's one target, or none when its names disagree */
	for (size_t i = 0; i < c->nclaims; i++) {
		const struct claim *cl = &c->claims[i];
		const struct carry *ca;
		const char *nm = cl->who.nname, *ru = NULL;
		int r, t = -1, *ln;

		if (cl->ev < 0 || cl->node < 0 || nm == NULL)
			continue;
		r = find(p, cl->node);
		if (has_login[r] || contested[r] || target[r] == -2)
			continue;
		ca = &cs[*map_get(&names, nm)];
		k = join3("github:", nm, NULL);
		ln = strchr(nm, ' ') || strlen(nm) < 3 ? NULL :
		    map_get(&p->keys, k);
		free(k);
		if (ln) {
			t = find(p, *ln);
			ru = "login-as-name";
		} else if (kh_name_specific(nm) && ca->login_root >= 0 &&
		    !ca->loose_org) {
			t = ca->login_root;
			ru = "name";
		}
		if (t < 0)
			continue;
		if (target[r] >= 0 && target[r] != t) {
			target[r] = -2;	/* two names, two people: neither */
			continue;
		}
		target[r] = t;
		rule[r] = ru;
		via[r] = c->evs[cl->ev].id;
	}
	/*
	 * Names the rule would not decide on, for a person to review: a name
	 * that several accounts carry, or one whose carriers include an
	 * employer's address, when some group without a login carries it
	 * and stays apart.
	 */
	int *cf_of = kh_malloc((ncs + 1) * sizeof *cf_of);
	for (size_t i = 0; i < ncs; i++)
		cf_of[i] = -1;
	for (size_t j = 0; j < c->nclaims; j++) {
		const struct claim *cl = &c->claims[j];
		const struct carry *ca;
		int ci, r;

		if (cl->ev < 0 || cl->node < 0 || cl->who.nname == NULL)
			continue;
		ci = *map_get(&names, cl->who.nname);
		ca = &cs[ci];
		r = find(p, cl->node);
		if (cf_of[ci] >= 0 || has_login[r] || target[r] >= 0 ||
		    !kh_name_specific(ca->name) || ca->login_root == -1 ||
		    (ca->login_root >= 0 && !ca->loose_org))
			continue;
		k = kh_asprintf("name:%s", ca->name);
		conflict_new(p, intern(c, k), "shared-name",
		    "one name, several identities that no login or address "
		    "links: not merged on the name");
		cf_of[ci] = (int)p->ncf - 1;
		free(k);
	}
	for (size_t j = 0; j < c->nclaims; j++) {
		const struct claim *cl = &c->claims[j];
		int ci;

		if (cl->ev < 0 || cl->node < 0 || cl->who.nname == NULL ||
		    cf_of[ci = *map_get(&names, cl->who.nname)] < 0)
			continue;
		conflict_node(p, &p->cf[cf_of[ci]], cl->node);
		conflict_ev(&p->cf[cf_of[ci]], c->evs[cl->ev].id);
	}
	free(cf_of);
	for (size_t r = 0; r < n; r++)
		if (target[r] >= 0)
			unite(p, (int)r, target[r], rule[r], via[r]);
	free(has_login);
	free(target);
	free(via);
	free(rule);
	free(cs);
	map_free(&names);
	map_free(&doms);
}

/*
 * The records of an address several accounts share go to the one account
 * whose name they carry; else they stay with the address.
 */
static void
shared_email_claims(struct ctx *c, const struct assocs *as,
    const char *contested)
{
	struct people *p = c->pp;
	struct map named = { 0 };
	char *k, num[24];

	/* the names an account is known by: its own records', and the names
	 * its addresses came with (a squash commit of its PR) */
	for (size_t i = 0; i < as->n; i++) {
		if (as->a[i].name == NULL)
			continue;
		k = join3(numstr(find(p, as->a[i].login), num), "|",
		    as->a[i].name);
		map_put(&named, k, 1);
		free(k);
	}
	for (size_t i = 0; i < c->nclaims; i++) {
		const struct claim *cl = &c->claims[i];

		if (cl->ev < 0 || cl->node < 0 || cl->who.nname == NULL ||
		    p->nodes[find(p, cl->node)].kind != N_LOGIN)
			continue;
		k = join3(numstr(find(p, cl->node), num), "|", cl->who.nname);
		map_put(&named, k, 1);
		free(k);
	}
	int *cf_of = kh_malloc((p->n + 1) * sizeof *cf_of);

	for (size_t r = 0; r < p->n; r++)
		cf_of[r] = -1;
	for (size_t j = 0; j < p->ncf; j++)
		if (strcmp(p->cf[j].kind, "shared-email") == 0)
			cf_of[find(p, *map_get(&p->keys, p->cf[j].id))] = (int)j;
	for (size_t i = 0; i < c->nclaims; i++) {
		struct claim *cl = &c->claims[i];
		const struct conflict *cf = NULL;
		int r, hit = -1, nhit = 0;

		if (cl->ev < 0 || cl->node < 0 || cl->who.nname == NULL ||
		    !contested[r = find(p, cl->node)])
			continue;
		if (cf_of[r] >= 0)
			cf = &p->cf[cf_of[r]];
		for (size_t j = 0; cf && j < cf->nnodes; j++) {
			int lr = find(p, cf->nodes[j]);

			k = join3(numstr(lr, num), "|", cl->who.nname);
			if (map_get(&named, k) && lr != r)
				hit = lr, nhit++;
			free(k);
		}
		if (nhit == 1)
			p->override[i] = hit;
	}
	free(cf_of);
	map_free(&named);
}

/* The node that names each group: its busiest login, else address, else
 * handle, else GitHub account id; ties go to the smaller key. */
static int *
group_names(const struct people *p, const int *uses)
{
	static const int rank[] = { 0, 1, 3, 2 };	/* by enum nkind */
	int *best = kh_malloc((p->n + 1) * sizeof *best);

	for (size_t i = 0; i < p->n; i++)
		best[i] = -1;
	for (size_t i = 0; i < p->n; i++) {
		int r = p->nodes[i].parent, b;
		const struct node *nd = &p->nodes[i], *bn;

		while (p->nodes[r].parent != r)
			r = p->nodes[r].parent;
		if ((b = best[r]) < 0) {
			best[r] = (int)i;
			continue;
		}
		bn = &p->nodes[b];
		if (rank[nd->kind] < rank[bn->kind] ||
		    (nd->kind == bn->kind && (uses[i] > uses[b] ||
		    (uses[i] == uses[b] && strcmp(nd->key, bn->key) < 0))))
			best[r] = (int)i;
	}
	return best;
}

static const char *
group_id(struct ctx *c, int best)
{
	const struct node *nd = &c->pp->nodes[best];
	const char *id;
	char *s;

	if (nd->kind != N_GHID)
		return nd->key;
	s = kh_asprintf("handle:%s", nd->key);
	id = intern(c, s);
	free(s);
	return id;
}

static int
cand_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cand *)a)->id, ((const struct cand *)b)->id);
}

static void
cand_add(struct cand *cd, int claim)
{
	if (cd->n == cd->cap) {
		cd->cap = cd->cap ? cd->cap * 2 : 8;
		cd->claims = kh_realloc(cd->claims, cd->cap * sizeof *cd->claims);
	}
	cd->claims[cd->n++] = claim;
}

/* One candidate per group; a person's claims on one record collapse into
 * the strongest (an author who also committed is the author). */
static void
make_cands(struct ctx *c)
{
	struct people *p = c->pp;
	int *cand_of = kh_malloc((p->n + 1) * sizeof *cand_of);
	int *uses = kh_calloc(p->n + 1, sizeof *uses), *best;
	size_t i;

	for (i = 0; i < p->n; i++)
		cand_of[i] = -1;
	for (i = 0; i < c->nclaims; i++)
		if (c->claims[i].ev >= 0 && c->claims[i].node >= 0)
			uses[c->claims[i].node]++;
	best = group_names(p, uses);
	for (i = 0; i < c->nclaims; i++) {
		struct claim *cl = &c->claims[i];
		int r;

		if (cl->ev < 0)
			continue;
		if (cl->node < 0) {
			if (cl->role == R_AUTHOR)
				c->unattributed++;
			continue;
		}
		r = p->override[i] >= 0 ? find(p, p->override[i]) :
		    find(p, cl->node);
		if (cand_of[r] < 0) {
			p->cands = kh_realloc(p->cands,
			    (p->ncands + 1) * sizeof *p->cands);
			memset(&p->cands[p->ncands], 0, sizeof *p->cands);
			p->cands[p->ncands].root = r;
			p->cands[p->ncands].id = c->group ? c->group :
			    group_id(c, best[r]);
			cand_of[r] = (int)p->ncands++;
		}
		cl->cand = cand_of[r];
	}
	/* the strongest claim per (record, candidate) */
	for (i = 0; i < c->nclaims; i++) {
		struct claim *cl = &c->claims[i];
		const struct ev *e;

		if (cl->ev < 0 || cl->cand < 0)
			continue;
		e = &c->evs[cl->ev];
		for (int j = e->first_claim; j < (int)i; j++)
			if (c->claims[j].ev == cl->ev &&
			    c->claims[j].cand == cl->cand) {
				cl->cand = -1;	/* an earlier role is stronger */
				break;
			}
		if (cl->cand >= 0)
			cand_add(&p->cands[cl->cand], (int)i);
	}
	/* sort by id; the claims keep their candidate by root */
	for (i = 0; i < p->ncands; i++)
		cand_of[i] = p->cands[i].root;
	if (p->ncands > 1)
		qsort(p->cands, p->ncands, sizeof *p->cands, cand_cmp);
	for (i = 0; i < p->ncands; i++)
		for (size_t j = 0; j < p->cands[i].n; j++)
			c->claims[p->cands[i].claims[j]].cand = (int)i;
	free(cand_of);
	free(uses);
	free(best);
}

void
resolve(struct ctx *c)
{
	struct assocs as = { 0 };
	char *contested;

	c->pp = kh_calloc(1, sizeof *c->pp);
	c->pp->override = kh_malloc((c->nclaims + 1) * sizeof(int));
	for (size_t i = 0; i < c->nclaims; i++) {
		c->pp->override[i] = -1;
		if (c->claims[i].ev >= 0)
			claim_nodes(c, &c->claims[i], &as);
	}
	if (c->group == NULL) {
		pr_joins(c, &as);
		contested = kh_calloc(c->pp->n + 1, 1);
		apply_assocs(c, &as, contested);
		name_rule(c, contested);
		shared_email_claims(c, &as, contested);
		free(contested);
	} else {
		/* --sorted: the key made the group; everything in it is one */
		for (size_t i = 0; i < c->nclaims; i++)
			if (c->claims[i].ev >= 0 && c->claims[i].node >= 0)
				unite(c->pp, 0, c->claims[i].node, "key", NULL);
	}
	free(as.a);
	make_cands(c);
}

void
people_free(struct ctx *c)
{
	struct people *p = c->pp;

	if (p == NULL)
		return;
	map_free(&p->keys);
	free(p->nodes);
	free(p->links);
	for (size_t i = 0; i < p->ncands; i++)
		free(p->cands[i].claims);
	free(p->cands);
	for (size_t i = 0; i < p->ncf; i++) {
		free(p->cf[i].nodes);
		free(p->cf[i].evs);
	}
	free(p->cf);
	free(p->override);
	free(p);
	c->pp = NULL;
}
