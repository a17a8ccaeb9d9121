/*
 * git.c: kh-fetch git, one evidence record per commit of local clones.
 * This part reads the options and checks every operand before the first
 * record; git-log.c reads the history. git runs with a fixed argument
 * vector (kh_spawn), never through a shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git.h"

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

void
git_strv_push(struct strv *s, const char *str)
{
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = kh_realloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = kh_strdup(str);
	s->v[s->n] = NULL;
}

void
git_strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

/*
 * Run git and collect its output: stdout into out, stderr into err (both
 * capped). Used for the short probes, where git's own complaint becomes the
 * reason of our message. Returns git's exit status; -1 (errno set) when git
 * cannot be started.
 */
static int
git_capture(char **argv, struct kh_buf *out, struct kh_buf *err)
{
	/* git's complaints untranslated, so that they can be recognised */
	static char lc_all[] = "LC_ALL=C";
	char *env[] = { lc_all, NULL };
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
	out->max = 1 << 20;	/* a probe says a few lines; more is dropped */
	err->max = 1 << 16;
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
			kh_buf_add(i ? err : out, tmp, (size_t)n);
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

void
git_argv(struct strv *a, const char *dir)
{
	git_strv_push(a, "git");
	git_strv_push(a, "-C");
	git_strv_push(a, dir);
	/* the evidence is the objects as they are, not a local replacement */
	git_strv_push(a, "--no-replace-objects");
}

void
git_no_git(void)
{
	kh_die(KH_SYS, "cannot run 'git': %s", strerror(errno));
}

char *
git_next_line(char **s)
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
	git_strv_push(&a, "rev-parse");
	git_strv_push(&a, "--is-inside-work-tree");
	git_strv_push(&a, "--absolute-git-dir");
	git_strv_push(&a, "--path-format=absolute");
	git_strv_push(&a, "--git-path");
	git_strv_push(&a, "objects");
	/* last, as it prints nothing outside a work tree */
	git_strv_push(&a, "--show-cdup");
	rc = git_capture(a.v, &out, &err);
	if (rc < 0)
		git_no_git();
	if (rc != 0) {
		const char *why = git_reason(&err);

		if (strncmp(why, "not a git repository", 20) == 0)
			kh_die(KH_USAGE, "not a git repository '%s'", dir);
		kh_die(KH_USAGE, "cannot use repository '%s': %s", dir, why);
	}
	s = out.p;
	inside = git_next_line(&s);
	gitdir = git_next_line(&s);
	objects = git_next_line(&s);
	cdup = git_next_line(&s);
	if (objects == NULL || *objects != '/')
		kh_die(KH_SYS, "unexpected output from git rev-parse in '%s'",
		    dir);
	if (strcmp(inside, "true") == 0 ? cdup && *cdup != '\0' :
	    !same_dir(dir, gitdir))
		kh_die(KH_USAGE, "not a git repository '%s': it is inside "
		    "one, give the top of the clone", dir);
	c->objects = kh_strdup(objects);
	git_strv_free(&a);

	/* Does HEAD name a commit? An empty clone has none: nothing to do. */
	git_argv(&a, dir);
	git_strv_push(&a, "rev-parse");
	git_strv_push(&a, "--verify");
	git_strv_push(&a, "--quiet");
	git_strv_push(&a, "HEAD^{commit}");
	rc = git_capture(a.v, &out, &err);
	if (rc < 0)
		git_no_git();
	s = rc == 0 ? git_next_line(&(char *){ out.p }) : NULL;
	if (s && (strlen(s) == 40 || strlen(s) == 64))
		c->head = kh_strdup(s);
	git_strv_free(&a);

	git_argv(&a, dir);
	git_strv_push(&a, "config");
	git_strv_push(&a, "--get");
	git_strv_push(&a, "remote.origin.url");
	rc = git_capture(a.v, &out, &err);
	if (rc < 0)
		git_no_git();
	url = rc == 0 && out.p ? git_next_line(&(char *){ out.p }) : NULL;
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
	git_strv_free(&a);
	kh_buf_free(&out);
	kh_buf_free(&err);
}

static void
clone_free(struct clone *c)
{
	free(c->objects);
	free(c->name);
	free(c->head);
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

void
git_push_revs(struct strv *a, const struct gopts *o, int paths)
{
	git_strv_push(a, "--end-of-options");
	if (o->revs.n == 0)
		git_strv_push(a, "HEAD");
	for (size_t i = 0; i < o->revs.n; i++)
		git_strv_push(a, o->revs.v[i]);
	git_strv_push(a, "--");
	for (size_t i = 0; paths && i < o->paths.n; i++)
		git_strv_push(a, o->paths.v[i]);
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
	char *alt = NULL;
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
			git_strv_push(&o.revs, optarg);
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
			git_strv_push(&o.paths, optarg);
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
		if (up.head == NULL)
			kh_die(KH_USAGE, "upstream has no commits '%s'",
			    o.upstream);
		alt = alternate_env(up.objects);
	}
	for (int i = 0; i < n; i++) {
		struct shaset fork = { 0 };

		if (!clones[i].head && o.revs.n == 0) {
			kh_warn("no commits in '%s'", clones[i].dir);
			continue;
		}
		if (o.upstream &&
		    git_fork_only(&clones[i], alt, up.head, &o, &fork) < 0)
			continue;
		git_walk(&clones[i], o.upstream ? &fork : NULL, &o);
		free(fork.k);
	}
	for (int i = 0; i < n; i++)
		clone_free(&clones[i]);
	free(clones);
	if (o.upstream) {
		clone_free(&up);
		free(alt);
	}
	git_strv_free(&o.revs);
	git_strv_free(&o.paths);
	return kh_finish();
}
