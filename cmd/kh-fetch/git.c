/*
 * git.c: kh-fetch git, one evidence record per commit of local clones.
 *
 * git runs with a fixed argument vector (kh_spawn, never a shell). The
 * history comes from one `git log -z --numstat` per clone, parsed as it
 * streams: one commit is in memory at a time, whatever the history's size.
 *
 * The stream, per commit (-z makes every part NUL-terminated):
 *   \001 SHA \n PARENTS \n AN \n AE \n AT \n CN \n CE \n CT \n SUBJECT \n BODY \0
 *   then, if the commit changed files, "\n" and one entry per file:
 *   ADDED \t DELETED \t PATH \0   or, for a rename,   ADDED \t DELETED \t \0 OLD \0 NEW \0
 *   then, with -p (--signals), "\0" and the patch as text lines.
 * A numstat entry starts with a digit or "-", a patch line never with \001,
 * so the \001 that opens each commit cannot be mistaken for anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fetch.h"

#define TEXT_MAX 8192		/* the body kept in "text" */
#define HDR_MAX (1 << 20)	/* the message kept to read trailers from */
#define PATCH_LINE_MAX 65536	/* the part of a patch line the scanner sees */
#define FILES_MAX 10000		/* files listed per commit; totals count all */
#define CHUNK 65536

enum {
	OPT_REPO = KH_OPT_TOOL, OPT_REV, OPT_SINCE, OPT_UNTIL, OPT_UPSTREAM,
	OPT_NO_FILES, OPT_PATH, OPT_SIGNALS
};

static const char usage_text[] =
    "Usage: kh-fetch git [-hqVv] [--repo=OWNER/NAME] [--rev=REV]... "
    "[--since=DATE]\n"
    "                    [--until=DATE] [--upstream=GITDIR] "
    "[--path=PATHSPEC]...\n"
    "                    [--no-files] [--signals] [--unbuffered] GITDIR...\n"
    "\n"
    "Write one commit evidence record per commit of each local clone\n"
    "(a work tree, a bare repository or a mirror).\n"
    "\n"
    "      --repo=OWNER/NAME  the repository the records name (default: "
    "origin's)\n"
    "      --rev=REV          what to walk; repeat for several (default: "
    "HEAD)\n"
    "      --since=DATE       commits committed at or after DATE "
    "(YYYY-MM-DD,\n"
    "                         YYYY-MM-DDTHH:MM:SSZ or @EPOCH)\n"
    "      --until=DATE       commits committed at or before DATE\n"
    "      --upstream=GITDIR  upstream:true for commits its HEAD reaches,\n"
    "                         false for the rest\n"
    "      --path=PATHSPEC    commits touching PATHSPEC; repeat for several\n"
    "      --no-files         leave out the list of files (totals stay)\n"
    "      --signals          add the hardware signals of the added lines\n"
    "  -h, --help             this help\n"
    "  -V, --version          the version\n"
    "  -q, --quiet            mute warnings\n"
    "  -v, --verbose          counts at the end\n"
    "      --unbuffered       flush after every record\n";

/* A growable NULL-terminated vector of strings (argv for git). */
struct strv {
	char **v;
	size_t n, cap;
};

static void
strv_push(struct strv *s, const char *str)
{
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = kh_realloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = kh_strdup(str);
	s->v[s->n] = NULL;
}

static void
strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

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
	int has_head;		/* HEAD names a commit */
};

/*
 * The object names of the commits a fork has beyond its upstream: an
 * open-addressing table of 32-byte keys (SHA-1 zero-padded, or SHA-256).
 */
struct shaset {
	unsigned char (*k)[32];
	size_t n, cap;
};

static int
sha_key(const char *hex, size_t len, unsigned char key[32])
{
	memset(key, 0, 32);
	if (len != 40 && len != 64)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int c = hex[i], v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else
			return -1;
		key[i / 2] |= (unsigned char)(i % 2 ? v : v << 4);
	}
	return 0;
}

static size_t
sha_slot(const struct shaset *s, const unsigned char key[32])
{
	uint64_t h;
	size_t i;

	memcpy(&h, key, sizeof h);	/* object names are already uniform */
	for (i = (size_t)h & (s->cap - 1); ; i = (i + 1) & (s->cap - 1)) {
		static const unsigned char zero[32];

		if (memcmp(s->k[i], key, 32) == 0 || memcmp(s->k[i], zero, 32) == 0)
			return i;
	}
}

