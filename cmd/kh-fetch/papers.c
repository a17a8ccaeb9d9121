/*
 * papers.c: kh-fetch papers, a person's kernel papers from OpenAlex.
 *
 * OpenAlex disambiguates authors, so the lookup has two steps, as its
 * documentation insists: a name becomes author ids (/authors?search=),
 * and works are listed by author id (/works?filter=authorships.author.id:),
 * never by name. A name that matches several authors yields the papers of
 * every candidate, each flagged ambiguous: kh never guesses silently.
 * Works are kept when their title, keywords or topics match a kernel topic
 * of share/kh/paper-topics.txt.
 *
 * DBLP is the second source (--dblp=NAME), precise for systems venues. Its
 * JSON writes every number as a string and a list of one as the item
 * itself ("author": {...} instead of [{...}]); as_list() and kh_get_int()
 * take both forms. A person is a pid; homonyms carry a 4-digit suffix
 * ("Wei Zhang 0009").
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fetch.h"

#define OPENALEX_URL "https://api.openalex.org"
#define DBLP_URL "https://dblp.org"
#define SCHOLAR_AGE (7 * 86400)	/* papers change slowly */
#define PER_PAGE 100		/* OpenAlex caps per_page at 100 (2026) */
#define MAX_PAGES 20		/* 2,000 works a person is plenty */
#define MAX_CANDIDATES 25

static const char usage[] =
    "Usage: kh-fetch papers [-hqVv] [--topics=FILE] [--unbuffered]\n"
    "                       [--name=NAME | --orcid=ID | --openalex=ID |\n"
    "                        --dblp=NAME]...\n"
    "\n"
    "One paper evidence record per kernel paper of each person, from "
    "OpenAlex.\n"
    "\n"
    "  -n, --name=NAME      an author's name (several matches: all kept,\n"
    "                       flagged ambiguous)\n"
    "  -o, --orcid=ID       an ORCID iD (0000-0002-1825-0097)\n"
    "  -a, --openalex=ID    an OpenAlex author id (A5023888391)\n"
    "  -d, --dblp=NAME      an author's name, looked up in DBLP\n"
    "  -t, --topics=FILE    kernel topics (default: share/kh/paper-topics.txt;\n"
    "                       a file without topics keeps every work)\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "  -q, --quiet          mute warnings\n"
    "  -v, --verbose        counts at the end\n"
    "      --strict         accepted for symmetry; no input is read\n"
    "      --max-line=BYTES accepted for symmetry; no input is read\n"
    "      --unbuffered     flush after every record\n"
    "\n"
    "Environment: OPENALEX_API_KEY, KH_CONTACT (an e-mail address for\n"
    "OpenAlex), KH_OPENALEX_URL, KH_DBLP_URL (base URLs), KH_CACHE.\n";

/* One topic: its name and phrases ("kernel*": a prefix). */
struct topic {
	char *name;
	char **phrase;
	size_t n;
};

struct papers {
	struct kh_http *http;
	struct kh_http *dblp;	/* its own pace: DBLP asks for 1.5 s a call */
	const char *base;
	const char *dblp_base;
	const char *key;	/* OPENALEX_API_KEY, never printed */
	const char *contact;	/* KH_CONTACT */
	struct topic *topic;
	size_t ntopics;
	size_t kept, dropped;
};

