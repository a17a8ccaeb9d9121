/*
 * kh-outreach: a draft per candidate that cites the candidate's own
 * verified work, for a person to review and send. kh never sends mail.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "kh.h"

enum { FMT_NDJSON, FMT_MBOX, FMT_MD };
enum { OPT_MAX_WORDS = KH_OPT_TOOL, OPT_MIN_SCORE, OPT_TIER };

#define MAX_PICKS 2
#define MAIL_WIDTH 72

struct outreach {
	cJSON *brief;		/* as read, for the review sheet */
	cJSON *base;		/* the view's fields that come from the brief */
	const char *tname;	/* the template's name in messages */
	struct kh_tmpl *tmpl;
	int format;
	long long max_words;
	int have_min;
	double min_score;
	char **tiers;
	size_t ntiers;
	time_t now;
	unsigned long drafts, no_draft, filtered, other;
	int started;		/* md: the title is written */
};

/*
 * Words a template's own text may not use: a draft states the work, it
 * does not praise, claim seniority for the reader, or open generically.
 */
static const struct {
	const char *phrase, *why;
} refused[] = {
	{ "amazing", "is flattery" }, { "awesome", "is flattery" },
	{ "brilliant", "is flattery" }, { "exceptional", "is flattery" },
	{ "extraordinary", "is flattery" }, { "genius", "is flattery" },
	{ "guru", "is flattery" }, { "impressive", "is flattery" },
	{ "incredible", "is flattery" }, { "ninja", "is flattery" },
	{ "outstanding", "is flattery" }, { "passionate", "is flattery" },
	{ "remarkable", "is flattery" }, { "rockstar", "is flattery" },
	{ "rock star", "is flattery" }, { "stellar", "is flattery" },
	{ "superstar", "is flattery" }, { "talented", "is flattery" },
	{ "top-notch", "is flattery" }, { "unicorn", "is flattery" },
	{ "world-class", "is flattery" }, { "exciting", "is flattery" },
	{ "senior", "claims seniority" }, { "seasoned", "claims seniority" },
	{ "veteran", "claims seniority" }, { "expert", "claims seniority" },
	{ "experienced", "claims seniority" },
	{ "principal", "claims seniority" },
	{ "years of experience", "claims seniority" },
	{ "hope this finds you", "is a generic opener" },
	{ "hope you are well", "is a generic opener" },
	{ "hope you're well", "is a generic opener" },
	{ "came across your profile", "is a generic opener" },
	{ "reaching out", "is a generic opener" },
	{ "opportunity", "is a generic opener" },
	{ "quick question", "is a generic opener" },
};

static const char usage[] =
    "Usage: kh-outreach [-hqVv] [-b FILE] [-f FORMAT] [-t FILE] "
    "[--max-words=N] [--min-score=N] [--tier=TIER] [--strict] "
    "[--max-line=BYTES] [--unbuffered] [FILE...]\n"
    "  -b, --brief=FILE      the role brief (required)\n"
    "  -f, --format=FORMAT   ndjson (default), mbox or md\n"
    "  -t, --template=FILE   the draft's template (default: "
    "templates/default.tmpl)\n"
    "      --max-words=N     longest draft body in words (default 150)\n"
    "      --min-score=N     only candidates with score.total >= N\n"
    "      --tier=TIER       only candidates of this score.tier; repeat or "
    "use commas\n"
    "  -q, --quiet           mute warnings\n"
    "  -v, --verbose         counts on stderr at the end\n"
    "      --strict          stop at the first bad record (exit 3)\n"
    "      --max-line=BYTES  longest input line (default 16 MiB)\n"
    "      --unbuffered      flush after every record\n"
    "  -h, --help            this help\n"
    "  -V, --version         the version\n";

/* --- the brief and the template --------------------------------------- */

static const char *
need_str(const cJSON *j, const char *path, const char *file)
{
	const char *s = kh_get_str(j, path);

	if (s == NULL || *s == '\0')
		kh_die(KH_USAGE, "brief '%s': missing field '%s'", file, path);
	return s;
}

/* "A", "A and B", "A, B and C" */
static char *
join(const cJSON *list, const char *sep, const char *last)
{
	struct kh_buf b = { 0 };
	int n = cJSON_GetArraySize(list), i = 0;
	const cJSON *e;

	kh_buf_add(&b, "", 0);
	cJSON_ArrayForEach(e, list) {
		if (!cJSON_IsString(e) || e->valuestring[0] == '\0')
			continue;
		if (i > 0)
			kh_buf_adds(&b, i == n - 1 ? last : sep);
		kh_buf_adds(&b, e->valuestring);
		i++;
	}
	return kh_buf_detach(&b);
}

