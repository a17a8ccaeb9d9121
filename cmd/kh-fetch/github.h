/*
 * github.h: the parts of kh-fetch github, shared by github*.c only.
 *
 * Answers arrive in any order (kh_http_run runs transfers in parallel), but
 * records leave in a fixed order: each future record owns a slot in one
 * ordered list, slots are filled as answers come, and the list is emitted
 * from its head while the head slot has nothing pending. So the output is
 * the same whatever --parallel is, and memory stays bounded by how far
 * ahead requests are queued (the window), not by the size of the run.
 */
#ifndef GITHUB_H
#define GITHUB_H
#include "fetch.h"

#define GH_TEXT_MAX 8192	/* the body kept in "text" */
#define GH_FILES_CAP 3000	/* GitHub lists at most this many files */

/* A set of strings (ids emitted, logins asked): open addressing. */
struct gh_set {
	char **k;
	size_t n, cap;
};
int gh_set_add(struct gh_set *s, const char *key);	/* 1 new, 0 had it */
void gh_set_free(struct gh_set *s);

struct gh;
struct gh_slot {
	struct gh_slot *prev, *next;
	cJSON *rec;		/* emitted when the slot leaves; may be NULL */
	int pending;		/* answers this slot still waits for */
	int held;		/* the producer may still add to it */
	int pass;		/* an input record passing through: no dedupe */
	/* called when the slot leaves the list (after rec is emitted) */
	void (*on_leave)(struct gh *g, struct gh_slot *s);
	void *arg;
};

struct gh {
	struct kh_http *http;
	char *api;		/* API base URL without a trailing slash */
	char *web_host;		/* host of the web pages of claims */
	int files, all, complete, parallel;
	int have_since;
	time_t since;
	const char *repos_file;
	size_t window;		/* slots allowed to wait in the list */
	struct gh_slot *head, *tail;
	size_t nslots;
	struct gh_set seen;	/* ids emitted this run */
	struct gh_set asked;	/* logins and repos already queued */
};

/* github.c: slots, requests, records */
struct gh_slot *gh_slot_new(struct gh *g, struct gh_slot *before);
struct gh_slot *gh_slot_after(struct gh *g, struct gh_slot *after);
void gh_flush(struct gh *g);
/* Let queued work run when the window is full (filters call it per line). */
void gh_pump(struct gh *g);
/*
 * Fetch url (absolute, or a path under the API) for slot s: s->pending is
 * raised until cb has run. cb gets the parsed answer (borrowed; NULL when
 * the fetch failed, already reported), and returns 0, or -1 when the JSON
 * is not what the endpoint gives (the URL is fetched again, then reported).
 * want: cJSON_Array or cJSON_Object, the type the answer must have.
 */
typedef int (*gh_cb)(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg);
void gh_get(struct gh *g, const char *url, struct gh_slot *s, int want,
    gh_cb cb, void *arg);
char *gh_url(struct gh *g, const char *fmt, ...) KH_PRINTF(2, 3);
/* 1 the first time a rel="next" URL is seen; a loop is said and stopped. */
int gh_next_ok(struct gh *g, const char *url);
char *gh_escape(const char *s);		/* percent-encode a query value */
int gh_valid_name(const char *s);	/* a login, or OWNER/NAME part */
int gh_valid_repo(const char *s);	/* OWNER/NAME */
void gh_add_time(cJSON *rec, const char *key, const char *iso);
void gh_add_text(cJSON *rec, const char *key, const char *s);
cJSON *gh_person(const cJSON *user);
cJSON *gh_pr_record(const cJSON *pr, const char *repo_hint);
void gh_pr_detail(cJSON *rec, const cJSON *pr);
cJSON *gh_ident(const cJSON *who);
/* Take the logins a record names ("person.login", or "logins"). */
void gh_logins(const cJSON *rec, void (*fn)(struct gh *, const char *),
    struct gh *g);

/* github-prs.c */
int gh_prs(struct gh *g, int argc, char **argv);
int gh_complete(struct gh *g, int argc, char **argv);
int gh_claims(struct gh *g, int argc, char **argv);
void gh_files(struct gh *g, struct gh_slot *s, const char *repo, long long n);
/* github-users.c */
int gh_user(struct gh *g, int argc, char **argv);
int gh_repos(struct gh *g, int argc, char **argv);
/* github-search.c */
int gh_search(struct gh *g, int argc, char **argv);

#endif