static void
shaset_add(struct shaset *s, const unsigned char key[32])
{
	if (2 * (s->n + 1) > s->cap) {
		struct shaset t = { NULL, 0, s->cap ? 2 * s->cap : 1024 };

		t.k = kh_calloc(t.cap, 32);
		for (size_t i = 0; i < s->cap; i++) {
			static const unsigned char zero[32];

			if (memcmp(s->k[i], zero, 32) != 0)
				memcpy(t.k[sha_slot(&t, s->k[i])], s->k[i], 32);
		}
		t.n = s->n;
		free(s->k);
		*s = t;
	}
	size_t i = sha_slot(s, key);
	if (memcmp(s->k[i], key, 32) != 0) {
		memcpy(s->k[i], key, 32);
		s->n++;
	}
}

static int
shaset_has(const struct shaset *s, const unsigned char key[32])
{
	return s->cap && memcmp(s->k[sha_slot(s, key)], key, 32) == 0;
}

/* A buffered reader over git's stdout that cuts tokens at a delimiter. */
struct rd {
	int fd;
	char *buf;
	size_t start, end;
	int eof;
};

/* 1: bytes are buffered; 0: end of output; -1: read error (errno). */
static int
rd_fill(struct rd *r)
{
	ssize_t n;

	if (r->start < r->end)
		return 1;
	if (r->eof)
		return 0;
	while ((n = read(r->fd, r->buf, CHUNK)) < 0)
		if (errno != EINTR)
			return -1;
	r->start = 0;
	r->end = (size_t)n;
	if (n == 0)
		r->eof = 1;
	return n > 0;
}

/* The next byte without taking it, -1 at the end (or on an error). */
static int
rd_peek(struct rd *r)
{
	return rd_fill(r) == 1 ? (unsigned char)r->buf[r->start] : -1;
}

/*
 * Read up to the next delim (taken, not stored) into b, keeping at most
 * max bytes (the rest is read and dropped). 1: a token; 0: the output
 * ended before any byte; -1: read error.
 */
static int
rd_token(struct rd *r, int delim, struct kh_buf *b, size_t max)
{
	int got = 0, rc;

	kh_buf_reset(b);
	kh_buf_add(b, "", 0);	/* b->p is a string even when empty */
	while ((rc = rd_fill(r)) == 1) {
		char *s = r->buf + r->start, *e;
		size_t avail = r->end - r->start, take;

		got = 1;
		e = memchr(s, delim, avail);
		take = e ? (size_t)(e - s) : avail;
		if (b->len < max)
			kh_buf_add(b, s, take < max - b->len ? take : max - b->len);
		r->start += take + (e != NULL);
		if (e)
			return 1;
	}
	return rc < 0 ? -1 : got;
}

/*
 * Run git and collect its output: stdout into out, stderr into err (both
 * capped). Used for the short probes, where git's own complaint becomes the
 * reason of our message. Returns git's exit status; -1 (errno set) when git
 * cannot be started.
 */
static int
git_capture(char **argv, char **env, struct kh_buf *out, struct kh_buf *err)
{
	struct kh_child c;
	struct pollfd pf[2];
	int ep[2], saved, rc, open_ = 2;

	if (pipe(ep) < 0)
		return -1;
	fcntl(ep[0], F_SETFD, FD_CLOEXEC);
	/* kh_spawn passes our stderr on: lend it the pipe for this child. */
	fflush(stderr);
	saved = dup(2);
	dup2(ep[1], 2);
	close(ep[1]);
	rc = kh_spawn(argv, env, &c);
	dup2(saved, 2);
	close(saved);
	if (rc < 0) {
		int e = errno;

		close(ep[0]);
		errno = e;
		return -1;
	}
	kh_buf_reset(out);
	kh_buf_reset(err);
	kh_buf_add(out, "", 0);
	kh_buf_add(err, "", 0);
	pf[0].fd = c.out;
	pf[1].fd = ep[0];
	pf[0].events = pf[1].events = POLLIN;
	while (open_ > 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			char tmp[4096];
			ssize_t n;

			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			n = read(pf[i].fd, tmp, sizeof tmp);
			if (n <= 0) {
				if (n < 0 && errno == EINTR)
					continue;
				pf[i].fd = -1;
				open_--;
				continue;
			}
			kh_buf_add(i ? err : out, tmp, (size_t)n);	/* capped */
		}
	}
	close(ep[0]);
	return kh_wait(&c);	/* closes c.out */
}

/* The first line of git's stderr without "fatal: ", for a message. */
static const char *
git_reason(struct kh_buf *err)
{
	char *s = err->p ? err->p : (char *)"";
	char *nl = strchr(s, '\n');

	if (nl)
		*nl = '\0';
	if (strncmp(s, "fatal: ", 7) == 0 || strncmp(s, "error: ", 7) == 0)
		s += 7;
	return *s ? s : "git failed";
}