static cJSON *
strings(const cJSON *list, const char *file, const char *field)
{
	cJSON *out = cJSON_CreateArray();
	const cJSON *e;

	if (list && !cJSON_IsArray(list))
		kh_die(KH_USAGE, "brief '%s': '%s' must be a list of strings",
		    file, field);
	cJSON_ArrayForEach(e, list) {
		if (!cJSON_IsString(e))
			kh_die(KH_USAGE, "brief '%s': '%s' must be a list of "
			    "strings", file, field);
		if (e->valuestring[0])
			cJSON_AddItemToArray(out,
			    cJSON_CreateString(e->valuestring));
	}
	return out;
}

static void
load_brief(struct outreach *o, const char *file)
{
	cJSON *b = kh_load_json(file), *base = cJSON_CreateObject(), *s, *l;
	cJSON *v = cJSON_AddObjectToObject(base, "brief");
	const char *email;
	char *t;

	if (!cJSON_IsObject(b))
		kh_die(KH_USAGE, "brief '%s': not a JSON object", file);
	kh_add_str(v, "company", need_str(b, "company", file));
	kh_add_str(v, "role", need_str(b, "role", file));
	kh_add_str(v, "problem", need_str(b, "problem", file));
	l = strings(kh_get(b, "hardware"), file, "hardware");
	if (cJSON_GetArraySize(l) == 0)
		kh_die(KH_USAGE, "brief '%s': missing field 'hardware'", file);
	t = join(l, ", ", " and ");
	kh_add_str(v, "hardware", t);
	free(t);
	cJSON_AddItemToObject(v, "hardware_list", l);
	l = strings(kh_get(b, "constraints"), file, "constraints");
	t = join(l, "; ", "; ");
	kh_add_str(v, "constraints_text", t);
	free(t);
	cJSON_AddItemToObject(v, "constraints", l);
	l = strings(kh_get(b, "levers"), file, "levers");
	if (cJSON_GetArraySize(l) > 0)
		kh_add_str(v, "lever", cJSON_GetArrayItem(l, 0)->valuestring);
	cJSON_AddItemToObject(v, "levers", l);
	s = cJSON_AddObjectToObject(v, "sender");
	kh_add_str(s, "name", need_str(b, "sender.name", file));
	email = need_str(b, "sender.email", file);
	if (!kh_mail_addr_ok(email))
		kh_die(KH_USAGE, "brief '%s': sender.email '%s' is not a plain "
		    "address", file, email);
	kh_add_str(s, "email", email);
	if (kh_get_str(b, "sender.title") && *kh_get_str(b, "sender.title"))
		kh_add_str(s, "title", kh_get_str(b, "sender.title"));
	o->brief = b;
	o->base = base;
}

struct vocab {
	const char *tname;
};

static int
check_text(const char *text, unsigned line, void *arg)
{
	struct vocab *voc = arg;
	char *low = kh_strdup(text);

	for (char *p = low; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		size_t n = strlen(refused[i].phrase);

		for (char *p = low; (p = strstr(p, refused[i].phrase)); p++) {
			unsigned at = line;

			if ((p > low && isalnum((unsigned char)p[-1])) ||
			    isalnum((unsigned char)p[n]))
				continue;
			for (char *q = low; q < p; q++)
				at += *q == '\n';
			kh_die(KH_USAGE, "template '%s' line %u: '%s' %s: "
			    "state the work instead", voc->tname, at,
			    refused[i].phrase, refused[i].why);
		}
	}
	free(low);
	return 0;
}

static void
load_template(struct outreach *o, const char *file)
{
	char *path = file ? kh_strdup(file) :
	    kh_data_path("templates/default.tmpl");
	size_t len;
	char *src = kh_read_file(path, (size_t)1 << 20, &len), *fixed, *err;
	struct vocab voc;

	o->tname = file ? file : "default.tmpl";
	if (src == NULL)
		kh_die(KH_USAGE, "cannot read template '%s': %s", path,
		    strerror(errno));
	fixed = kh_utf8_repair(src, strlen(src));
	if (strncmp(fixed, "Subject:", 8) != 0)
		kh_die(KH_USAGE, "template '%s' line 1: the first line must "
		    "be 'Subject: ...'", o->tname);
	o->tmpl = kh_tmpl_parse(o->tname, fixed, &err);
	if (o->tmpl == NULL)
		kh_die(KH_USAGE, "%s", err);
	voc.tname = o->tname;
	kh_tmpl_text(o->tmpl, check_text, &voc);
	free(fixed);
	free(src);
	free(path);
}

