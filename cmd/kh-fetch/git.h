/*
 * git.h: the parts of kh-fetch git, shared by git*.c only. git.c reads the
 * options and checks the operands; git-log.c runs git log (and, for
 * --upstream, git rev-list) and turns its output into records.
 */
#ifndef GIT_H
#define GIT_H
#include "fetch.h"

/* A growable NULL-terminated vector of strings (argv for git). */
struct strv {
	char **v;
	size_t n, cap;
};

struct gopts {
	const char *repo;	/* --repo */
	struct strv revs, paths;
	char since[32], until[32];	/* "--since=@EPOCH" or "" */
	const char *upstream;
	int no_files, signals;
};

/* One GITDIR operand after the probe. */
struct clone {
	const char *dir;	/* the operand, borrowed */
	char *objects;		/* absolute path of its object directory */
	char *name;		/* "owner/name", or NULL */
	int github;		/* its commits have a page on github.com */
	char *head;		/* the commit HEAD names; NULL: no commits */
};

/*
 * The object names of the commits a fork has beyond its upstream: an
 * open-addressing table of 32-byte keys (SHA-1 zero-padded, or SHA-256).
 */
struct shaset {
	unsigned char (*k)[32];
	size_t n, cap;
};

/* git.c */
void git_strv_push(struct strv *s, const char *str);
void git_strv_free(struct strv *s);
/* argv for `git -C DIR --no-replace-objects`; the command comes next. */
void git_argv(struct strv *a, const char *dir);
/* --end-of-options, the --rev values (or HEAD), "--", the pathspecs. */
void git_push_revs(struct strv *a, const struct gopts *o, int paths);
KH_NORETURN void git_no_git(void);	/* "cannot run 'git'", exit 4 */
/* The next line of *s, cut in place; NULL at the end. */
char *git_next_line(char **s);

/* git-log.c */
/*
 * Fill set with the commits of c that upstream_head does not reach;
 * alt_env is the GIT_ALTERNATE_OBJECT_DIRECTORIES=... entry naming the
 * upstream's objects. 0, or -1 after a message (exit status 4 recorded).
 */
int git_fork_only(const struct clone *c, char *alt_env,
    const char *upstream_head, const struct gopts *o, struct shaset *set);
/* Write the records of c; fork: the fork-only set, NULL without --upstream. */
void git_walk(const struct clone *c, const struct shaset *fork,
    const struct gopts *o);

#endif