/* Who a works query is about. */
struct who {
	const char *author;	/* "A123", or NULL */
	const char *orcid;	/* "0000-...", or NULL */
	const char *name;	/* display name, when known */
	int ambiguous;
};

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void
load_topics(struct papers *p, const char *path)
{
	size_t len;
	char *text = kh_read_file(path, (size_t)1 << 20, &len), *line, *save;
	unsigned long lineno = 0;

	if (text == NULL)
		kh_die(KH_USAGE, "cannot read topics '%s': %s", path,
		    strerror(errno));
	for (line = text; line && *line; line = save) {
		char *nl = strchr(line, '\n'), *colon, *ph;
		struct topic *t;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		line = trim(line);
		if (*line == '\0' || *line == '#')
			continue;
		if ((colon = strchr(line, ':')) == NULL)
			kh_die(KH_USAGE, "%s:%lu: want 'topic: phrase, ...'",
			    path, lineno);
		*colon = '\0';
		p->topic = kh_realloc(p->topic, (p->ntopics + 1) *
		    sizeof *p->topic);
		t = &p->topic[p->ntopics++];
		t->name = kh_strdup(trim(line));
		t->phrase = NULL;
		t->n = 0;
		for (ph = colon + 1; ph; ) {
			char *comma = strchr(ph, ','), *w;

			if (comma)
				*comma = '\0';
			w = trim(ph);
			if (*w) {
				t->phrase = kh_realloc(t->phrase, (t->n + 1) *
				    sizeof *t->phrase);
				t->phrase[t->n++] = kh_strdup(w);
			}
			ph = comma ? comma + 1 : NULL;
		}
	}
	free(text);
}

static int
wordch(int c)
{
	return isalnum(c) || c >= 0x80;
}

/* Does phrase occur in text at word boundaries (ignoring case)? */
static int
has_phrase(const char *text, const char *phrase)
{
	size_t n = strlen(phrase);
	int prefix = n && phrase[n - 1] == '*';

	if (prefix)
		n--;
	if (n == 0)
		return 0;
	for (const char *s = text; *s; s++) {
		if ((s > text && wordch((unsigned char)s[-1])) ||
		    strncasecmp(s, phrase, n) != 0)
			continue;
		if (prefix || !wordch((unsigned char)s[n]))
			return 1;
	}
	return 0;
}

/* The names of the topics the work matches; NULL when none does. */
static cJSON *
match_topics(const struct papers *p, const cJSON *w)
{
	struct kh_buf text = { 0 };
	const cJSON *k;
	cJSON *names;

	kh_buf_adds(&text, "");
	if (kh_get_str(w, "title"))
		kh_buf_addf(&text, "%s\n", kh_get_str(w, "title"));
	cJSON_ArrayForEach(k, kh_get(w, "keywords"))
		if (kh_get_str(k, "display_name"))
			kh_buf_addf(&text, "%s\n", kh_get_str(k,
			    "display_name"));
	cJSON_ArrayForEach(k, kh_get(w, "topics"))
		if (kh_get_str(k, "display_name"))
			kh_buf_addf(&text, "%s\n", kh_get_str(k,
			    "display_name"));
	names = cJSON_CreateArray();
	for (size_t i = 0; i < p->ntopics; i++)
		for (size_t j = 0; j < p->topic[i].n; j++)
			if (has_phrase(text.p, p->topic[i].phrase[j])) {
				cJSON_AddItemToArray(names,
				    cJSON_CreateString(p->topic[i].name));
				break;
			}
	kh_buf_free(&text);
	if (p->ntopics && cJSON_GetArraySize(names) == 0) {
		cJSON_Delete(names);
		return NULL;
	}
	return names;
}

/* Append s %-encoded for a query value. */
static void
add_enc(struct kh_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || strchr("-._~", c))
			kh_buf_addc(b, c);
		else
			kh_buf_addf(b, "%%%02X", c);
	}
}

/* The API URL for path and query (query already encoded). */
static char *
api_url(const struct papers *p, const char *path, const char *query)
{
	struct kh_buf b = { 0 };

	kh_buf_addf(&b, "%s%s?%s", p->base, path, query);
	if (p->contact) {
		kh_buf_adds(&b, "&mailto=");
		add_enc(&b, p->contact);
	}
	if (p->key) {
		kh_buf_adds(&b, "&api_key=");
		add_enc(&b, p->key);
	}
	return kh_buf_detach(&b);
}

