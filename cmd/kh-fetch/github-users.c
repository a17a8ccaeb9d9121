/*
 * github-users.c: kh-fetch github user (profiles) and repos (a user's
 * repositories, forks with the repository they fork). With LOGIN operands
 * they fetch those; without, they are filters: every record on stdin
 * passes through, followed by what was fetched for each login it names
 * (person.login, or a candidate's logins) the first time one appears.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "github.h"

/* Lower-cased with a prefix: logins are case-insensitive. */
static int
first_time(struct gh *g, const char *what, const char *login)
{
	char *k = kh_asprintf("%s:%s", what, login);
	int fresh;

	for (char *p = k; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	fresh = gh_set_add(&g->asked, k);
	free(k);
	return fresh;
}

/* A string field, with GitHub's "" for unset made null. */
static void
add_opt(cJSON *o, const char *key, const cJSON *u, const char *field)
{
	const char *s = kh_get_str(u, field);

	kh_add_str(o, key, s && *s ? s : NULL);
}

static void
add_count(cJSON *o, const char *key, const cJSON *u, const char *field)
{
	long long v;

	if (kh_get_int(u, field, &v) == 0)
		kh_add_int(o, key, v);
	else
		kh_add_null(o, key);
}

/* ---- user ---- */

static cJSON *
profile_record(const cJSON *u)
{
	cJSON *rec = cJSON_CreateObject(), *p;
	const char *login = kh_get_str(u, "login");
	const cJSON *h = kh_get(u, "hireable");
	const char *updated = kh_get_str(u, "updated_at");
	char *id = kh_asprintf("github:profile:%s", login);

	kh_add_str(rec, "type", "evidence");
	kh_add_str(rec, "id", id);
	free(id);
	kh_add_str(rec, "kind", "profile");
	kh_add_str(rec, "source", "github");
	cJSON_AddItemToObject(rec, "person", gh_person(u));
	kh_add_str(rec, "url", kh_get_str(u, "html_url"));
	/* a profile is as of its last change */
	gh_add_time(rec, "at", updated ? updated :
	    kh_get_str(u, "created_at"));
	p = cJSON_AddObjectToObject(rec, "profile");
	kh_add_str(p, "login", login);
	add_opt(p, "name", u, "name");
	add_opt(p, "company", u, "company");
	add_opt(p, "location", u, "location");
	add_opt(p, "blog", u, "blog");
	add_opt(p, "bio", u, "bio");
	if (cJSON_IsBool(h))
		kh_add_bool(p, "hireable", cJSON_IsTrue(h));
	else
		kh_add_null(p, "hireable");
	add_opt(p, "email", u, "email");
	add_count(p, "followers", u, "followers");
	add_count(p, "public_repos", u, "public_repos");
	gh_add_time(p, "created_at", kh_get_str(u, "created_at"));
	add_opt(p, "twitter", u, "twitter_username");
	return rec;
}

static int
on_user(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	if (j == NULL)
		return 0;	/* reported (a 404 is an unknown login) */
	if (kh_get_str(j, "login") == NULL)
		return -1;
	kh_count_in();
	s->rec = profile_record(j);
	return 0;
}

static void
ask_user(struct gh *g, const char *login)
{
	struct gh_slot *s;
	char *url;

	if (!gh_valid_name(login)) {
		kh_note("'%s' is not a GitHub login: skipped", login);
		return;
	}
	if (!first_time(g, "user", login))
		return;
	s = gh_slot_new(g, NULL);
	url = gh_url(g, "/users/%s", login);
	gh_get(g, url, s, cJSON_Object, on_user, NULL);
	free(url);
}

/* ---- repos ---- */

static cJSON *
repo_record(const cJSON *j)
{
	cJSON *rec = cJSON_CreateObject();
	const char *name = kh_get_str(j, "full_name");
	int fork = cJSON_IsTrue(kh_get(j, "fork"));
	char *id = kh_asprintf("github:repo:%s", name);

	kh_add_str(rec, "type", "evidence");
	kh_add_str(rec, "id", id);
	free(id);
	kh_add_str(rec, "kind", "repo");
	kh_add_str(rec, "source", "github");
	cJSON_AddItemToObject(rec, "person", gh_person(kh_get(j, "owner")));
	kh_add_str(rec, "url", kh_get_str(j, "html_url"));
	gh_add_time(rec, "at", kh_get_str(j, "pushed_at"));
	kh_add_str(rec, "repo", name);
	kh_add_bool(rec, "upstream", !fork);
	kh_add_bool(rec, "fork", fork);
	kh_add_str(rec, "parent", kh_get_str(j, "parent.full_name"));
	add_count(rec, "stars", j, "stargazers_count");
	gh_add_time(rec, "pushed_at", kh_get_str(j, "pushed_at"));
	gh_add_time(rec, "created_at", kh_get_str(j, "created_at"));
	return rec;
}

/* The list items have fork but no parent: ask the repository. */
static int
on_parent(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	const char *parent;

	if (j == NULL)
		return 0;	/* reported; parent stays null */
	if (!cJSON_IsBool(kh_get(j, "fork")))
		return -1;
	parent = kh_get_str(j, "parent.full_name");
	if (parent)
		kh_set(s->rec, "parent", cJSON_CreateString(parent));
	return 0;
}

static int
on_repos_page(struct gh *g, struct gh_slot *s, const cJSON *j,
    const struct kh_resp *r, void *arg)
{
	struct gh_slot *end = arg, *at = s;
	const cJSON *item;

	if (j == NULL) {
		end->held = 0;
		return 0;
	}
	cJSON_ArrayForEach(item, j)
		if (kh_get_str(item, "full_name") == NULL)
			return -1;
	cJSON_ArrayForEach(item, j) {
		kh_count_in();
		at = gh_slot_after(g, at);
		at->rec = repo_record(item);
		if (cJSON_IsTrue(kh_get(item, "fork"))) {
			char *url = gh_url(g, "/repos/%s",
			    kh_get_str(item, "full_name"));

			gh_get(g, url, at, cJSON_Object, on_parent, NULL);
			free(url);
		}
	}
	if (r->next && gh_next_ok(g, r->next)) {
		struct gh_slot *p = gh_slot_new(g, end);

		gh_get(g, r->next, p, cJSON_Array, on_repos_page, end);
	} else
		end->held = 0;
	return 0;
}

static void
ask_repos(struct gh *g, const char *login)
{
	struct gh_slot *end, *p;
	char *url;

	if (!gh_valid_name(login)) {
		kh_note("'%s' is not a GitHub login: skipped", login);
		return;
	}
	if (!first_time(g, "repos", login))
		return;
	p = gh_slot_new(g, NULL);
	end = gh_slot_new(g, NULL);
	end->held = 1;	/* until the last page is in */
	url = gh_url(g, "/users/%s/repos?type=owner&sort=full_name&"
	    "per_page=100", login);
	gh_get(g, url, p, cJSON_Array, on_repos_page, end);
	free(url);
}

/* ---- the two as commands ---- */

struct filter {
	struct gh *g;
	void (*ask)(struct gh *, const char *);
};

static int
filter_one(cJSON *rec, const struct kh_pos *pos, void *arg)
{
	struct filter *f = arg;
	struct gh_slot *s = gh_slot_new(f->g, NULL);

	s->rec = cJSON_Duplicate(rec, 1);
	s->pass = 1;
	gh_logins(rec, f->ask, f->g);
	gh_pump(f->g);
	return 0;
}

static int
run(struct gh *g, int argc, char **argv, void (*ask)(struct gh *,
    const char *), const char *what)
{
	struct filter f = { g, ask };

	if (argc == 0) {
		kh_loop(0, argv, filter_one, &f);
		return 0;
	}
	for (int i = 0; i < argc; i++)
		if (!gh_valid_name(argv[i]))
			kh_usage("github %s: '%s' is not a GitHub login", what,
			    argv[i]);
	for (int i = 0; i < argc; i++) {
		ask(g, argv[i]);
		gh_pump(g);
	}
	return 0;
}

int
gh_user(struct gh *g, int argc, char **argv)
{
	return run(g, argc, argv, ask_user, "user");
}

int
gh_repos(struct gh *g, int argc, char **argv)
{
	return run(g, argc, argv, ask_repos, "repos");
}