/* --- choosing the evidence -------------------------------------------- */

static int
has_str(const cJSON *e, const char *k)
{
	const char *s = kh_get_str(e, k);

	return s && *s;
}

static double
num(const cJSON *e, const char *k, double dflt)
{
	const cJSON *j = kh_get(e, k);

	return cJSON_IsNumber(j) ? j->valuedouble : dflt;
}

/* The speedup a score signal measured on e, when it names hardware. */
static const cJSON *
speedup_of(const cJSON *cand, const char *id)
{
	const cJSON *sig, *ev;

	cJSON_ArrayForEach(sig, kh_get(cand, "score.signals")) {
		const cJSON *sp = kh_get(sig, "speedup");

		if (!cJSON_IsObject(sp) || !cJSON_IsNumber(kh_get(sp, "factor")))
			continue;
		cJSON_ArrayForEach(ev, kh_get(sig, "evidence"))
			if (cJSON_IsString(ev) && strcmp(ev->valuestring, id) == 0)
				return sp;
	}
	return NULL;
}

/*
 * The class of a piece of verified evidence, strongest first (0: not
 * something a draft can state), and its strength within the class.
 */
static int
classify(const cJSON *e, const cJSON *sp, double *strength)
{
	const char *kind = kh_get_str(e, "kind");
	int hw = sp && has_str(sp, "hardware");

	*strength = 0;
	if (kind == NULL)
		return 0;
	if (strcmp(kind, "leaderboard") == 0) {
		double rank = num(e, "rank", 0), ranked = num(e, "ranked", 0);

		if (!(has_str(e, "board") || has_str(e, "board_name")) ||
		    !has_str(e, "gpu") || rank < 1)
			return 0;
		*strength = ranked > 0 ? -rank / ranked : -rank;
		return cJSON_IsTrue(kh_get(e, "after_deadline")) ? 4 : 1;
	}
	if (strcmp(kind, "competition") == 0) {
		if (!has_str(e, "competition") || !has_str(e, "placing_text"))
			return 0;
		*strength = -num(e, "placing", 1000);
		return cJSON_IsTrue(kh_get(e, "self_reported")) ? 5 : 2;
	}
	if (strcmp(kind, "pr") == 0 || strcmp(kind, "commit") == 0) {
		int pr = kind[0] == 'p';

		if (!has_str(e, "repo") || !has_str(e, "title") ||
		    (pr && !cJSON_IsTrue(kh_get(e, "merged"))))
			return 0;
		if (hw) {
			*strength = num(sp, "factor", 0);
			return 3;
		}
		*strength = num(e, "added", 0) + num(e, "deleted", 0);
		if (cJSON_IsFalse(kh_get(e, "upstream")))
			return 9;
		return pr ? 6 : 8;
	}
	if (strcmp(kind, "paper") == 0) {
		if (!has_str(e, "title"))
			return 0;
		*strength = num(e, "year", 0);
		return 7;
	}
	if (strcmp(kind, "repo") == 0)
		return has_str(e, "repo") ? 10 : 0;
	if (strcmp(kind, "rating") == 0) {
		if (!cJSON_IsNumber(kh_get(e, "rating")) || !has_str(e, "source"))
			return 0;
		*strength = num(e, "rating", 0);
		return 11;
	}
	return 0;
}

struct pick {
	const cJSON *ev;
	const cJSON *speedup;
	int class;
	double strength;
};

static int
better(const struct pick *a, const struct pick *b)
{
	if (a->class != b->class)
		return a->class < b->class;
	if (a->strength != b->strength)
		return a->strength > b->strength;
	return strcmp(kh_get_str(a->ev, "id"), kh_get_str(b->ev, "id")) < 0;
}

static const char *
where(const cJSON *e)
{
	const char *s = kh_get_str(e, "repo");

	if (s == NULL)
		s = kh_get_str(e, "board");
	if (s == NULL)
		s = kh_get_str(e, "competition");
	return s ? s : "";
}

