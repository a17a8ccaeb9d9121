/*
 * tmpl.c: a small logic-less template engine (a subset of mustache).
 * Every value is escaped by the caller's function; a variable that is
 * missing, null or empty is an error, never an empty hole.
 */
#include <stdlib.h>
#include <string.h>

#include "kh.h"

#define MAX_DEPTH 32

enum { N_TEXT, N_VAR, N_SECTION, N_INVERTED };

struct node {
	int type;
	char *s;		/* the text, or the field name */
	size_t n;
	unsigned line;
	struct node *kids;	/* a section's body */
	struct node *next;
};

struct kh_tmpl {
	char *name;
	struct node *root;
};

static void
free_nodes(struct node *n)
{
	while (n) {
		struct node *next = n->next;

		free_nodes(n->kids);
		free(n->s);
		free(n);
		n = next;
	}
}

void
kh_tmpl_free(struct kh_tmpl *t)
{
	if (t == NULL)
		return;
	free_nodes(t->root);
	free(t->name);
	free(t);
}

static int
name_ok(const char *s, size_t n)
{
	if (n == 1 && s[0] == '.')
		return 1;
	if (n == 0 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		    (c == '.' && s[i + 1] != '.')))
			return 0;
	}
	return 1;
}

static unsigned
count_lines(const char *s, const char *end)
{
	unsigned n = 0;

	for (; s < end; s++)
		if (*s == '\n')
			n++;
	return n;
}

struct kh_tmpl *
kh_tmpl_parse(const char *name, const char *src, char **err)
{
	struct kh_tmpl *t = kh_calloc(1, sizeof *t);
	struct node *open[MAX_DEPTH + 1];	/* the sections being filled */
	struct node **tail[MAX_DEPTH + 1];	/* where the next node goes */
	int depth = 0;
	const char *p = src;
	unsigned line = 1;

	t->name = kh_strdup(name);
	open[0] = NULL;
	tail[0] = &t->root;
	*err = NULL;
	for (;;) {
		const char *q = strstr(p, "{{"), *end, *ls, *le, *tag;
		size_t tn, textn;
		struct node *n;
		int kind, standalone = 0;

		textn = q ? (size_t)(q - p) : strlen(p);
		if (q == NULL) {
			if (textn) {
				n = kh_calloc(1, sizeof *n);
				n->type = N_TEXT;
				n->s = kh_strndup(p, textn);
				n->n = textn;
				n->line = line;
				*tail[depth] = n;
				tail[depth] = &n->next;
			}
			break;
		}
		end = strstr(q + 2, "}}");
		/* only a comment may span lines */
		if (end == NULL || (q[2 + strspn(q + 2, " \t")] != '!' &&
		    memchr(q + 2, '\n', (size_t)(end - q - 2)))) {
			*err = kh_asprintf("template '%s' line %u: unclosed "
			    "tag '{{'", name, line + count_lines(p, q));
			goto fail;
		}
		tag = q + 2;
		while (tag < end && (*tag == ' ' || *tag == '\t'))
			tag++;
		kind = *tag == '#' ? N_SECTION : *tag == '^' ? N_INVERTED :
		    *tag == '/' ? -1 : *tag == '!' ? -2 : N_VAR;
		if (kind != N_VAR)
			tag++;
		while (tag < end && (*tag == ' ' || *tag == '\t'))
			tag++;
		tn = (size_t)(end - tag);
		while (tn && (tag[tn - 1] == ' ' || tag[tn - 1] == '\t'))
			tn--;
		/* A section, close or comment tag alone on its line takes it. */
		ls = q;
		while (ls > src && (ls[-1] == ' ' || ls[-1] == '\t'))
			ls--;
		le = end + 2;
		while (*le == ' ' || *le == '\t')
			le++;
		if (kind != N_VAR && (ls == src || ls[-1] == '\n') &&
		    (*le == '\n' || *le == '\0' ||
		    (*le == '\r' && le[1] == '\n'))) {
			standalone = 1;
			textn = (size_t)(ls - p);
		}
		if (textn) {
			n = kh_calloc(1, sizeof *n);
			n->type = N_TEXT;
			n->s = kh_strndup(p, textn);
			n->n = textn;
			n->line = line;
			*tail[depth] = n;
			tail[depth] = &n->next;
		}
		line += count_lines(p, q);
		if (kind != -2 && !name_ok(tag, tn)) {
			*err = kh_asprintf("template '%s' line %u: bad field "
			    "name '%.*s'", name, line, (int)(end - q - 2),
			    q + 2);
			goto fail;
		}
		if (kind == N_VAR || kind == N_SECTION || kind == N_INVERTED) {
			n = kh_calloc(1, sizeof *n);
			n->type = kind;
			n->s = kh_strndup(tag, tn);
			n->n = tn;
			n->line = line;
			*tail[depth] = n;
			tail[depth] = &n->next;
			if (kind != N_VAR) {
				if (depth == MAX_DEPTH) {
					*err = kh_asprintf("template '%s' line "
					    "%u: sections nested too deep",
					    name, line);
					goto fail;
				}
				depth++;
				open[depth] = n;
				tail[depth] = &n->kids;
			}
		} else if (kind == -1) {
			if (depth == 0 || open[depth]->n != tn ||
			    memcmp(open[depth]->s, tag, tn) != 0) {
				if (depth == 0)
					*err = kh_asprintf("template '%s' line "
					    "%u: '{{/%.*s}}' closes no section",
					    name, line, (int)tn, tag);
				else
					*err = kh_asprintf("template '%s' line "
					    "%u: '{{/%.*s}}' does not close "
					    "'%s' of line %u", name, line,
					    (int)tn, tag, open[depth]->s,
					    open[depth]->line);
				goto fail;
			}
			depth--;
		}
		line += count_lines(q, end);
		p = end + 2;
		if (standalone) {
			p = le;
			if (*p == '\r')
				p++;
			if (*p == '\n') {
				p++;
				line++;
			}
		}
	}
	if (depth > 0) {
		*err = kh_asprintf("template '%s' line %u: section '%s' is "
		    "never closed", name, open[depth]->line, open[depth]->s);
		goto fail;
	}
	return t;
fail:
	kh_tmpl_free(t);
	return NULL;
}