/* argv for `git -C DIR --no-replace-objects ARGS...` */
static void
git_argv(struct strv *a, const char *dir)
{
	strv_push(a, "git");
	strv_push(a, "-C");
	strv_push(a, dir);
	/* the evidence is the objects as they are, not a local replacement */
	strv_push(a, "--no-replace-objects");
}

KH_NORETURN static void
no_git(void)
{
	kh_die(KH_SYS, "cannot run 'git': %s", strerror(errno));
}

/* Next line of s (in place), NULL at the end. */
static char *
next_line(char **s)
{
	char *line = *s, *nl;

	if (line == NULL)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*s = nl + 1;
	} else
		*s = NULL;
	return line;
}

static int
ok_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

/* "owner/name": exactly two non-empty parts of GitHub's characters. */
static int
valid_repo(const char *s, size_t n)
{
	size_t slash = 0, nslash = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '/') {
			slash = i;
			nslash++;
		} else if (!ok_name_char((unsigned char)s[i]))
			return 0;
	}
	return nslash == 1 && slash > 0 && slash + 1 < n &&
	    strcmp(s + slash + 1, ".") != 0 && strcmp(s + slash + 1, "..") != 0;
}

/*
 * "owner/name" of a remote URL, or NULL for a local path or a path that is
 * not two parts. *github tells whether the host is GitHub; *remote whether
 * the URL names a host at all.
 */
static char *
repo_of_url(const char *url, int *github, int *remote)
{
	const char *host, *hend, *path, *p;
	size_t n;
	char *hostz, *name;

	*github = *remote = 0;
	if ((p = strstr(url, "://")) != NULL) {
		if (strncasecmp(url, "file://", 7) == 0)
			return NULL;
		host = p + 3;
		path = strchr(host, '/');
		if (path == NULL)
			return NULL;
		/* user[:password]@ is skipped: never copied anywhere */
		for (p = host; p < path; p++)
			if (*p == '@')
				host = p + 1;
		for (hend = host; hend < path && *hend != ':'; hend++)
			;
	} else {
		/* scp-like "[user@]host:path": a ":" before any "/" */
		const char *colon = strchr(url, ':'), *slash = strchr(url, '/');

		if (colon == NULL || (slash && slash < colon) || colon == url)
			return NULL;
		host = url;
		for (p = url; p < colon; p++)
			if (*p == '@')
				host = p + 1;
		hend = colon;
		path = colon + 1;
	}
	*remote = 1;
	hostz = kh_strndup(host, (size_t)(hend - host));
	*github = strcasecmp(hostz, "github.com") == 0 ||
	    strcasecmp(hostz, "www.github.com") == 0 ||
	    strcasecmp(hostz, "ssh.github.com") == 0;
	free(hostz);
	while (*path == '/')
		path++;
	n = strlen(path);
	while (n > 0 && path[n - 1] == '/')
		n--;
	if (n > 4 && strncmp(path + n - 4, ".git", 4) == 0)
		n -= 4;
	name = kh_strndup(path, n);
	if (!valid_repo(name, n)) {
		free(name);
		return NULL;
	}
	return name;
}

/* Same file? (The operand against the git directory git found.) */
static int
same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Check that dir is a clone: its work tree's top, or its git directory
 * (bare, mirror). git would also accept a directory inside one, and search
 * upwards from a directory that is none: both are refused here, since the
 * operand names a clone. Exits 2 on a bad operand, 4 without git.
 */