static int
cmp_pick(const void *a, const void *b)
{
	return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

/* Two pieces from one place (a repository, a board, a competition), or
 * of one kind with no place (papers, ratings), say the same thing twice. */
static int
same_place(const cJSON *a, const cJSON *b)
{
	if (*where(a) || *where(b))
		return strcmp(where(a), where(b)) == 0;
	return strcmp(kh_get_str(a, "kind"), kh_get_str(b, "kind")) == 0;
}

/* The strongest pieces of verified evidence, at most MAX_PICKS, from
 * different places. */
static int
choose(const cJSON *cand, struct pick *picks)
{
	const cJSON *e;
	struct pick *all;
	int n = 0, k = 0;

	all = kh_calloc((size_t)cJSON_GetArraySize(kh_get(cand, "evidence")) +
	    1, sizeof *all);
	cJSON_ArrayForEach(e, kh_get(cand, "evidence")) {
		struct pick *p = &all[n];
		const char *id = kh_get_str(e, "id");
		const char *verdict = kh_get_str(e, "authorship.verdict");

		if (id == NULL || *id == '\0' || verdict == NULL ||
		    strcmp(verdict, "verified") != 0 ||
		    !has_str(e, "kind"))
			continue;
		p->ev = e;
		p->speedup = speedup_of(cand, id);
		if ((p->class = classify(e, p->speedup, &p->strength)) != 0)
			n++;
	}
	qsort(all, (size_t)n, sizeof *all, cmp_pick);
	for (int i = 0; i < n && k < MAX_PICKS; i++)
		if (k == 0 || !same_place(all[i].ev, picks[0].ev))
			picks[k++] = all[i];
	free(all);
	return k;
}

/* --- the draft -------------------------------------------------------- */

static const char *
first_str(const cJSON *list)
{
	const cJSON *e = cJSON_GetArrayItem(list, 0);

	return cJSON_IsString(e) ? e->valuestring : NULL;
}

/* name, else the profile's name, a name seen in the evidence, a login, the
 * id: how the draft greets the candidate */
static const char *
display_name(const cJSON *c)
{
	const char *s[5];

	s[0] = kh_get_str(c, "name");
	s[1] = kh_get_str(c, "profile.name");
	s[2] = first_str(kh_get(c, "names"));
	s[3] = first_str(kh_get(c, "logins"));
	s[4] = kh_get_str(c, "id");
	for (size_t i = 0; i < 5; i++)
		if (s[i] && *s[i])
			return s[i];
	return "";
}

/* The public address from the candidate's profile; never guessed. */
static const char *
public_email(const cJSON *c)
{
	const char *s = kh_get_str(c, "profile.email");
	const cJSON *e;

	if (s && *s && kh_mail_addr_ok(s))
		return s;
	if (s && *s)
		kh_note("profile email of '%s' is not a plain address, not used",
		    kh_get_str(c, "id"));
	cJSON_ArrayForEach(e, kh_get(c, "evidence")) {
		const char *k = kh_get_str(e, "kind");
		const char *v = kh_get_str(e, "authorship.verdict");

		if (k && strcmp(k, "profile") == 0 && v &&
		    strcmp(v, "verified") == 0 &&
		    (s = kh_get_str(e, "profile.email")) && kh_mail_addr_ok(s))
			return s;
	}
	return NULL;
}

static cJSON *
make_pick(const struct pick *p)
{
	cJSON *j = cJSON_CreateObject();
	cJSON *ev = cJSON_Duplicate(p->ev, 1);
	const char *kind = kh_get_str(p->ev, "kind");

	kh_add_str(j, "id", kh_get_str(p->ev, "id"));
	kh_add_str(j, "kind", kind);
	if (has_str(p->ev, "url"))
		kh_add_str(j, "url", kh_get_str(p->ev, "url"));
	cJSON_DeleteItemFromObjectCaseSensitive(ev, "authorship");
	if (p->speedup)
		cJSON_AddItemToObject(ev, "speedup",
		    cJSON_Duplicate(p->speedup, 1));
	if (cJSON_GetArraySize(kh_get(p->ev, "members")) > 1)
		kh_add_bool(ev, "team", 1);
	/* the kind "repo" would hide the evidence's own field "repo" */
	cJSON_AddItemToObject(j, strcmp(kind, "repo") == 0 ? "repository" :
	    kind, ev);
	return j;
}

struct cite {
	const cJSON *picks, *lead;
	int used[MAX_PICKS];
};

static int
contains(const cJSON *tree, const cJSON *v)
{
	const cJSON *c;

	if (tree == v)
		return 1;
	cJSON_ArrayForEach(c, tree)
		if (contains(c, v))
			return 1;
	return 0;
}

/* The fact guard: which picks the rendered values came from. */
static void
seen(const cJSON *v, void *arg)
{
	struct cite *c = arg;
	const cJSON *p;
	int i = 0;

	cJSON_ArrayForEach(p, c->picks) {
		if (i < MAX_PICKS && contains(p, v))
			c->used[i] = 1;
		i++;
	}
	if (contains(c->lead, v))	/* "lead" is the first pick again */
		c->used[0] = 1;
}

/* Lines without trailing blanks, at most one empty line in a row, no
 * empty lines at either end. */
static char *
tidy(const char *s)
{
	struct kh_buf b = { 0 };
	int blank = 0;

	kh_buf_add(&b, "", 0);
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
		    s[n - 1] == '\r'))
			n--;
		if (n == 0) {
			blank = b.len > 0;
		} else {
			if (b.len)
				kh_buf_adds(&b, blank ? "\n\n" : "\n");
			kh_buf_add(&b, s, n);
			blank = 0;
		}
		s = nl ? nl + 1 : s + strlen(s);
	}
	return kh_buf_detach(&b);
}