struct render {
	const struct kh_tmpl *t;
	const cJSON *stack[MAX_DEPTH + 1];
	int depth;
	kh_tmpl_esc esc;
	kh_tmpl_seen seen;
	void *arg;
	struct kh_buf *out;
	char **err;
};

/* The value of name: "." is the current element; else the first part is
 * looked up from the innermost context outwards, the rest inside it. */
static const cJSON *
lookup(const struct render *r, const char *name)
{
	const char *dot;
	size_t n;
	char key[128];

	if (strcmp(name, ".") == 0)
		return r->stack[r->depth];
	dot = strchr(name, '.');
	n = dot ? (size_t)(dot - name) : strlen(name);
	if (n >= sizeof key)
		return NULL;
	memcpy(key, name, n);
	key[n] = '\0';
	for (int i = r->depth; i >= 0; i--) {
		const cJSON *c = r->stack[i];
		const cJSON *v;

		if (!cJSON_IsObject(c))
			continue;
		v = cJSON_GetObjectItemCaseSensitive(c, key);
		if (v)
			return dot ? kh_get(v, dot + 1) : v;
	}
	return NULL;
}

static int
present(const cJSON *v)
{
	if (v == NULL || cJSON_IsNull(v) || cJSON_IsFalse(v))
		return 0;
	if (cJSON_IsString(v) && v->valuestring[0] == '\0')
		return 0;
	if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 0)
		return 0;
	return 1;
}