static cJSON *
get_json(struct papers *p, const char *url)
{
	struct kh_resp r = { 0 };
	const char *end = NULL;
	cJSON *j;

	if (kh_http_get(p->http, url, SCHOLAR_AGE, &r) != 0) {
		kh_resp_free(&r);
		return NULL;
	}
	j = cJSON_ParseWithLengthOpts(r.body, r.len + 1, &end, 1);
	kh_resp_free(&r);
	if (!cJSON_IsArray(kh_get(j, "results"))) {
		kh_err("cannot use an OpenAlex answer: no list of results");
		kh_fail(KH_REMOTE);
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

/* "https://openalex.org/A123" -> "A123"; "https://orcid.org/X" -> "X". */
static const char *
last_part(const char *s)
{
	const char *slash = s ? strrchr(s, '/') : NULL;

	return slash ? slash + 1 : s;
}

static const char *
position(size_t i, size_t n)
{
	if (n == 1)
		return "only";
	return i == 0 ? "first" : i == n - 1 ? "last" : "middle";
}

static void
emit_work(struct papers *p, const struct who *who, const cJSON *w)
{
	const cJSON *a, *inst;
	const char *wid = last_part(kh_get_str(w, "id"));
	const char *doi = kh_get_str(w, "doi");
	const char *landing = kh_get_str(w, "primary_location.landing_page_url");
	const char *date = kh_get_str(w, "publication_date");
	const char *name = who->name, *orcid = who->orcid;
	const char *author = who->author, *pos = NULL;
	size_t n = (size_t)cJSON_GetArraySize(kh_get(w, "authorships")), i = 0;
	cJSON *rec, *person, *authors, *topics = match_topics(p, w);
	long long year;
	char *id, at[21];
	time_t t;

	if (topics == NULL || wid == NULL) {
		p->dropped++;
		cJSON_Delete(topics);
		return;
	}
	p->kept++;
	rec = cJSON_CreateObject();
	authors = cJSON_CreateArray();
	cJSON_ArrayForEach(a, kh_get(w, "authorships")) {
		const char *aid = last_part(kh_get_str(a, "author.id"));
		const char *ao = last_part(kh_get_str(a, "author.orcid"));
		const char *an = kh_get_str(a, "author.display_name");
		cJSON *o = cJSON_CreateObject(), *insts;

		if ((author && aid && strcmp(aid, author) == 0) ||
		    (!author && orcid && ao && strcmp(ao, orcid) == 0)) {
			pos = position(i, n);
			if (!author)
				author = aid;
			if (!orcid)
				orcid = ao;
			if (!name)
				name = an;
		}
		kh_add_str(o, "name", an ? an : kh_get_str(a,
		    "raw_author_name"));
		insts = cJSON_AddArrayToObject(o, "institutions");
		cJSON_ArrayForEach(inst, kh_get(a, "institutions"))
			if (kh_get_str(inst, "display_name"))
				cJSON_AddItemToArray(insts, cJSON_CreateString(
				    kh_get_str(inst, "display_name")));
		if (ao)
			kh_add_str(o, "orcid", ao);
		cJSON_AddItemToArray(authors, o);
		i++;
	}
	id = kh_asprintf("openalex:%s:%s", wid, author ? author : "-");
	kh_add_str(rec, "type", "evidence");
	kh_add_str(rec, "id", id);
	kh_add_str(rec, "kind", "paper");
	kh_add_str(rec, "source", "openalex");
	person = cJSON_AddObjectToObject(rec, "person");
	if (name)
		kh_add_str(person, "name", name);
	if (author)
		kh_add_str(person, "user_id", author);
	if (orcid)
		kh_add_str(person, "orcid", orcid);
	kh_add_str(rec, "url", doi ? doi : landing ? landing :
	    kh_get_str(w, "id"));
	if (date && kh_parse_time(date, &t) == 0) {
		kh_iso8601(t, at);
		kh_add_str(rec, "at", at);
	} else {
		kh_add_null(rec, "at");
	}
	kh_add_null(rec, "repo");
	kh_add_null(rec, "upstream");
	kh_add_str(rec, "title", kh_get_str(w, "title") ? kh_get_str(w,
	    "title") : kh_get_str(w, "display_name"));
	cJSON_AddItemToObject(rec, "authors", authors);
	kh_add_str(rec, "venue",
	    kh_get_str(w, "primary_location.source.display_name"));
	if (kh_get_int(w, "publication_year", &year) == 0)
		kh_add_int(rec, "year", year);
	else
		kh_add_null(rec, "year");
	/* the bare DOI: "10.1145/...", from "https://doi.org/10.1145/..." */
	kh_add_str(rec, "doi", doi && strstr(doi, "doi.org/") ?
	    strstr(doi, "doi.org/") + 8 : doi);
	kh_add_str(rec, "position", pos);
	kh_add_bool(rec, "ambiguous", who->ambiguous);
	cJSON_AddItemToObject(rec, "topics", topics);
	kh_emit(rec);
	cJSON_Delete(rec);
	free(id);
}

/* Every work of one author (by id or ORCID), page by page. */
static void
works(struct papers *p, const struct who *who)
{
	for (long page = 1; page <= MAX_PAGES; page++) {
		struct kh_buf q = { 0 };
		const cJSON *w;
		long long count = 0;
		char *url;
		cJSON *j;

		kh_buf_adds(&q, "filter=");
		if (who->author) {
			kh_buf_adds(&q, "authorships.author.id:");
			add_enc(&q, who->author);
		} else {
			kh_buf_adds(&q, "authorships.author.orcid:");
			add_enc(&q, who->orcid);
		}
		kh_buf_addf(&q, "&per_page=%d&page=%ld&select=id,doi,title,"
		    "display_name,publication_year,publication_date,"
		    "primary_location,authorships,keywords,topics",
		    PER_PAGE, page);
		url = api_url(p, "/works", q.p);
		kh_buf_free(&q);
		j = get_json(p, url);
		free(url);
		if (j == NULL)
			return;
		cJSON_ArrayForEach(w, kh_get(j, "results")) {
			kh_count_in();
			emit_work(p, who, w);
		}
		fflush(stdout);
		kh_get_int(j, "meta.count", &count);
		if (cJSON_GetArraySize(kh_get(j, "results")) < PER_PAGE ||
		    page * PER_PAGE >= count) {
			cJSON_Delete(j);
			return;
		}
		cJSON_Delete(j);
	}
	kh_warn("papers: '%s' has more than %d works; the first %d were read",
	    who->name ? who->name : who->author ? who->author : who->orcid,
	    MAX_PAGES * PER_PAGE, MAX_PAGES * PER_PAGE);
}

/* Lower case, letters and digits only: "J. Priem" and "j priem" agree. */
static char *
norm(const char *s)
{
	struct kh_buf b = { 0 };

	kh_buf_adds(&b, "");
	for (; *s; s++)
		if (isalnum((unsigned char)*s) || (unsigned char)*s >= 0x80)
			kh_buf_addc(&b, tolower((unsigned char)*s));
	return kh_buf_detach(&b);
}

static int
same_name(const cJSON *author, const char *want)
{
	const cJSON *alt;
	char *a = norm(kh_get_str(author, "display_name") ?
	    kh_get_str(author, "display_name") : "");
	int same = strcmp(a, want) == 0;

	free(a);
	cJSON_ArrayForEach(alt, kh_get(author, "display_name_alternatives")) {
		if (same || !cJSON_IsString(alt))
			continue;
		a = norm(alt->valuestring);
		same = strcmp(a, want) == 0;
		free(a);
	}
	return same;
}

/* "A123 (Inst One; Inst Two)" for the ambiguity warning. */
static void
describe(struct kh_buf *b, const cJSON *author)
{
	const cJSON *inst;
	int first = 1;

	kh_buf_addf(b, "%s", last_part(kh_get_str(author, "id")));
	cJSON_ArrayForEach(inst, kh_get(author, "last_known_institutions")) {
		if (!kh_get_str(inst, "display_name"))
			continue;
		kh_buf_addf(b, "%s%s", first ? " (" : "; ",
		    kh_get_str(inst, "display_name"));
		first = 0;
	}
	if (!first)
		kh_buf_addc(b, ')');
}

static void
by_name(struct papers *p, const char *name)
{
	struct kh_buf q = { 0 }, list = { 0 };
	const cJSON *a;
	char *url, *want = norm(name);
	size_t exact = 0, n = 0;
	cJSON *j;

	kh_buf_adds(&q, "search=");
	add_enc(&q, name);
	kh_buf_addf(&q, "&per_page=%d&select=id,display_name,"
	    "display_name_alternatives,orcid,last_known_institutions,"
	    "works_count", MAX_CANDIDATES);
	url = api_url(p, "/authors", q.p);
	kh_buf_free(&q);
	j = get_json(p, url);
	free(url);
	if (j == NULL) {
		free(want);
		return;
	}
	/* Keep the exact matches; when there are none, every hit. */
	cJSON_ArrayForEach(a, kh_get(j, "results"))
		exact += same_name(a, want) ? 1 : 0;
	cJSON_ArrayForEach(a, kh_get(j, "results")) {
		if (exact && !same_name(a, want))
			continue;
		kh_buf_adds(&list, n++ ? ", " : "");
		describe(&list, a);
	}
	if (n == 0)
		kh_warn("papers: no OpenAlex author named '%s'", name);
	else if (n > 1)
		kh_warn("papers: '%s' matches %zu OpenAlex authors, all kept "
		    "and flagged ambiguous: %s", name, n, list.p);
	cJSON_ArrayForEach(a, kh_get(j, "results")) {
		struct who who = { 0 };

		if (exact && !same_name(a, want))
			continue;
		who.author = last_part(kh_get_str(a, "id"));
		who.orcid = last_part(kh_get_str(a, "orcid"));
		who.name = kh_get_str(a, "display_name");
		who.ambiguous = n > 1;
		if (who.author)
			works(p, &who);
	}
	kh_buf_free(&list);
	cJSON_Delete(j);
	free(want);
}

/*
 * DBLP. as_list: an array as it is, an object or string as a list of one,
 * absent as an empty list. The result is a new array of references to the
 * items (cJSON_Delete frees only the list).
 */
static cJSON *
as_list(const cJSON *j)
{
	cJSON *list = cJSON_CreateArray();
	const cJSON *e;

	if (cJSON_IsArray(j)) {
		cJSON_ArrayForEach(e, j)
			cJSON_AddItemReferenceToArray(list, (cJSON *)e);
	} else if (j && !cJSON_IsNull(j)) {
		cJSON_AddItemReferenceToArray(list, (cJSON *)j);
	}
	return list;
}

/* A DBLP text: a string, or an object with "text". */
static const char *
dblp_text(const cJSON *j)
{
	if (cJSON_IsString(j))
		return j->valuestring;
	return kh_get_str(j, "text");
}

/* "Wei Zhang 0009" -> "Wei Zhang": the homonym number is not the name. */
static char *
dblp_name(const char *s)
{
	size_t n = strlen(s);

	if (n > 5 && s[n - 5] == ' ' && strspn(s + n - 4, "0123456789") == 4)
		n -= 5;
	return kh_strndup(s, n);
}

/* The hits of a DBLP search answer, as a list; NULL after a message. */
static cJSON *
dblp_hits(struct papers *p, const char *path, const char *q, cJSON **root)
{
	struct kh_buf u = { 0 };
	struct kh_resp r = { 0 };
	const char *end = NULL;
	long long code;
	cJSON *j;

	kh_buf_addf(&u, "%s%s?q=", p->dblp_base, path);
	add_enc(&u, q);
	kh_buf_adds(&u, "&format=json&h=1000&c=0");
	if (kh_http_get(p->dblp, u.p, SCHOLAR_AGE, &r) != 0) {
		kh_resp_free(&r);
		kh_buf_free(&u);
		return NULL;
	}
	j = cJSON_ParseWithLengthOpts(r.body, r.len + 1, &end, 1);
	kh_resp_free(&r);
	if (!cJSON_IsObject(kh_get(j, "result")) ||
	    kh_get_int(j, "result.status.@code", &code) != 0 || code != 200) {
		kh_err("cannot use '%s': not a DBLP search answer", u.p);
		kh_fail(KH_REMOTE);
		cJSON_Delete(j);
		kh_buf_free(&u);
		return NULL;
	}
	kh_buf_free(&u);
	*root = j;
	return as_list(kh_get(j, "result.hits.hit"));
}

/* One DBLP publication of the person pid, when it matches a topic. */
static void
dblp_emit(struct papers *p, const cJSON *info, const char *pid,
    const char *name, int ambiguous)
{
	cJSON *authors = as_list(kh_get(info, "authors.author"));
	cJSON *ees = as_list(kh_get(info, "ee"));
	const char *key = kh_get_str(info, "key"), *pos = NULL;
	const cJSON *a;
	cJSON *rec, *out, *person, *topics, *t;
	size_t n = (size_t)cJSON_GetArraySize(authors), i = 0;
	char *title, *id, at[21];
	long long year = 0;
	time_t when;

	/* DBLP titles end with a period; topics read the title alone */
	title = kh_strdup(kh_get_str(info, "title") ? kh_get_str(info,
	    "title") : "");
	if (*title && title[strlen(title) - 1] == '.')
		title[strlen(title) - 1] = '\0';
	t = cJSON_CreateObject();
	kh_add_str(t, "title", title);
	topics = match_topics(p, t);
	cJSON_Delete(t);
	if (topics == NULL || key == NULL) {
		p->dropped++;
		cJSON_Delete(topics);
		cJSON_Delete(authors);
		cJSON_Delete(ees);
		free(title);
		return;
	}
	p->kept++;
	out = cJSON_CreateArray();
	cJSON_ArrayForEach(a, authors) {
		const char *apid = kh_get_str(a, "@pid");
		char *an = dblp_name(dblp_text(a) ? dblp_text(a) : "");
		cJSON *o = cJSON_CreateObject();

		if (apid && strcmp(apid, pid) == 0)
			pos = position(i, n);
		kh_add_str(o, "name", an);
		cJSON_AddArrayToObject(o, "institutions");
		cJSON_AddItemToArray(out, o);
		free(an);
		i++;
	}
	id = kh_asprintf("dblp:%s:%s", key, pid);
	rec = cJSON_CreateObject();
	kh_add_str(rec, "type", "evidence");
	kh_add_str(rec, "id", id);
	kh_add_str(rec, "kind", "paper");
	kh_add_str(rec, "source", "dblp");
	person = cJSON_AddObjectToObject(rec, "person");
	kh_add_str(person, "name", name);
	kh_add_str(person, "user_id", pid);
	kh_add_str(rec, "url", cJSON_GetArraySize(ees) ?
	    dblp_text(cJSON_GetArrayItem(ees, 0)) : kh_get_str(info, "url"));
	snprintf(at, sizeof at, "%04lld-01-01", kh_get_int(info, "year",
	    &year) == 0 && year > 0 && year < 10000 ? year : 0);
	if (kh_parse_time(at, &when) == 0 && year > 0) {
		/* DBLP knows the year only: the first of January */
		kh_iso8601(when, at);
		kh_add_str(rec, "at", at);
	} else {
		kh_add_null(rec, "at");
	}
	kh_add_null(rec, "repo");
	kh_add_null(rec, "upstream");
	kh_add_str(rec, "title", title);
	cJSON_AddItemToObject(rec, "authors", out);
	kh_add_str(rec, "venue", dblp_text(kh_get(info, "venue")) ?
	    dblp_text(kh_get(info, "venue")) : NULL);
	if (kh_get_int(info, "year", &year) == 0)
		kh_add_int(rec, "year", year);
	else
		kh_add_null(rec, "year");
	kh_add_str(rec, "doi", kh_get_str(info, "doi"));
	kh_add_str(rec, "position", pos);
	kh_add_bool(rec, "ambiguous", ambiguous);
	cJSON_AddItemToObject(rec, "topics", topics);
	kh_emit(rec);
	cJSON_Delete(rec);
	cJSON_Delete(authors);
	cJSON_Delete(ees);
	free(title);
	free(id);
}

/*
 * A name in DBLP: the author search gives pids (several for homonyms:
 * all kept, flagged ambiguous); the publication search by name gives
 * candidates, kept when a co-author entry carries the pid.
 */
static void
by_dblp(struct papers *p, const char *name)
{
	cJSON *root = NULL, *hits = dblp_hits(p, "/search/author/api", name,
	    &root), *proot = NULL, *phits;
	struct kh_buf list = { 0 };
	const cJSON *h, *ph;
	char *want = norm(name);
	size_t n = 0;

	if (hits == NULL) {
		free(want);
		return;
	}
	/* the pid is the last two parts of the person page URL */
	cJSON_ArrayForEach(h, hits) {
		char *an = dblp_name(kh_get_str(h, "info.author") ?
		    kh_get_str(h, "info.author") : ""), *nn = norm(an);

		if (strcmp(nn, want) == 0 && kh_get_str(h, "info.url") &&
		    strstr(kh_get_str(h, "info.url"), "/pid/")) {
			cJSON *notes = as_list(kh_get(h, "info.notes.note"));
			const cJSON *note;
			int first = 1;

			kh_buf_adds(&list, n++ ? ", " : "");
			kh_buf_adds(&list, strstr(kh_get_str(h, "info.url"),
			    "/pid/") + 5);
			cJSON_ArrayForEach(note, notes) {
				const char *type = kh_get_str(note, "@type");

				if (!type || strcmp(type, "affiliation") != 0 ||
				    !dblp_text(note))
					continue;
				kh_buf_addf(&list, "%s%s", first ? " (" : "; ",
				    dblp_text(note));
				first = 0;
			}
			if (!first)
				kh_buf_addc(&list, ')');
			cJSON_Delete(notes);
		}
		free(an);
		free(nn);
	}
	if (n == 0)
		kh_warn("papers: no DBLP author named '%s'", name);
	else if (n > 1)
		kh_warn("papers: '%s' matches %zu DBLP authors, all kept and "
		    "flagged ambiguous: %s", name, n, list.p);
	phits = n ? dblp_hits(p, "/search/publ/api", name, &proot) : NULL;
	cJSON_ArrayForEach(ph, phits)
		kh_count_in();
	cJSON_ArrayForEach(h, hits) {
		char *an = dblp_name(kh_get_str(h, "info.author") ?
		    kh_get_str(h, "info.author") : ""), *nn = norm(an);
		const char *url = kh_get_str(h, "info.url");

		if (phits && strcmp(nn, want) == 0 && url &&
		    strstr(url, "/pid/")) {
			const char *pid = strstr(url, "/pid/") + 5;

			cJSON_ArrayForEach(ph, phits) {
				cJSON *as = as_list(kh_get(ph,
				    "info.authors.author"));
				const cJSON *a;
				int mine = 0;

				cJSON_ArrayForEach(a, as)
					mine |= kh_get_str(a, "@pid") &&
					    strcmp(kh_get_str(a, "@pid"),
					    pid) == 0;
				cJSON_Delete(as);
				if (mine)
					dblp_emit(p, kh_get(ph, "info"), pid,
					    an, n > 1);
			}
		}
		free(an);
		free(nn);
	}
	fflush(stdout);
	cJSON_Delete(phits);
	cJSON_Delete(proot);
	cJSON_Delete(hits);
	cJSON_Delete(root);
	kh_buf_free(&list);
	free(want);
}

/* A checked identifier from an option, or exit 2. */
static const char *
check_id(const char *opt, const char *arg)
{
	const char *s = last_part(arg);
	size_t n = strlen(s);
	int orcid = strcmp(opt, "--orcid") == 0;

	/* ORCID: four groups of four, the last character may be X */
	if (orcid && n == 19 && s[4] == '-' && s[9] == '-' && s[14] == '-' &&
	    strspn(s, "0123456789-") >= 18 &&
	    (isdigit((unsigned char)s[18]) || s[18] == 'X'))
		return s;
	if (!orcid && n >= 2 && (s[0] == 'A' || s[0] == 'a') &&
	    strspn(s + 1, "0123456789") == n - 1)
		return s;
	kh_usage("option '%s' wants %s, not '%s'", opt, orcid ?
	    "an ORCID iD (0000-0002-1825-0097)" :
	    "an OpenAlex author id (A5023888391)", arg);
}

int
fetch_papers(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "name", required_argument, NULL, 'n' },
		{ "orcid", required_argument, NULL, 'o' },
		{ "openalex", required_argument, NULL, 'a' },
		{ "topics", required_argument, NULL, 't' },
		{ "dblp", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	struct kh_http_opts ho = { 0 };
	struct papers p = { 0 };
	struct { int kind; const char *arg; } *q;
	size_t nq = 0;
	char *topics = NULL, *ua = NULL;
	int c;

	kh_usage_text = usage;
	q = kh_calloc((size_t)argc + 1, sizeof *q);
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS "a:d:n:o:t:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
		case 'n':
			if (*optarg == '\0')
				kh_usage("option '%s' wants a name", c == 'n' ?
				    "--name" : "--dblp");
			q[nq].kind = c, q[nq++].arg = optarg;
			break;
		case 'o':
			q[nq].kind = c, q[nq++].arg = check_id("--orcid",
			    optarg);
			break;
		case 'a':
			q[nq].kind = c, q[nq++].arg = check_id("--openalex",
			    optarg);
			break;
		case 't':
			free(topics);
			topics = kh_strdup(optarg);
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	if (optind < argc)
		kh_usage("papers: unexpected operand '%s'", argv[optind]);
	if (nq == 0)
		kh_usage("papers: whose? (--name, --orcid, --openalex or "
		    "--dblp)");
	if (topics == NULL)
		topics = kh_data_path("paper-topics.txt");
	load_topics(&p, topics);
	p.base = getenv("KH_OPENALEX_URL");
	if (p.base == NULL || *p.base == '\0')
		p.base = OPENALEX_URL;
	p.key = getenv("OPENALEX_API_KEY");
	if (p.key && *p.key == '\0')
		p.key = NULL;
	p.contact = getenv("KH_CONTACT");
	if (p.contact && *p.contact == '\0')
		p.contact = NULL;
	if (p.contact)
		ua = kh_asprintf("kh-fetch/%s (mailto:%s)", KH_VERSION,
		    p.contact);
	ho.user_agent = ua;
	ho.per_second = 5;	/* far below the 100/s OpenAlex allows */
	ho.retries = 3;
	p.http = kh_http_new(&ho);
	p.dblp_base = getenv("KH_DBLP_URL");
	if (p.dblp_base == NULL || *p.dblp_base == '\0')
		p.dblp_base = DBLP_URL;
	ho.per_second = 1 / 1.5;	/* DBLP: "one or two seconds" apart */
	p.dblp = kh_http_new(&ho);
	for (size_t i = 0; i < nq; i++) {
		struct who who = { 0 };

		if (q[i].kind == 'n') {
			by_name(&p, q[i].arg);
			continue;
		}
		if (q[i].kind == 'd') {
			by_dblp(&p, q[i].arg);
			continue;
		}
		if (q[i].kind == 'a') {
			char *up = kh_strdup(q[i].arg);

			up[0] = 'A';
			who.author = up;
			works(&p, &who);
			free(up);
		} else {
			who.orcid = q[i].arg;
			works(&p, &who);
		}
	}
	kh_note("papers: %zu works matched a topic, %zu did not", p.kept,
	    p.dropped);
	kh_http_free(p.http);
	kh_http_free(p.dblp);
	for (size_t i = 0; i < p.ntopics; i++) {
		for (size_t j = 0; j < p.topic[i].n; j++)
			free(p.topic[i].phrase[j]);
		free(p.topic[i].phrase);
		free(p.topic[i].name);
	}
	free(p.topic);
	free(topics);
	free(ua);
	free(q);
	return kh_finish();
}