/* s[0..n) without blanks at either end, as a new string */
static char *
trim(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return kh_strndup(s, n);
}

static long
words(const char *s)
{
	long n = 0;
	int in = 0;

	for (; *s; s++) {
		int sp = *s == ' ' || *s == '\n' || *s == '\t';

		if (!sp && !in)
			n++;
		in = !sp;
	}
	return n;
}

/*
 * Render the draft with npicks picks. Returns 0 with *subject, *body and
 * cites set; 1 when it is longer than --max-words (*nwords set); -1 after
 * reporting the record.
 */
static int
render(struct outreach *o, const cJSON *cand, const struct pick *picks,
    int npicks, const struct kh_pos *pos, char **subject, char **body,
    cJSON **cites, long *nwords)
{
	cJSON *view = cJSON_Duplicate(o->base, 1), *list;
	struct cite c = { 0 };
	struct kh_buf out = { 0 };
	char *err, *nl;
	int rc = -1;

	kh_add_str(cJSON_AddObjectToObject(view, "candidate"), "name",
	    display_name(cand));
	list = cJSON_AddArrayToObject(view, "picks");
	for (int i = 0; i < npicks; i++)
		cJSON_AddItemToArray(list, make_pick(&picks[i]));
	cJSON_AddItemToObject(view, "lead",
	    cJSON_Duplicate(cJSON_GetArrayItem(list, 0), 1));
	c.picks = list;
	c.lead = kh_get(view, "lead");
	if (kh_tmpl_render(o->tmpl, view, kh_tmpl_esc_text, seen, &c, &out,
	    &err) < 0) {
		kh_bad(pos, "%s", err);
		free(err);
		goto done;
	}
	nl = strchr(out.p, '\n');
	*subject = trim(out.p + 8, nl ? (size_t)(nl - out.p - 8) :
	    strlen(out.p + 8));
	*body = tidy(nl ? nl + 1 : "");
	if (**subject == '\0' || **body == '\0') {
		kh_bad(pos, "template '%s' made an empty %s", o->tname,
		    **subject ? "body" : "subject");
		free(*subject);
		free(*body);
		goto done;
	}
	*cites = cJSON_CreateArray();
	for (int i = 0; i < npicks; i++)
		if (c.used[i])
			cJSON_AddItemToArray(*cites, cJSON_CreateString(
			    kh_get_str(picks[i].ev, "id")));
	if (cJSON_GetArraySize(*cites) == 0) {
		kh_bad(pos, "template '%s' states none of the candidate's "
		    "evidence: a draft must cite the work", o->tname);
		free(*subject);
		free(*body);
		cJSON_Delete(*cites);
		goto done;
	}
	*nwords = words(*body);
	rc = *nwords > o->max_words ? 1 : 0;
	if (rc == 1) {
		free(*subject);
		free(*body);
		cJSON_Delete(*cites);
		*subject = *body = NULL;
		*cites = NULL;
	}
done:
	kh_buf_free(&out);
	cJSON_Delete(view);
	return rc;
}

/* --- output ----------------------------------------------------------- */

static void
put(const struct kh_buf *b)
{
	if (fwrite(b->p, 1, b->len, stdout) != b->len ||
	    (kh_opt.unbuffered && fflush(stdout) == EOF))
		kh_die(KH_SYS, "cannot write to standard output: %s",
		    strerror(errno));
}