static void
probe(struct clone *c, const char *dir, const struct gopts *o)
{
	struct strv a = { 0 };
	struct kh_buf out = { 0 }, err = { 0 };
	struct stat st;
	char *s, *inside, *cdup, *gitdir, *objects, *url;
	int rc;

	memset(c, 0, sizeof *c);
	c->dir = dir;
	if (stat(dir, &st) < 0)
		kh_die(KH_USAGE, "cannot open '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		kh_die(KH_USAGE, "not a git repository '%s'", dir);
	git_argv(&a, dir);
	strv_push(&a, "rev-parse");
	strv_push(&a, "--is-inside-work-tree");
	strv_push(&a, "--absolute-git-dir");
	strv_push(&a, "--path-format=absolute");
	strv_push(&a, "--git-path");
	strv_push(&a, "objects");
	strv_push(&a, "--show-cdup");	/* last: says nothing outside a work tree */
	rc = git_capture(a.v, NULL, &out, &err);
	if (rc < 0)
		no_git();
	if (rc != 0) {
		const char *why = git_reason(&err);

		if (strncmp(why, "not a git repository", 20) == 0)
			kh_die(KH_USAGE, "not a git repository '%s'", dir);
		kh_die(KH_USAGE, "cannot use repository '%s': %s", dir, why);
	}
	s = out.p;
	inside = next_line(&s);
	gitdir = next_line(&s);
	objects = next_line(&s);
	cdup = next_line(&s);
	if (objects == NULL || *objects != '/')
		kh_die(KH_SYS, "unexpected output from git rev-parse in '%s'",
		    dir);
	if (strcmp(inside, "true") == 0 ? cdup && *cdup != '\0' :
	    !same_dir(dir, gitdir))
		kh_die(KH_USAGE, "not a git repository '%s': it is inside "
		    "one, give the top of the clone", dir);
	c->objects = kh_strdup(objects);
	strv_free(&a);

	/* Does HEAD name a commit? An empty clone has none: nothing to do. */
	git_argv(&a, dir);
	strv_push(&a, "rev-parse");
	strv_push(&a, "--verify");
	strv_push(&a, "--quiet");
	strv_push(&a, "HEAD^{commit}");
	rc = git_capture(a.v, NULL, &out, &err);
	if (rc < 0)
		no_git();
	c->has_head = rc == 0;
	strv_free(&a);

	git_argv(&a, dir);
	strv_push(&a, "config");
	strv_push(&a, "--get");
	strv_push(&a, "remote.origin.url");
	rc = git_capture(a.v, NULL, &out, &err);
	if (rc < 0)
		no_git();
	url = rc == 0 && out.p ? next_line(&(char *){ out.p }) : NULL;
	if (url && *url) {
		int remote;

		c->name = repo_of_url(url, &c->github, &remote);
		if (o->repo) {
			/* --repo names a GitHub repository; an origin on
			 * another host says the commits are not there */
			free(c->name);
			c->name = kh_strdup(o->repo);
			c->github = c->github || !remote;
		}
	} else if (o->repo) {
		c->name = kh_strdup(o->repo);
		c->github = 1;
	}
	strv_free(&a);
	kh_buf_free(&out);
	kh_buf_free(&err);
}

/* The commit the upstream's HEAD names (its default branch). */
static char *
upstream_head(const char *dir)
{
	struct strv a = { 0 };
	struct kh_buf out = { 0 }, err = { 0 };
	char *sha;
	int rc;

	git_argv(&a, dir);
	strv_push(&a, "rev-parse");
	strv_push(&a, "--verify");
	strv_push(&a, "--quiet");
	strv_push(&a, "HEAD^{commit}");
	rc = git_capture(a.v, NULL, &out, &err);
	if (rc < 0)
		no_git();
	sha = rc == 0 ? next_line(&(char *){ out.p }) : NULL;
	if (sha == NULL || (strlen(sha) != 40 && strlen(sha) != 64))
		kh_die(KH_USAGE, "upstream has no commits '%s'", dir);
	sha = kh_strdup(sha);
	strv_free(&a);
	kh_buf_free(&out);
	kh_buf_free(&err);
	return sha;
}

/*
 * GIT_ALTERNATE_OBJECT_DIRECTORIES=PATH, C-quoted when PATH holds the ":"
 * that separates entries or starts with a quote (git unquotes such entries).
 */
static char *
alternate_env(const char *path)
{
	struct kh_buf b = { 0 };

	kh_buf_adds(&b, "GIT_ALTERNATE_OBJECT_DIRECTORIES=");
	if (strchr(path, ':') == NULL && path[0] != '"') {
		kh_buf_adds(&b, path);
		return kh_buf_detach(&b);
	}
	kh_buf_addc(&b, '"');
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '"' || *p == '\\')
			kh_buf_addf(&b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			kh_buf_addf(&b, "\\%03o", *p);
		else
			kh_buf_addc(&b, *p);
	}
	kh_buf_addc(&b, '"');
	return kh_buf_detach(&b);
}

/* --rev values (or HEAD) and the pathspecs, after the options. */
static void
push_revs(struct strv *a, const struct gopts *o, int paths)
{
	strv_push(a, "--end-of-options");
	if (o->revs.n == 0)
		strv_push(a, "HEAD");
	for (size_t i = 0; i < o->revs.n; i++)
		strv_push(a, o->revs.v[i]);
	strv_push(a, "--");
	for (size_t i = 0; paths && i < o->paths.n; i++)
		strv_push(a, o->paths.v[i]);
}

/*
 * The commits of c that the upstream's HEAD does not reach: rev-list in
 * the fork with the upstream's objects as an alternate, so the fork need
 * not hold the upstream's newest commits, and nothing is written to either.
 * Returns 0, or -1 after a message.
 */
