/*
 * registry.c: kh-fetch registry, named kernel competitions and their
 * results from a curated NDJSON file (share/kh/competitions.ndjson).
 *
 * There is no API for "who won the AMD Developer Challenge": the facts live
 * in organisers' posts, press releases and winners' READMEs. The registry
 * keeps one result a line with its sources and confidence; this turns each
 * named member of a result into one evidence record of kind "competition".
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"

static const char usage[] =
    "Usage: kh-fetch registry [-hqVv] [--strict] [--max-line=BYTES] "
    "[--unbuffered] [FILE...]\n"
    "\n"
    "Write one competition evidence record per named member of each result\n"
    "in FILE (default: the registry installed with kh; '-' is stdin).\n"
    "\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "  -q, --quiet          mute warnings\n"
    "  -v, --verbose        counts at the end\n"
    "      --strict         stop at the first bad record (exit 3)\n"
    "      --max-line=BYTES the longest line accepted\n"
    "      --unbuffered     flush after every record\n";

/* "Yankui Wang" -> "yankui-wang": the member part of a record id. */
static char *
slug(const char *s)
{
	struct kh_buf b = { 0 };
	int dash = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c >= 0x80) {
			if (dash && b.len)
				kh_buf_addc(&b, '-');
			kh_buf_addc(&b, c);
			dash = 0;
		} else if (c >= 'A' && c <= 'Z') {
			if (dash && b.len)
				kh_buf_addc(&b, '-');
			kh_buf_addc(&b, c - 'A' + 'a');
			dash = 0;
		} else {
			dash = 1;
		}
	}
	if (b.len == 0)
		kh_buf_addc(&b, '-');
	return kh_buf_detach(&b);
}

/* The fields of a result line that must be there, with their JSON type. */
static int
check(const cJSON *rec, const struct kh_pos *pos)
{
	static const struct {
		const char *key;
		int (*is)(const cJSON *);
		const char *what;
	} need[] = {
		{ "slug", cJSON_IsString, "a string" },
		{ "competition", cJSON_IsString, "a string" },
		{ "organiser", cJSON_IsString, "a string" },
		{ "at", cJSON_IsString, "a date" },
		{ "placing_text", cJSON_IsString, "a string" },
		{ "self_reported", cJSON_IsBool, "true or false" },
		{ "members", cJSON_IsArray, "an array" },
		{ "confidence", cJSON_IsString, "a string" },
		{ "sources", cJSON_IsArray, "an array" },
	};
	const cJSON *j, *m;
	long long placing;
	time_t t;
	int i = 0;

	for (size_t k = 0; k < sizeof need / sizeof *need; k++) {
		j = kh_get(rec, need[k].key);
		if (j == NULL) {
			kh_bad(pos, "missing required field '%s'", need[k].key);
			return -1;
		}
		if (!need[k].is(j)) {
			kh_bad(pos, "field '%s' is not %s", need[k].key,
			    need[k].what);
			return -1;
		}
	}
	if (kh_parse_time(kh_get_str(rec, "at"), &t) != 0) {
		kh_bad(pos, "field 'at' is not a date: '%s'",
		    kh_get_str(rec, "at"));
		return -1;
	}
	j = kh_get(rec, "placing");
	if (j == NULL || (!cJSON_IsNull(j) && (!cJSON_IsNumber(j) ||
	    kh_get_int(rec, "placing", &placing) != 0 || placing < 1))) {
		kh_bad(pos, j ? "field 'placing' is not a place (1, 2, ...) "
		    "or null" : "missing required field 'placing'");
		return -1;
	}
	if (cJSON_GetArraySize(kh_get(rec, "sources")) == 0) {
		kh_bad(pos, "a result needs at least one source");
		return -1;
	}
	cJSON_ArrayForEach(m, kh_get(rec, "sources")) {
		if (!cJSON_IsString(m)) {
			kh_bad(pos, "field 'sources' holds a non-string");
			return -1;
		}
	}
	cJSON_ArrayForEach(m, kh_get(rec, "members")) {
		i++;
		if (!cJSON_IsObject(m) || (!kh_get_str(m, "login") &&
		    !kh_get_str(m, "name") && !kh_get_str(m, "handle"))) {
			kh_bad(pos, "member %d has no login, name or handle", i);
			return -1;
		}
	}
	return 0;
}

/* One evidence record for member m of the result rec. */
static void
emit_member(const cJSON *rec, const cJSON *m)
{
	/* Copied from the result as they are; the last two are optional. */
	static const char *const same[] = { "competition", "organiser",
	    "placing", "placing_text", "self_reported", "members",
	    "confidence", "sources", "team", "boards" };
	const size_t required = 8;
	const char *login = kh_get_str(m, "login");
	const char *name = kh_get_str(m, "name");
	const char *handle = kh_get_str(m, "handle");
	const char *url = kh_get_str(rec, "url");
	char *key = slug(login ? login : handle ? handle : name);
	char *id = kh_asprintf("registry:%s:%s", kh_get_str(rec, "slug"), key);
	cJSON *ev = cJSON_CreateObject(), *person;
	char at[21];
	time_t t;

	kh_parse_time(kh_get_str(rec, "at"), &t);
	kh_iso8601(t, at);
	if (url == NULL)	/* the first source is a checkable link too */
		url = cJSON_GetArrayItem(kh_get(rec, "sources"), 0)->valuestring;
	kh_add_str(ev, "type", "evidence");
	kh_add_str(ev, "id", id);
	kh_add_str(ev, "kind", "competition");
	kh_add_str(ev, "source", "registry");
	person = cJSON_AddObjectToObject(ev, "person");
	if (login)
		kh_add_str(person, "login", login);
	if (name)
		kh_add_str(person, "name", name);
	if (handle)
		kh_add_str(person, "handle", handle);
	kh_add_str(ev, "url", url);
	kh_add_str(ev, "at", at);
	kh_add_null(ev, "repo");
	kh_add_null(ev, "upstream");
	for (size_t k = 0; k < sizeof same / sizeof *same; k++) {
		const cJSON *j = kh_get(rec, same[k]);

		if (j)
			cJSON_AddItemToObject(ev, same[k],
			    cJSON_Duplicate(j, 1));
		else if (k < required)
			kh_add_null(ev, same[k]);
	}
	kh_emit(ev);
	cJSON_Delete(ev);
	free(id);
	free(key);
}

static int
each(cJSON *rec, const struct kh_pos *pos, void *ctx)
{
	const char *type = kh_get_str(rec, "type");
	const cJSON *m;

	if (strcmp(type, "about") == 0)	/* the file's own header */
		return 0;
	if (strcmp(type, "result") != 0) {
		kh_bad(pos, "unknown record type '%s' (want 'result')", type);
		return -1;
	}
	if (check(rec, pos) != 0)
		return -1;
	if (cJSON_GetArraySize(kh_get(rec, "members")) == 0)
		kh_note("%s:%lu: result '%s' names no members, nothing written",
		    pos->file, pos->line, kh_get_str(rec, "slug"));
	cJSON_ArrayForEach(m, kh_get(rec, "members"))
		emit_member(rec, m);
	return 0;
}

int
fetch_registry(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	char *path = NULL;
	int c;

	kh_usage_text = usage;
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS, longopts,
	    NULL)) != -1)
		kh_opt_common(c, argv);
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		/* No operand means the shipped registry, not stdin. */
		path = kh_data_path("competitions.ndjson");
		kh_loop(1, &path, each, NULL);
		free(path);
	} else {
		kh_loop(argc, argv, each, NULL);
	}
	return kh_finish();
}
