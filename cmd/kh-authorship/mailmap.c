/*
 * mailmap.c: git's .mailmap (gitmailmap(5)). Four forms, '#' comments:
 *   Proper Name <commit@email>
 *   <proper@email> <commit@email>
 *   Proper Name <proper@email> <commit@email>
 *   Proper Name <proper@email> Commit Name <commit@email>
 * Emails match case-insensitively, and so do names, as in git.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <stdlib.h>

#include "authorship.h"

struct mm_entry {
	char *name, *email;	/* what to write; NULL: keep */
	char *cname, *cemail;	/* what to match; cname NULL: any name */
};

struct mailmap {
	struct mm_entry *e;
	size_t n;
};

static char *
trimmed(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n ? kh_strndup(s, n) : NULL;
}

/* "Name <email>" at *p: name (maybe NULL) and email; -1 when no email. */
static int
part(const char **p, char **name, char **email)
{
	const char *lt = strchr(*p, '<'), *gt;

	*name = *email = NULL;
	if (lt == NULL || (gt = strchr(lt, '>')) == NULL)
		return -1;
	*name = trimmed(*p, (size_t)(lt - *p));
	*email = trimmed(lt + 1, (size_t)(gt - lt - 1));
	*p = gt + 1;
	return 0;
}

struct mailmap *
mailmap_load(const char *path)
{
	struct mailmap *m = kh_calloc(1, sizeof *m);
	size_t len, lineno = 0;
	char *text = kh_read_file(path, (size_t)16 << 20, &len), *line, *next;

	if (text == NULL)
		kh_die(KH_USAGE, "cannot read '%s': %s", path, strerror(errno));
	for (line = text; line && *line; line = next) {
		struct mm_entry e = { 0 };
		const char *p = line;
		char *n2, *e2, *hash;

		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		if ((n2 = trimmed(line, strlen(line))) == NULL)
			continue;	/* blank or a comment */
		free(n2);
		if (part(&p, &e.name, &e.email) < 0) {
			kh_warn("%s:%zu: not a mailmap line, ignored", path,
			    lineno);
			continue;
		}
		if (part(&p, &n2, &e2) == 0) {
			e.cname = n2;
			e.cemail = kh_email_norm(e2);
			free(e2);
		} else {
			/* one address: it is the one to match, the name to write */
			e.cemail = kh_email_norm(e.email);
			free(e.email);
			e.email = NULL;
		}
		if (e.cemail == NULL) {
			kh_warn("%s:%zu: no usable address, ignored", path,
			    lineno);
			free(e.name), free(e.email), free(e.cname);
			continue;
		}
		m->e = kh_realloc(m->e, (m->n + 1) * sizeof *m->e);
		m->e[m->n++] = e;
	}
	free(text);
	return m;
}

void
mailmap_map(const struct mailmap *m, const char *name, const char *email,
    const char **pname, const char **pemail, int *by_name)
{
	const struct mm_entry *any = NULL;

	*pname = *pemail = NULL;
	*by_name = 0;
	if (email == NULL)
		return;
	for (size_t i = 0; i < m->n; i++) {
		const struct mm_entry *e = &m->e[i];

		if (strcmp(e->cemail, email) != 0)
			continue;
		if (e->cname == NULL) {
			if (any == NULL)
				any = e;
		} else if (name && strcasecmp(e->cname, name) == 0) {
			any = e;	/* name and email: the most specific */
			break;
		}
	}
	if (any) {
		*pname = any->name;
		*pemail = any->email;
		*by_name = any->cname != NULL;
	}
}

void
mailmap_free(struct mailmap *m)
{
	if (m == NULL)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->e[i].name);
		free(m->e[i].email);
		free(m->e[i].cname);
		free(m->e[i].cemail);
	}
	free(m->e);
	free(m);
}