static int
fork_only(const struct clone *c, const struct clone *up, const char *head,
    const struct gopts *o, struct shaset *set)
{
	struct strv a = { 0 };
	struct kh_child ch;
	struct rd r = { 0 };
	struct kh_buf line = { 0 };
	char *env[2] = { alternate_env(up->objects), NULL };
	char *neg = kh_asprintf("^%s", head);
	int rc, st, bad = 0;

	git_argv(&a, c->dir);
	strv_push(&a, "rev-list");
	strv_push(&a, neg);
	push_revs(&a, o, 0);
	if (kh_spawn(a.v, env, &ch) < 0)
		no_git();
	r.fd = ch.out;
	r.buf = kh_malloc(CHUNK);
	while ((rc = rd_token(&r, '\n', &line, 128)) == 1) {
		unsigned char key[32];

		if (sha_key(line.p, line.len, key) < 0) {
			bad = 1;
			break;
		}
		shaset_add(set, key);
	}
	st = kh_wait(&ch);
	if (rc < 0 || bad || st != 0) {
		if (rc < 0)
			kh_err("cannot read from git rev-list in '%s': %s",
			    c->dir, strerror(errno));
		else if (bad)
			kh_err("unexpected output from git rev-list in '%s'",
			    c->dir);
		else
			kh_err("git rev-list failed in '%s': exit status %d",
			    c->dir, st);
		kh_fail(KH_SYS);
		rc = -1;
	} else
		rc = 0;
	free(r.buf);
	kh_buf_free(&line);
	free(neg);
	free(env[0]);
	strv_free(&a);
	return rc;
}

/* The GitHub login of a noreply address (kh_noreply), or NULL. */
static char *
noreply_login(const char *email)
{
	char *norm = kh_email_norm(email), *login = NULL;

	if (norm)
		kh_noreply(norm, &login, NULL);
	free(norm);
	return login;
}

/* {"name","email","login"?}; login first when for "person". */
static cJSON *
ident(const char *name, const char *email, int person)
{
	cJSON *o = cJSON_CreateObject();
	char *login = email ? noreply_login(email) : NULL;

	if (person && login)
		kh_add_str(o, "login", login);
	kh_add_str(o, "name", name);
	if (email)
		kh_add_str(o, "email", email);
	if (!person && login)
		kh_add_str(o, "login", login);
	free(login);
	return o;
}

/* A decimal run of 1..9 digits at s of exactly n bytes: the number, or 0. */
static long
pr_num(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 9)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "Merge pull request #45 from a/b", or a squash-merge "Fix x (#123)". */
static long
pr_of_subject(const char *s)
{
	static const char merge[] = "Merge pull request #";
	size_t n = strlen(s);
	const char *p;

	if (strncmp(s, merge, sizeof merge - 1) == 0) {
		const char *d = s + sizeof merge - 1;

		for (p = d; *p >= '0' && *p <= '9'; p++)
			;
		if (strncmp(p, " from ", 6) == 0)
			return pr_num(d, (size_t)(p - d));
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n < 4 || s[n - 1] != ')')
		return 0;
	for (p = s + n - 2; p > s && *p >= '0' && *p <= '9'; p--)
		;
	if (p - s < 1 || *p != '#' || p[-1] != '(')
		return 0;
	return pr_num(p + 1, (size_t)(s + n - 1 - (p + 1)));
}

static int
blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/*
 * Co-authored-by trailers: the lines of the body's last paragraph, as git
 * interpret-trailers and GitHub read them. Each is "Name <email>".
 */
static cJSON *
coauthors(const char *body, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t start = 0, i;

	/* the last paragraph begins after the last blank line before text */
	while (n > 0 && (body[n - 1] == '\n' || body[n - 1] == ' ' ||
	    body[n - 1] == '\t' || body[n - 1] == '\r'))
		n--;
	for (i = 0; i < n; ) {
		const char *e = memchr(body + i, '\n', n - i);
		size_t len = e ? (size_t)(e - (body + i)) : n - i;

		if (blank_line(body + i, len))
			start = i + len + 1;
		i += len + 1;
	}
	for (i = start; i < n; ) {
		const char *l = body + i, *e = memchr(l, '\n', n - i);
		size_t len = e ? (size_t)(e - l) : n - i;
		const char *lt, *gt, *v, *ve;

		i += len + 1;
		if (len < 15 || strncasecmp(l, "co-authored-by:", 15) != 0)
			continue;
		lt = memchr(l, '<', len);
		gt = lt ? memchr(lt, '>', len - (size_t)(lt - l)) : NULL;
		if (lt == NULL || gt == NULL || gt == lt + 1)
			continue;	/* no address: not a co-author GitHub knows */
		for (v = l + 15; v < lt && (*v == ' ' || *v == '\t'); v++)
			;
		for (ve = lt; ve > v && (ve[-1] == ' ' || ve[-1] == '\t'); ve--)
			;
		char *name = kh_strndup(v, (size_t)(ve - v));
		char *email = kh_strndup(lt + 1, (size_t)(gt - lt - 1));
		cJSON_AddItemToArray(arr, ident(name, email, 0));
		free(name);
		free(email);
	}
	return arr;
}

