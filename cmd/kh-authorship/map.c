/* map.c: a string-keyed open-addressing hash table (FNV-1a, linear probing) */
#include <stdlib.h>
#include <string.h>

#include "authorship.h"

static size_t
hash(const char *s)
{
	size_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t
slot(const struct map *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int *
map_get(const struct map *m, const char *key)
{
	size_t i;

	if (m->cap == 0 || key == NULL)
		return NULL;
	i = slot(m, key);
	return m->keys[i] ? &m->vals[i] : NULL;
}

static void
grow(struct map *m)
{
	struct map old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = kh_calloc(m->cap, sizeof *m->keys);
	m->vals = kh_calloc(m->cap, sizeof *m->vals);
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i]) {
			size_t j = slot(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
	free(old.keys);
	free(old.vals);
}

static size_t
put(struct map *m, const char *key, int def)
{
	size_t i;

	if ((m->n + 1) * 4 > m->cap * 3)	/* keep it under 3/4 full */
		grow(m);
	i = slot(m, key);
	if (m->keys[i] == NULL) {
		m->keys[i] = kh_strdup(key);
		m->vals[i] = def;
		m->n++;
	}
	return i;
}

int *
map_put(struct map *m, const char *key, int def)
{
	size_t i = put(m, key, def);

	return &m->vals[i];
}

const char *
map_key(struct map *m, const char *key)
{
	size_t i;

	if (key == NULL)
		return NULL;
	i = put(m, key, 0);	/* before reading m->keys: put may grow it */
	return m->keys[i];
}

void
map_free(struct map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* Keys are built for every record: concatenation without printf. */
char *
join3(const char *a, const char *b, const char *c)
{
	size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0,
	    lc = c ? strlen(c) : 0;
	char *s = kh_malloc(la + lb + lc + 1);

	if (la)
		memcpy(s, a, la);
	if (lb)
		memcpy(s + la, b, lb);
	if (lc)
		memcpy(s + la + lb, c, lc);
	s[la + lb + lc] = '\0';
	return s;
}

const char *
numstr(long long n, char out[24])
{
	char *p = out + 23;
	unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n :
	    (unsigned long long)n;

	*p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (n < 0)
		*--p = '-';
	return p;
}
