/*
 * git-log.c: kh-fetch git, the history of a clone as records.
 *
 * git runs with a fixed argument vector (kh_spawn, never a shell). The
 * history comes from one `git log -z --numstat` per clone, parsed as it
 * streams: one commit is in memory at a time, whatever the history's size.
 *
 * The stream, per commit (-z makes every part NUL-terminated):
 *   \001 SHA \n PARENTS \n AN \n AE \n AT \n CN \n CE \n CT \n SUBJECT \n BODY \0
 *   then, if the commit changed files, "\n" and one entry per file:
 *   ADDED \t DELETED \t PATH \0
 *   or, for a rename:  ADDED \t DELETED \t \0 OLD \0 NEW \0
 *   then, with -p (--signals), "\0" and the patch as text lines.
 * A numstat entry starts with a digit or "-", a patch line never with \001,
 * so the \001 that opens each commit cannot be mistaken for anything else.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "git.h"

#define TEXT_MAX 8192		/* the body kept in "text" */
#define HDR_MAX (1 << 20)	/* the message kept to read trailers from */
#define PATCH_LINE_MAX 65536	/* the part of a patch line the scanner sees */
#define FILES_MAX 10000		/* files listed per commit; totals count all */
#define PATH_MAX_ 65536		/* the part of a path kept */
#define CHUNK 65536

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

		if (memcmp(s->k[i], key, 32) == 0 ||
		    memcmp(s->k[i], zero, 32) == 0)
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
			kh_buf_add(b, s, take < max - b->len ? take :
			    max - b->len);
		r->start += take + (e != NULL);
		if (e)
			return 1;
	}
	return rc < 0 ? -1 : got;
}

/*
 * The commits of c that the upstream's HEAD does not reach: rev-list in
 * the fork with the upstream's objects as an alternate, so the fork need
 * not hold the upstream's newest commits, and nothing is written to either.
 */
int
git_fork_only(const struct clone *c, char *alt_env, const char *head,
    const struct gopts *o, struct shaset *set)
{
	struct strv a = { 0 };
	struct kh_child ch;
	struct rd r = { 0 };
	struct kh_buf line = { 0 };
	char *env[2] = { alt_env, NULL };
	char *neg = kh_asprintf("^%s", head);
	int rc, st, bad = 0;

	git_argv(&a, c->dir);
	git_strv_push(&a, "rev-list");
	git_strv_push(&a, neg);
	git_push_revs(&a, o, 0);
	if (kh_spawn(a.v, env, &ch) < 0)
		git_no_git();
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
	git_strv_free(&a);
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
			continue;	/* no address: GitHub ignores it */
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

/*
 * Progress on a terminal: "kh-fetch: DIR: N commits", redrawn at most five
 * times a second; done: 1 erases it.
 */
static void
progress(const char *dir, unsigned long n, int done)
{
	static double last;
	static int shown;
	struct timespec ts;
	double now;

	if (done) {
		if (shown)
			fputs("\r\033[K", stderr);
		shown = 0;
		return;
	}
	if (kh_opt.quiet || n % 64 != 0 || !isatty(2))
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	if (now - last < 0.2)
		return;
	last = now;
	shown = 1;
	fprintf(stderr, "\r%s: %s: %lu commits\033[K", kh_prog, dir, n);
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

	git_strv_free(&w->paths);	/* the last commit's */
	if (files)	/* now, so that rec owns it even if we fail */
		cJSON_AddItemToObject(rec, "files", files);
	if (rd_peek(&w->r) == '\n') {
		w->r.start++;
		while ((c = rd_peek(&w->r)) != -1 && c != '\001' && c != '\0') {
			char *t, *t1, *t2, *path;
			long long a, d;
			int ok1, ok2;

			if (rd_token(&w->r, '\0', &w->tok, PATH_MAX_) != 1)
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
				if (rd_token(&w->r, '\0', &w->tok2, PATH_MAX_)
				    != 1 || rd_token(&w->r, '\0', &w->tok2,
				    PATH_MAX_) != 1)
					return -1;
				path = w->tok2.p;
			}
			if (a > 0)
				added += a;
			if (d > 0)
				deleted += d;
			if (w->o->signals)
				git_strv_push(&w->paths, path);
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
			if (rd_token(&w->r, '\n', &w->tok,
			    PATCH_LINE_MAX) != 1) {
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
				kh_signals_line(sig, w->tok.p + 1,
				    w->tok.len - 1);
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

	sha = git_next_line(&s);
	parents = git_next_line(&s);
	an = git_next_line(&s);
	ae = git_next_line(&s);
	at = git_next_line(&s);
	cn = git_next_line(&s);
	ce = git_next_line(&s);
	ct = git_next_line(&s);
	subject = git_next_line(&s);
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

void
git_walk(const struct clone *c, const struct shaset *fork,
    const struct gopts *o)
{
	struct strv a = { 0 };
	struct kh_child ch;
	struct walk w = { 0 };
	cJSON *rec, *pending = NULL;
	unsigned long n = 0;
	int rc, st, bad = 0;

	git_argv(&a, c->dir);
	git_strv_push(&a, "-c");
	git_strv_push(&a, "log.showSignature=false");
	git_strv_push(&a, "-c");
	git_strv_push(&a, "log.showRoot=true");
	git_strv_push(&a, "log");
	git_strv_push(&a, "-z");
	git_strv_push(&a, "--no-color");
	git_strv_push(&a, "--no-mailmap");	/* the names as recorded */
	git_strv_push(&a, "--encoding=UTF-8");
	git_strv_push(&a, "--format=%x01%H%n%P%n%an%n%ae%n%at%n%cn%n%ce%n%ct%n"
	    "%s%n%b");
	git_strv_push(&a, "--numstat");
	git_strv_push(&a, "-M");
	git_strv_push(&a, "--no-ext-diff");
	git_strv_push(&a, "--no-textconv");
	if (o->signals)
		git_strv_push(&a, "-p");
	if (*o->since)
		git_strv_push(&a, o->since);
	if (*o->until)
		git_strv_push(&a, o->until);
	git_push_revs(&a, o, 1);
	if (kh_spawn(a.v, NULL, &ch) < 0)
		git_no_git();
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
		progress(c->dir, ++n, 0);
	}
	progress(c->dir, n, 1);
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
	git_strv_free(&w.paths);
	git_strv_free(&a);
}