/* The body up to TEXT_MAX bytes, cut at a UTF-8 character boundary. */
static size_t
text_len(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' ||
	    s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n <= TEXT_MAX)
		return n;
	n = TEXT_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

static void
add_time(cJSON *o, const char *key, const char *secs)
{
	char *end, iso[21];
	long long t = strtoll(secs, &end, 10);

	/* years 1970..9999: what the ISO-8601 form can hold */
	if (*secs == '\0' || *end != '\0' || t < 0 || t > 253402300799LL) {
		kh_add_null(o, key);
		return;
	}
	kh_iso8601((time_t)t, iso);
	kh_add_str(o, key, iso);
}

/* A numstat count: digits, or "-" for a binary file (-1). */
static long long
count_of(const char *s, size_t n, int *ok)
{
	long long v = 0;

	*ok = n > 0;
	if (n == 1 && s[0] == '-')
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > 1000000000000LL) {
			*ok = 0;
			return 0;
		}
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* What one log run shares between commits. */
struct walk {
	const struct gopts *o;
	const struct clone *c;
	const struct shaset *fork;	/* NULL without --upstream */
	struct rd r;
	struct kh_buf hdr, tok, tok2;
	struct strv paths;	/* this commit's files, for the scanner */
};

/*
 * The numstat entries after a header, then (with -p) the patch. Adds the
 * files and totals to rec. 0, or -1 when git's output makes no sense.
 */
static int
read_files(struct walk *w, cJSON *rec)
{
	cJSON *files = w->o->no_files ? NULL : cJSON_CreateArray();
	long long added = 0, deleted = 0;
	size_t nfiles = 0;
	int c, rc = 0;

	strv_free(&w->paths);	/* the last commit's */
	if (rd_peek(&w->r) == '\n') {
		w->r.start++;
		while ((c = rd_peek(&w->r)) != -1 && c != '\001' && c != '\0') {
			char *t, *t1, *t2, *path;
			long long a, d;
			int ok1, ok2;

			if (rd_token(&w->r, '\0', &w->tok, (size_t)1 << 20) != 1)
				return -1;
			t = w->tok.p;
			t1 = memchr(t, '\t', w->tok.len);
			t2 = t1 ? memchr(t1 + 1, '\t',
			    w->tok.len - (size_t)(t1 + 1 - t)) : NULL;
			if (t2 == NULL)
				return -1;
			a = count_of(t, (size_t)(t1 - t), &ok1);
			d = count_of(t1 + 1, (size_t)(t2 - t1 - 1), &ok2);
			if (!ok1 || !ok2)
				return -1;
			path = t2 + 1;
			if (*path == '\0') {
				/* a rename: the old path, then the new one */
				if (rd_token(&w->r, '\0', &w->tok2, (size_t)1 << 20)
				    != 1 || rd_token(&w->r, '\0', &w->tok2,
				    (size_t)1 << 20) != 1)
					return -1;
				path = w->tok2.p;
			}
			if (a > 0)
				added += a;
			if (d > 0)
				deleted += d;
			if (w->o->signals)
				strv_push(&w->paths, path);
			if (files && nfiles++ < FILES_MAX) {
				cJSON *f = cJSON_CreateObject();

				kh_add_str(f, "path", path);
				if (a < 0)
					kh_add_null(f, "added");
				else
					kh_add_int(f, "added", a);
				if (d < 0)
					kh_add_null(f, "deleted");
				else
					kh_add_int(f, "deleted", d);
				cJSON_AddItemToArray(files, f);
			}
		}
	}
	if (files)
		cJSON_AddItemToObject(rec, "files", files);
	kh_add_int(rec, "added", added);
	kh_add_int(rec, "deleted", deleted);
	if (rd_peek(&w->r) == '\0') {
		/* -p: the patch follows, text lines up to the next commit */
		struct kh_signals *sig = kh_signals_new();
		size_t fileno = 0;
		int hunk = 0;
		cJSON *found;

		w->r.start++;
		while ((c = rd_peek(&w->r)) != -1 && c != '\001') {
			if (rd_token(&w->r, '\n', &w->tok, PATCH_LINE_MAX) != 1) {
				rc = -1;
				break;
			}
			if (strncmp(w->tok.p, "diff --git ", 11) == 0) {
				kh_signals_file(sig, fileno < w->paths.n ?
				    w->paths.v[fileno] : "");
				fileno++;
				hunk = 0;
			} else if (strncmp(w->tok.p, "@@", 2) == 0)
				hunk = 1;
			else if (hunk && w->tok.p[0] == '+')
				kh_signals_line(sig, w->tok.p + 1, w->tok.len - 1);
		}
		if ((found = kh_signals_json(sig)) != NULL)
			cJSON_AddItemToObject(rec, "signals", found);
		kh_signals_free(sig);
	}
	return rc;
}