static void
write_mbox(struct outreach *o, const cJSON *cand, const cJSON *out)
{
	struct kh_buf b = { 0 };
	char date[48];
	const char *to = kh_get_str(out, "to");
	const cJSON *c;

	kh_mail_from_line(&b, kh_get_str(o->base, "brief.sender.email"), o->now);
	kh_mail_addr_header(&b, "From", kh_get_str(o->base, "brief.sender.name"),
	    kh_get_str(o->base, "brief.sender.email"));
	if (to)
		kh_mail_addr_header(&b, "To", display_name(cand), to);
	kh_mail_header(&b, "Subject", kh_get_str(out, "subject"));
	kh_mail_date(o->now, date);
	kh_mail_header(&b, "Date", date);
	kh_buf_adds(&b, "MIME-Version: 1.0\n"
	    "Content-Type: text/plain; charset=utf-8\n"
	    "Content-Transfer-Encoding: 8bit\n");
	kh_mail_header(&b, "X-Kh-Candidate", kh_get_str(cand, "id"));
	cJSON_ArrayForEach(c, kh_get(out, "cites"))
		kh_mail_header(&b, "X-Kh-Cites", c->valuestring);
	kh_buf_addc(&b, '\n');
	kh_mail_body(&b, kh_get_str(out, "body"), MAIL_WIDTH);
	kh_buf_addc(&b, '\n');
	put(&b);
	kh_buf_free(&b);
}

static void
md_text(struct kh_buf *b, const char *s)
{
	kh_tmpl_esc_md(b, s, strlen(s));
}

static void
md_num(struct kh_buf *b, const cJSON *j)
{
	if (cJSON_IsNumber(j))
		kh_json_number(b, j->valuedouble);
	else if (cJSON_IsString(j))
		md_text(b, j->valuestring);
	else
		kh_buf_adds(b, "?");
}

/* [text](url) for an http(s) URL, percent-encoded so it cannot end the
 * link early; else the text alone. */
static void
md_link(struct kh_buf *b, const char *text, const char *url)
{
	if (url == NULL || (strncmp(url, "https://", 8) != 0 &&
	    strncmp(url, "http://", 7) != 0)) {
		md_text(b, text);
		return;
	}
	kh_buf_addc(b, '[');
	md_text(b, text);
	kh_buf_adds(b, "](");
	for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
		if (*p <= 0x20 || *p >= 0x7f || strchr("()<>[]\"`\\", *p))
			kh_buf_addf(b, "%%%02X", *p);
		else
			kh_buf_addc(b, *p);
	}
	kh_buf_addc(b, ')');
}

