/* authorship.h: the parts of kh-authorship (one program, several files) */
#ifndef AUTHORSHIP_H
#define AUTHORSHIP_H

#include "kh.h"

/* A string-keyed hash table of ints; keys are copied and owned by it. */
struct map {
	char **keys;
	int *vals;
	size_t cap, n;
};
int *map_get(const struct map *m, const char *key);
/* The value slot for key, added with value def when new. */
int *map_put(struct map *m, const char *key, int def);
/* The map's own copy of key: interned strings compare by pointer. */
const char *map_key(struct map *m, const char *key);
void map_free(struct map *m);
/* a, b and c one after the other (NULL: nothing), caller frees */
char *join3(const char *a, const char *b, const char *c);
/* n in decimal, written into out */
const char *numstr(long long n, char out[24]);

enum kind { K_COMMIT, K_PR, K_LEADERBOARD, K_COMPETITION, K_PAPER,
	K_RATING, K_PROFILE, K_REPO, K_OTHER };

/* The parts a person plays in one record, strongest first. */
enum role { R_AUTHOR, R_COAUTHOR, R_COMMITTER, R_MERGER };

enum verdict { V_VERIFIED, V_COAUTHOR, V_FORK_ONLY, V_COPY, V_UNMERGED,
	V_TRIVIAL, V_BULK, V_BOT, V_COMMITTER_ONLY, V_UNVERIFIED };
extern const char *const verdict_name[];

/* One evidence record, deduplicated by id. Strings are interned. */
struct ev {
	const char *id;
	char *json;		/* compact record without its closing '}' */
	size_t len;
	enum kind kind;
	const char *source, *repo, *at, *title, *sha;
	const char *base_repo;	/* pr: base_repo, else repo */
	int upstream;		/* 1, 0, -1 unknown */
	int merged;		/* pr: 1, 0, -1 unknown */
	int merge;		/* commit: a merge commit */
	int bot;		/* pr: author_type Bot */
	int cherry;		/* commit text says "cherry picked from" */
	long long pr;		/* commit: the PR it landed, -1 none */
	long long added, deleted, nfiles, kernel;	/* -1 unknown */
	int docs_only;		/* every file is docs or CI */
	int rich;		/* how much it says, to pick among duplicates */
	/* kind-specific facts */
	int ranked, after_deadline, self_reported, ambiguous, low_conf, fork;
	long long rank, stars, rating;
	const char *board, *gpu, *parent, *venue, *placing, *organiser;
	const char *author;	/* display of the author, for other roles */
	int first_claim, nclaims;
	enum verdict v;		/* the author's verdict */
	char *why;
	int landed;		/* pr: a commit that landed it, else -1 */
	int next_title;		/* the next commit with the same repo|title */
};

/* One person as one record names them. Strings are interned. */
struct who {
	const char *login, *email, *name, *nname, *ghid, *handle;
	const char *email0;	/* the address before --mailmap rewrote it */
	int by_name;		/* --mailmap matched the name too */
	int bot;
};

struct claim {
	int ev;			/* -1 once a richer duplicate replaced it */
	enum role role;
	struct who who;
	int node;		/* the identity node, -1 when none is usable */
	int cand;		/* the candidate it lands in, -1 none */
	enum verdict v;
	char *why;		/* NULL: the evidence's own */
};

/* Options and everything gathered. */
struct ctx {
	/* options */
	int explain, conflicts, evidence_mode, key_mode, sorted;
	long long min_lines, max_files, max_lines;
	const char *mailmap_file, *kernel_file, *bots_file;
	/* data */
	char **kernel_pats;
	size_t nkernel;
	char **bot_pats;	/* "login PATTERN" style lines, split */
	size_t nbots;
	struct mailmap *mailmap;
	struct map cache;	/* pattern answers by string (store.c) */
	struct kh_buf tmp;	/* scratch for keys */
	/* gathered */
	struct map strs;	/* interned strings */
	struct map ev_ids;	/* evidence id -> index in evs */
	struct ev *evs;
	size_t nevs, capevs;
	struct claim *claims;
	size_t nclaims, capclaims;
	struct map profiles;	/* login -> index in profile_json */
	char **profile_json;
	size_t nprofiles;
	struct map forks;	/* repo -> 1 fork, 0 not a fork */
	unsigned long unattributed;
	/* --sorted: the key of the group being gathered */
	char *group, *group_form;
	int in_group;
	/* identity nodes and candidates: see people.c */
	struct people *pp;
};

/* store.c: reading records */
const char *intern(struct ctx *c, const char *s);
int gather(cJSON *rec, const struct kh_pos *pos, void *ctx);
int print_key(cJSON *rec, const struct kh_pos *pos, void *ctx);
int gather_sorted(cJSON *rec, const struct kh_pos *pos, void *ctx);
void flush_group(struct ctx *c);
void store_reset(struct ctx *c);
void load_data(struct ctx *c);
void free_data(struct ctx *c);
int bot_match(const struct ctx *c, const char *what, const char *s);
int is_kernel_path(const struct ctx *c, const char *path);

/* mailmap.c: git's .mailmap */
struct mailmap *mailmap_load(const char *path);
/* The proper name and email for (name, email), borrowed; NULL when none. */
void mailmap_map(const struct mailmap *m, const char *name,
    const char *email, const char **pname, const char **pemail,
    int *by_name);
void mailmap_free(struct mailmap *m);

/* people.c: who is who */
enum nkind { N_LOGIN, N_EMAIL, N_GHID, N_HANDLE };
struct node {
	const char *key;	/* "github:alice", "email:a@b.org", ... */
	enum nkind kind;
	int parent;		/* union-find */
	int first;		/* first claim naming it (for its names) */
};
struct link {			/* why two nodes were merged (--explain) */
	int a, b;
	const char *rule, *via;
};
struct conflict {		/* an identity question left to a person */
	const char *id, *kind, *why;
	int *nodes;		/* the groups involved (any node of each) */
	size_t nnodes;
	const char **evs;	/* some of the evidence ids it touches */
	size_t nevs;
};
struct cand {
	int root;
	const char *id;
	int *claims;
	size_t n, cap;
};
struct people {
	struct map keys;	/* node key -> index */
	struct node *nodes;
	size_t n, cap;
	struct link *links;
	size_t nlinks, caplinks;
	struct cand *cands;
	size_t ncands;
	struct conflict *cf;
	size_t ncf;
	int *override;		/* per claim: a group root chosen by name, or -1 */
};
int node_of(struct ctx *c, enum nkind k, const char *val);
int find(struct people *p, int i);
void resolve(struct ctx *c);
void people_free(struct ctx *c);

/* verdict.c: what each record proves */
void judge(struct ctx *c);

/* output.c */
void output(struct ctx *c);
/* the key a claim groups by without the rest of the input, or NULL */
char *claim_key(const struct claim *cl);

#endif