/*
 * One commit from the header already in w->hdr: build the record and read
 * its files into *out. 0, or -1 when git's output makes no sense.
 */
static int
commit(struct walk *w, cJSON **out)
{
	char *s = w->hdr.p + 1, *sha, *parents, *an, *ae, *at, *cn, *ce, *ct,
	    *subject, *body, *id, *url = NULL;
	unsigned char key[32];
	cJSON *rec;
	size_t blen;
	long pr;
	int rc;

	sha = next_line(&s);
	parents = next_line(&s);
	an = next_line(&s);
	ae = next_line(&s);
	at = next_line(&s);
	cn = next_line(&s);
	ce = next_line(&s);
	ct = next_line(&s);
	subject = next_line(&s);
	body = s ? s : (char *)"";
	if (subject == NULL || sha_key(sha, strlen(sha), key) < 0)
		return -1;
	blen = strlen(body);
	kh_count_in();

	rec = cJSON_CreateObject();
	kh_add_str(rec, "type", "evidence");
	id = kh_asprintf("git:commit:%s", sha);
	kh_add_str(rec, "id", id);
	free(id);
	kh_add_str(rec, "kind", "commit");
	kh_add_str(rec, "source", "git");
	cJSON_AddItemToObject(rec, "person", ident(an, ae, 1));
	if (w->c->name && w->c->github)
		url = kh_asprintf("https://github.com/%s/commit/%s",
		    w->c->name, sha);
	kh_add_str(rec, "url", url);
	free(url);
	add_time(rec, "at", at);
	kh_add_str(rec, "repo", w->c->name);
	if (w->fork)
		kh_add_bool(rec, "upstream", !shaset_has(w->fork, key));
	else
		kh_add_null(rec, "upstream");
	kh_add_str(rec, "sha", sha);
	cJSON_AddItemToObject(rec, "author", ident(an, ae, 0));
	cJSON_AddItemToObject(rec, "committer", ident(cn, ce, 0));
	add_time(rec, "committed_at", ct);
	kh_add_str(rec, "title", subject);
	kh_add_strn(rec, "text", body, text_len(body, blen));
	pr = pr_of_subject(subject);
	if (pr)
		kh_add_int(rec, "pr", pr);
	else
		kh_add_null(rec, "pr");
	kh_add_bool(rec, "merge", strchr(parents, ' ') != NULL);
	cJSON_AddItemToObject(rec, "coauthors", coauthors(body, blen));
	if ((rc = read_files(w, rec)) == 0)
		*out = rec;
	else
		cJSON_Delete(rec);
	return rc;
}

/* The log of one clone, record by record. */
static void
walk(const struct clone *c, const struct shaset *fork, const struct gopts *o)
{
	struct strv a = { 0 };
	struct kh_child ch;
	struct walk w = { 0 };
	cJSON *rec, *pending = NULL;
	int rc, st, bad = 0;

	git_argv(&a, c->dir);
	strv_push(&a, "-c");
	strv_push(&a, "log.showSignature=false");
	strv_push(&a, "-c");
	strv_push(&a, "log.showRoot=true");
	strv_push(&a, "log");
	strv_push(&a, "-z");
	strv_push(&a, "--no-color");
	strv_push(&a, "--no-mailmap");	/* the names as recorded */
	strv_push(&a, "--encoding=UTF-8");
	strv_push(&a, "--format=%x01%H%n%P%n%an%n%ae%n%at%n%cn%n%ce%n%ct%n"
	    "%s%n%b");
	strv_push(&a, "--numstat");
	strv_push(&a, "-M");
	strv_push(&a, "--no-ext-diff");
	strv_push(&a, "--no-textconv");
	if (o->signals)
		strv_push(&a, "-p");
	if (*o->since)
		strv_push(&a, o->since);
	if (*o->until)
		strv_push(&a, o->until);
	push_revs(&a, o, 1);
	if (kh_spawn(a.v, NULL, &ch) < 0)
		no_git();
	w.o = o;
	w.c = c;
	w.fork = fork;
	w.r.fd = ch.out;
	w.r.buf = kh_malloc(CHUNK);
	/*
	 * A record is written once the next commit begins, or git has ended
	 * well: a git that dies within a commit's files must not leave a
	 * record that looks whole but is not.
	 */
	while ((rc = rd_token(&w.r, '\0', &w.hdr, HDR_MAX)) == 1) {
		if (pending) {
			kh_emit(pending);
			cJSON_Delete(pending);
			pending = NULL;
		}
		if (w.hdr.p[0] != '\001' || commit(&w, &rec) < 0) {
			bad = 1;
			break;
		}
		pending = rec;
	}
	st = kh_wait(&ch);	/* closes the pipe first: git stops at once */
	if (pending && rc == 0 && !bad && st == 0)
		kh_emit(pending);
	cJSON_Delete(pending);
	if (rc < 0) {
		kh_err("cannot read from git log in '%s': %s", c->dir,
		    strerror(errno));
		kh_fail(KH_SYS);
	} else if (bad) {
		kh_err("unexpected output from git log in '%s'", c->dir);
		kh_fail(KH_SYS);
	} else if (st != 0) {
		kh_err("git log failed in '%s': exit status %d", c->dir, st);
		kh_fail(KH_SYS);
	}
	free(w.r.buf);
	kh_buf_free(&w.hdr);
	kh_buf_free(&w.tok);
	kh_buf_free(&w.tok2);
	strv_free(&w.paths);
	strv_free(&a);
}

