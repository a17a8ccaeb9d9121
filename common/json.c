/* json.c: compact JSON output with exact numbers and valid UTF-8; lookups */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kh.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, and beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

char *
kh_utf8_repair(const char *s, size_t n)
{
	struct kh_buf b = { 0 };
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t k = utf8_len(u + i, n - i);

		if (k == 0) {
			kh_buf_add(&b, "\xef\xbf\xbd", 3);
			i++;
		} else {
			kh_buf_add(&b, u + i, k);
			i += k;
		}
	}
	return kh_buf_detach(&b);
}

void
kh_json_string(struct kh_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	char *o;
	size_t i = 0;

	/* Room for the worst case (every byte a \u00XX or U+FFFD) up front,
	 * so the loop writes straight into the buffer. */
	if (kh_buf_grow(b, n * 6 + 2) < 0)
		return;
	o = b->p + b->len;
	*o++ = '"';
	while (i < n) {
		unsigned c = u[i];
		size_t k;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c < 0x80) {
			const char *e = NULL;

			switch (c) {
			case '"': e = "\\\""; break;
			case '\\': e = "\\\\"; break;
			case '\n': e = "\\n"; break;
			case '\r': e = "\\r"; break;
			case '\t': e = "\\t"; break;
			case '\b': e = "\\b"; break;
			case '\f': e = "\\f"; break;
			}
			if (e) {
				*o++ = e[0];
				*o++ = e[1];
			} else {
				memcpy(o, "\\u00", 4);
				o[4] = hex[c >> 4];
				o[5] = hex[c & 15];
				o += 6;
			}
			i++;
			continue;
		}
		k = utf8_len(u + i, n - i);
		if (k == 0) {
			memcpy(o, "\xef\xbf\xbd", 3);	/* U+FFFD */
			o += 3;
			i++;
		} else {
			memcpy(o, u + i, k);
			o += k;
			i += k;
		}
	}
	*o++ = '"';
	b->len = (size_t)(o - b->p);
	b->p[b->len] = '\0';
}

void
kh_json_number(struct kh_buf *b, double d)
{
	char s[32];

	if (!isfinite(d)) {
		kh_buf_adds(b, "null");
		return;
	}
	/* Whole numbers print exactly, never in exponent form. */
	if (d == floor(d) && fabs(d) < 1e18) {
		unsigned long long v = (unsigned long long)fabs(d);
		char *e = s + sizeof s, *p = e;

		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		if (d < 0)
			*--p = '-';
		kh_buf_add(b, p, (size_t)(e - p));
		return;
	}
	/* Otherwise the shortest of %.15g / %.17g that reads back exactly. */
	snprintf(s, sizeof s, "%.15g", d);
	if (strtod(s, NULL) != d)
		snprintf(s, sizeof s, "%.17g", d);
	kh_buf_adds(b, s);
}

void
kh_json_write(struct kh_buf *b, const cJSON *j)
{
	const cJSON *c;
	int first = 1;

	if (j == NULL || cJSON_IsNull(j) || cJSON_IsInvalid(j)) {
		kh_buf_adds(b, "null");
	} else if (cJSON_IsTrue(j)) {
		kh_buf_adds(b, "true");
	} else if (cJSON_IsFalse(j)) {
		kh_buf_adds(b, "false");
	} else if (cJSON_IsNumber(j)) {
		kh_json_number(b, j->valuedouble);
	} else if (cJSON_IsString(j)) {
		kh_json_string(b, j->valuestring, strlen(j->valuestring));
	} else if (cJSON_IsRaw(j)) {
		kh_buf_adds(b, j->valuestring);
	} else if (cJSON_IsArray(j)) {
		kh_buf_addc(b, '[');
		cJSON_ArrayForEach(c, j) {
			if (!first)
				kh_buf_addc(b, ',');
			first = 0;
			kh_json_write(b, c);
		}
		kh_buf_addc(b, ']');
	} else {
		kh_buf_addc(b, '{');
		cJSON_ArrayForEach(c, j) {
			if (!first)
				kh_buf_addc(b, ',');
			first = 0;
			kh_json_string(b, c->string, strlen(c->string));
			kh_buf_addc(b, ':');
			kh_json_write(b, c);
		}
		kh_buf_addc(b, '}');
	}
}

char *
kh_json_print(const cJSON *j)
{
	struct kh_buf b = { 0 };

	kh_json_write(&b, j);
	return kh_buf_detach(&b);
}

cJSON *
kh_get(const cJSON *obj, const char *path)
{
	const cJSON *cur = obj;
	char key[128];

	while (cur && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof key || !cJSON_IsObject(cur))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		cur = cJSON_GetObjectItemCaseSensitive(cur, key);
		path += n + (dot ? 1 : 0);
	}
	return (cJSON *)cur;
}

const char *
kh_get_str(const cJSON *obj, const char *path)
{
	const cJSON *j = kh_get(obj, path);

	return cJSON_IsString(j) ? j->valuestring : NULL;
}

int
kh_get_int(const cJSON *obj, const char *path, long long *out)
{
	const cJSON *j = kh_get(obj, path);

	if (cJSON_IsNumber(j)) {
		double d = j->valuedouble;

		if (d != floor(d) || fabs(d) > 9007199254740992.0)
			return -1;
		*out = (long long)d;
		return 0;
	}
	if (cJSON_IsString(j) && j->valuestring[0]) {
		char *end;
		long long v = strtoll(j->valuestring, &end, 10);

		if (*end != '\0')
			return -1;
		*out = v;
		return 0;
	}
	return -1;
}

cJSON *
kh_add_str(cJSON *obj, const char *key, const char *s)
{
	return s ? cJSON_AddStringToObject(obj, key, s) :
	    cJSON_AddNullToObject(obj, key);
}

cJSON *
kh_add_strn(cJSON *obj, const char *key, const char *s, size_t n)
{
	char *t = kh_strndup(s, n);
	cJSON *j = cJSON_AddStringToObject(obj, key, t);

	free(t);
	return j;
}

cJSON *
kh_add_int(cJSON *obj, const char *key, long long v)
{
	return cJSON_AddNumberToObject(obj, key, (double)v);
}

cJSON *
kh_add_bool(cJSON *obj, const char *key, int v)
{
	return cJSON_AddBoolToObject(obj, key, v);
}

cJSON *
kh_add_null(cJSON *obj, const char *key)
{
	return cJSON_AddNullToObject(obj, key);
}

void
kh_set(cJSON *obj, const char *key, cJSON *item)
{
	if (cJSON_GetObjectItemCaseSensitive(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item);
	else
		cJSON_AddItemToObject(obj, key, item);
}