static int
render_nodes(struct render *r, const struct node *n)
{
	for (; n; n = n->next) {
		const cJSON *v = NULL, *e;

		if (n->type != N_TEXT)
			v = lookup(r, n->s);
		switch (n->type) {
		case N_TEXT:
			kh_buf_add(r->out, n->s, n->n);
			break;
		case N_VAR:
			if (!present(v) && !cJSON_IsFalse(v)) {
				*r->err = kh_asprintf("template '%s' line %u: "
				    "%s field '%s'", r->t->name, n->line,
				    v == NULL ? "missing" : cJSON_IsNull(v) ?
				    "null" : "empty", n->s);
				return -1;
			}
			if (cJSON_IsString(v)) {
				r->esc(r->out, v->valuestring,
				    strlen(v->valuestring));
			} else if (cJSON_IsNumber(v)) {
				struct kh_buf num = { 0 };

				kh_json_number(&num, v->valuedouble);
				r->esc(r->out, num.p, num.len);
				kh_buf_free(&num);
			} else if (cJSON_IsBool(v)) {
				r->esc(r->out, cJSON_IsTrue(v) ? "true" :
				    "false", cJSON_IsTrue(v) ? 4 : 5);
			} else {
				*r->err = kh_asprintf("template '%s' line %u: "
				    "field '%s' is %s, not text", r->t->name,
				    n->line, n->s, cJSON_IsArray(v) ? "a list" :
				    "an object");
				return -1;
			}
			if (r->seen)
				r->seen(v, r->arg);
			break;
		case N_INVERTED:
			if (!present(v) && render_nodes(r, n->kids) < 0)
				return -1;
			break;
		case N_SECTION:
			if (!present(v))
				break;
			if (r->depth == MAX_DEPTH) {
				*r->err = kh_asprintf("template '%s' line %u: "
				    "data nested too deep", r->t->name,
				    n->line);
				return -1;
			}
			if (cJSON_IsArray(v)) {
				cJSON_ArrayForEach(e, v) {
					int rc;

					r->stack[++r->depth] = e;
					rc = render_nodes(r, n->kids);
					r->depth--;
					if (rc < 0)
						return -1;
				}
			} else {
				int rc;

				r->stack[++r->depth] = v;
				rc = render_nodes(r, n->kids);
				r->depth--;
				if (rc < 0)
					return -1;
			}
			break;
		}
	}
	return 0;
}

int
kh_tmpl_render(const struct kh_tmpl *t, const cJSON *data, kh_tmpl_esc esc,
    kh_tmpl_seen seen, void *arg, struct kh_buf *out, char **err)
{
	struct render r = { 0 };

	r.t = t;
	r.stack[0] = data;
	r.esc = esc;
	r.seen = seen;
	r.arg = arg;
	r.out = out;
	r.err = err;
	*err = NULL;
	kh_buf_add(out, "", 0);
	return render_nodes(&r, t->root);
}

static int
text_nodes(const struct node *n, kh_tmpl_text_fn fn, void *arg)
{
	for (; n; n = n->next) {
		int rc = n->type == N_TEXT ? fn(n->s, n->line, arg) :
		    text_nodes(n->kids, fn, arg);

		if (rc)
			return rc;
	}
	return 0;
}

int
kh_tmpl_text(const struct kh_tmpl *t, kh_tmpl_text_fn fn, void *arg)
{
	return text_nodes(t->root, fn, arg);
}

/* Length of a code point to drop or blank at s: bidi controls (U+202A..E,
 * U+2066..9) and line or paragraph separators (U+0085, U+2028, U+2029). */
static size_t
unsafe_cp(const unsigned char *s, size_t n, int *blank)
{
	if (n >= 2 && s[0] == 0xc2 && s[1] == 0x85) {
		*blank = 1;
		return 2;
	}
	if (n >= 3 && s[0] == 0xe2 && s[1] == 0x80 &&
	    (s[2] == 0xa8 || s[2] == 0xa9)) {
		*blank = 1;
		return 3;
	}
	if (n >= 3 && s[0] == 0xe2 && ((s[1] == 0x80 && s[2] >= 0xaa &&
	    s[2] <= 0xae) || (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9))) {
		*blank = 0;
		return 3;
	}
	return 0;
}

void
kh_tmpl_esc_text(struct kh_buf *b, const char *s, size_t n)
{
	char *u = kh_utf8_repair(s, n);
	const unsigned char *p = (const unsigned char *)u;
	size_t len = strlen(u), i = 0;
	int space = 0, started = 0;

	while (i < len) {
		int blank = 0;
		size_t k = unsafe_cp(p + i, len - i, &blank);

		if (k == 0 && (p[i] < 0x20 || p[i] == 0x7f || p[i] == ' ')) {
			blank = 1;
			k = 1;
		}
		if (k) {
			space |= blank;
			i += k;
			continue;
		}
		if (space && started)
			kh_buf_addc(b, ' ');
		space = 0;
		started = 1;
		kh_buf_addc(b, p[i++]);
	}
	free(u);
}

void
kh_tmpl_esc_md(struct kh_buf *b, const char *s, size_t n)
{
	struct kh_buf t = { 0 };

	kh_tmpl_esc_text(&t, s, n);
	for (size_t i = 0; i < t.len; i++) {
		if (strchr("\\`*_[]<>|~#&", t.p[i]))
			kh_buf_addc(b, '\\');
		kh_buf_addc(b, t.p[i]);
	}
	kh_buf_free(&t);
}