/* --since/--until: a date kh understands, handed to git as @EPOCH. */
static void
date_opt(char out[32], const char *flag, const char *arg)
{
	time_t t;

	if (kh_parse_time(arg, &t) < 0)
		kh_usage("option '%s' wants a date (YYYY-MM-DD, "
		    "YYYY-MM-DDTHH:MM:SSZ or @EPOCH), not '%s'", flag, arg);
	snprintf(out, 32, "%s=@%lld", flag, (long long)t);
}

int
fetch_git(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "rev", required_argument, NULL, OPT_REV },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "upstream", required_argument, NULL, OPT_UPSTREAM },
		{ "no-files", no_argument, NULL, OPT_NO_FILES },
		{ "path", required_argument, NULL, OPT_PATH },
		{ "signals", no_argument, NULL, OPT_SIGNALS },
		{ NULL, 0, NULL, 0 }
	};
	/* The repository git would find from the environment is not ours. */
	static const char *const git_env[] = {
		"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_INDEX_FILE", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES",
		"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_REPLACE_REF_BASE"
	};
	struct gopts o = { 0 };
	struct clone *clones, up;
	char *head = NULL;
	int c, n;

	kh_usage_text = usage_text;
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS, longopts, NULL))
	    != -1) {
		switch (c) {
		case OPT_REPO:
			if (!valid_repo(optarg, strlen(optarg)))
				kh_usage("option '--repo' wants OWNER/NAME, "
				    "not '%s'", optarg);
			o.repo = optarg;
			break;
		case OPT_REV:
			if (*optarg == '\0')
				kh_usage("option '--rev' wants a revision");
			strv_push(&o.revs, optarg);
			break;
		case OPT_SINCE:
			date_opt(o.since, "--since", optarg);
			break;
		case OPT_UNTIL:
			date_opt(o.until, "--until", optarg);
			break;
		case OPT_UPSTREAM:
			o.upstream = optarg;
			break;
		case OPT_NO_FILES:
			o.no_files = 1;
			break;
		case OPT_PATH:
			if (*optarg == '\0')
				kh_usage("option '--path' wants a pathspec");
			strv_push(&o.paths, optarg);
			break;
		case OPT_SIGNALS:
			o.signals = 1;
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		kh_usage("which repository? give a GITDIR");
	for (size_t i = 0; i < sizeof git_env / sizeof *git_env; i++)
		unsetenv(git_env[i]);

	/* Every operand is checked before the first record is written. */
	n = argc;
	clones = kh_calloc((size_t)n, sizeof *clones);
	for (int i = 0; i < n; i++)
		probe(&clones[i], argv[i], &o);
	if (o.upstream) {
		probe(&up, o.upstream, &o);
		head = upstream_head(o.upstream);
	}
	for (int i = 0; i < n; i++) {
		struct shaset fork = { 0 };

		if (!clones[i].has_head && o.revs.n == 0) {
			kh_warn("no commits in '%s'", clones[i].dir);
			continue;
		}
		if (o.upstream && fork_only(&clones[i], &up, head, &o, &fork) < 0)
			continue;
		walk(&clones[i], o.upstream ? &fork : NULL, &o);
		free(fork.k);
	}
	for (int i = 0; i < n; i++) {
		free(clones[i].objects);
		free(clones[i].name);
	}
	free(clones);
	if (o.upstream) {
		free(up.objects);
		free(up.name);
		free(head);
	}
	strv_free(&o.revs);
	strv_free(&o.paths);
	return kh_finish();
}