static void
md_candidate(struct outreach *o, const cJSON *cand, const cJSON *out)
{
	struct kh_buf b = { 0 };
	const cJSON *score = kh_get(cand, "score"), *comp = kh_get(cand, "comp");
	const cJSON *c, *e;
	const char *skipped = kh_get_str(out, "skipped"), *body;

	if (!o->started) {
		kh_buf_adds(&b, "# Outreach drafts: ");
		md_text(&b, kh_get_str(o->base, "brief.company"));
		kh_buf_adds(&b, ", ");
		md_text(&b, kh_get_str(o->base, "brief.role"));
		kh_buf_adds(&b, "\n\nFor review: kh never sends mail. Check every "
		    "cited link before you send.\n");
		o->started = 1;
	}
	kh_buf_adds(&b, "\n## ");
	md_text(&b, display_name(cand));
	kh_buf_adds(&b, " (");
	md_text(&b, kh_get_str(cand, "id"));
	kh_buf_adds(&b, ")\n\n");
	if (!skipped) {
		kh_buf_adds(&b, "- To: ");
		if (kh_get_str(out, "to"))
			md_text(&b, kh_get_str(out, "to"));
		else
			kh_buf_adds(&b, "no public address in the profile");
		kh_buf_adds(&b, "\n");
	}
	kh_buf_adds(&b, "- Score: ");
	if (cJSON_IsObject(score)) {
		md_num(&b, kh_get(score, "total"));
		kh_buf_adds(&b, ", tier ");
		md_num(&b, kh_get(score, "tier"));
		if (kh_get_str(score, "specialty")) {
			kh_buf_adds(&b, ", specialty ");
			md_text(&b, kh_get_str(score, "specialty"));
		}
	} else {
		kh_buf_adds(&b, "none (run kh-score)");
	}
	kh_buf_adds(&b, "\n- Comp band: ");
	if (cJSON_IsObject(kh_get(comp, "band"))) {
		md_num(&b, kh_get(comp, "band.low"));
		kh_buf_adds(&b, " to ");
		md_num(&b, kh_get(comp, "band.high"));
		kh_buf_adds(&b, " ");
		md_num(&b, kh_get(comp, "band.currency"));
		if (kh_get(comp, "band.basis")) {
			kh_buf_adds(&b, " (");
			md_num(&b, kh_get(comp, "band.basis"));
			kh_buf_adds(&b, ")");
		}
		if (kh_get(comp, "band.mid")) {
			kh_buf_adds(&b, ", mid ");
			md_num(&b, kh_get(comp, "band.mid"));
		}
		if (kh_get(comp, "opening_offer")) {
			kh_buf_adds(&b, "; opening offer ");
			md_num(&b, kh_get(comp, "opening_offer"));
		}
		if (kh_get(comp, "walk_away")) {
			kh_buf_adds(&b, "; walk away above ");
			md_num(&b, kh_get(comp, "walk_away"));
		}
	} else {
		kh_buf_adds(&b, "none (run kh-comp)");
	}
	kh_buf_adds(&b, "\n");
	if (skipped) {
		kh_buf_adds(&b, "\nNo draft: ");
		md_text(&b, skipped);
		kh_buf_adds(&b, "\n");
	} else {
		size_t run = 0, best = 2;

		body = kh_get_str(out, "body");
		for (const char *p = body; *p; p++) {
			run = *p == '`' ? run + 1 : 0;
			if (run > best)
				best = run;
		}
		kh_buf_adds(&b, "\n### Draft\n\nSubject: ");
		md_text(&b, kh_get_str(out, "subject"));
		kh_buf_adds(&b, "\n\n");
		for (size_t i = 0; i <= best; i++)
			kh_buf_addc(&b, '`');
		kh_buf_adds(&b, "text\n");
		kh_buf_adds(&b, body);
		kh_buf_addc(&b, '\n');
		for (size_t i = 0; i <= best; i++)
			kh_buf_addc(&b, '`');
		kh_buf_adds(&b, "\n\n### Cited evidence\n\n");
		cJSON_ArrayForEach(c, kh_get(out, "cites")) {
			cJSON_ArrayForEach(e, kh_get(cand, "evidence"))
				if (kh_get_str(e, "id") &&
				    strcmp(kh_get_str(e, "id"), c->valuestring) == 0)
					break;
			kh_buf_adds(&b, "- ");
			md_link(&b, c->valuestring, kh_get_str(e, "url"));
			if (kh_get_str(e, "kind")) {
				kh_buf_adds(&b, " (");
				md_text(&b, kh_get_str(e, "kind"));
				if (kh_get_str(e, "at")) {
					kh_buf_adds(&b, ", ");
					md_text(&b, kh_get_str(e, "at"));
				}
				kh_buf_adds(&b, ")");
			}
			kh_buf_adds(&b, "\n");
		}
	}
	if (cJSON_GetArraySize(kh_get(score, "signals")) > 0) {
		kh_buf_adds(&b, "\n### Why this score\n\n");
		cJSON_ArrayForEach(c, kh_get(score, "signals")) {
			kh_buf_adds(&b, "- ");
			md_num(&b, kh_get(c, "signal"));
			kh_buf_adds(&b, " +");
			md_num(&b, kh_get(c, "points"));
			kh_buf_adds(&b, ": ");
			md_num(&b, kh_get(c, "why"));
			kh_buf_adds(&b, "\n");
		}
	}
	put(&b);
	kh_buf_free(&b);
}

/* --- the record handler ----------------------------------------------- */

static int
tier_wanted(const struct outreach *o, const char *tier)
{
	for (size_t i = 0; i < o->ntiers; i++)
		if (strcmp(o->tiers[i], tier) == 0)
			return 1;
	return 0;
}

static int
outreach(cJSON *rec, const struct kh_pos *pos, void *ctx)
{
	struct outreach *o = ctx;
	struct pick picks[MAX_PICKS];
	cJSON *out, *cites = NULL;
	char *subject = NULL, *body = NULL, *why = NULL;
	int n, rc = 1;
	long nwords = 0;

	if (strcmp(kh_get_str(rec, "type"), "candidate") != 0) {
		o->other++;
		if (o->format == FMT_NDJSON)
			kh_emit(rec);
		return 0;
	}
	if (!has_str(rec, "id") || !cJSON_IsArray(kh_get(rec, "evidence"))) {
		kh_bad(pos, "missing required field '%s'",
		    has_str(rec, "id") ? "evidence" : "id");
		return -1;
	}
	if (o->have_min || o->ntiers) {
		const cJSON *total = kh_get(rec, "score.total");
		const char *tier = kh_get_str(rec, "score.tier");

		if (o->have_min && !cJSON_IsNumber(total)) {
			kh_bad(pos, "missing required field 'score.total' "
			    "(--min-score)");
			return -1;
		}
		if (o->ntiers && tier == NULL) {
			kh_bad(pos, "missing required field 'score.tier' "
			    "(--tier)");
			return -1;
		}
		if ((o->have_min && total->valuedouble < o->min_score) ||
		    (o->ntiers && !tier_wanted(o, tier))) {
			o->filtered++;
			return 0;
		}
	}
	n = choose(rec, picks);
	if (n == 0) {
		why = kh_strdup("no verified evidence a draft can state: every "
		    "claim must cite the candidate's own verified work");
	} else {
		while (n > 0 && (rc = render(o, rec, picks, n, pos, &subject,
		    &body, &cites, &nwords)) == 1)
			n--;
		if (rc < 0)
			return -1;
		if (rc == 1)
			why = kh_asprintf("the draft is %ld words, over "
			    "--max-words=%lld", nwords, o->max_words);
	}
	out = cJSON_CreateObject();
	if (why) {
		kh_add_str(out, "skipped", why);
		o->no_draft++;
	} else {
		const char *to = public_email(rec);

		kh_add_str(out, "subject", subject);
		kh_add_str(out, "body", body);
		cJSON_AddItemToObject(out, "cites", cites);
		kh_add_str(out, "to", to);
		o->drafts++;
	}
	kh_set(rec, "outreach", out);
	if (o->format == FMT_NDJSON)
		kh_emit(rec);
	else if (o->format == FMT_MD)
		md_candidate(o, rec, out);
	else if (!why)
		write_mbox(o, rec, out);
	free(subject);
	free(body);
	free(why);
	return 0;
}

static double
score_arg(const char *arg)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(arg, &end);
	if (arg[0] == '\0' || *end != '\0' || errno || !(d >= 0 && d <= 100))
		kh_usage("option '--min-score' wants a number from 0 to 100, "
		    "not '%s'", arg);
	return d;
}

static void
add_tiers(struct outreach *o, const char *arg)
{
	char *s = kh_strdup(arg), *p = s, *comma;

	do {
		if ((comma = strchr(p, ',')) != NULL)
			*comma = '\0';
		if (*p == '\0')
			kh_usage("option '--tier' wants a tier, not '%s'", arg);
		o->tiers = kh_realloc(o->tiers, (o->ntiers + 1) *
		    sizeof *o->tiers);
		o->tiers[o->ntiers++] = kh_strdup(p);
		p = comma + 1;
	} while (comma);
	free(s);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "brief", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "template", required_argument, NULL, 't' },
		{ "max-words", required_argument, NULL, OPT_MAX_WORDS },
		{ "min-score", required_argument, NULL, OPT_MIN_SCORE },
		{ "tier", required_argument, NULL, OPT_TIER },
		{ NULL, 0, NULL, 0 }
	};
	struct outreach o = { 0 };
	const char *brief = NULL, *tmpl = NULL;
	int c;

	kh_init(argv[0]);
	kh_usage_text = usage;
	o.max_words = 150;
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS "b:f:t:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'b':
			brief = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "ndjson") == 0)
				o.format = FMT_NDJSON;
			else if (strcmp(optarg, "mbox") == 0)
				o.format = FMT_MBOX;
			else if (strcmp(optarg, "md") == 0)
				o.format = FMT_MD;
			else
				kh_usage("option '--format' wants ndjson, mbox "
				    "or md, not '%s'", optarg);
			break;
		case 't':
			tmpl = optarg;
			break;
		case OPT_MAX_WORDS:
			o.max_words = kh_opt_num("--max-words", optarg, 20,
			    100000);
			break;
		case OPT_MIN_SCORE:
			o.min_score = score_arg(optarg);
			o.have_min = 1;
			break;
		case OPT_TIER:
			add_tiers(&o, optarg);
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	if (brief == NULL)
		kh_usage("option '--brief' is required");
	load_brief(&o, brief);
	load_template(&o, tmpl);
	o.now = kh_now();
	kh_loop(argc - optind, argv + optind, outreach, &o);
	kh_note("drafts: %lu; no draft: %lu; filtered out by --min-score or "
	    "--tier: %lu; not candidates: %lu", o.drafts, o.no_draft,
	    o.filtered, o.other);
	kh_tmpl_free(o.tmpl);
	cJSON_Delete(o.brief);
	cJSON_Delete(o.base);
	for (size_t i = 0; i < o.ntiers; i++)
		free(o.tiers[i]);
	free(o.tiers);
	return kh_finish();
}
