/*
 * kh-comp: price the offer for each scored candidate in the right pay
 * universe. The seed's rule: there are two pay universes (chip makers and
 * frontier labs on one side, everyone else on the other), and knowing which
 * one you are in is the most important budgeting decision. Every figure
 * comes from share/kh/comp.json (or --data) with its source; this file only
 * holds the arithmetic and the wording of the advice.
 *
 * A candidate record gets one key, "comp": the band of its tier in the
 * hiring universe, an opening offer strong enough to be final (so it does
 * not invite a counteroffer auction), the walk-away, the counteroffer risk,
 * the fit with the brief's budget, levers, cautions and sources. Records of
 * other types pass through unchanged. The tool streams: constant memory.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kh.h"

#define FIG_MAX 1000000000000LL	/* no band or budget is a trillion */
#define DATA_MAX ((size_t)16 << 20)

/* score.tier values, as kh-score(1) writes them; the record contract. */
enum { TIER_N = 6 };
static const char *const tier_names[TIER_N] = {
	"principal", "staff", "senior", "mid", "junior", "unproven"
};
static const char *const bases[] = {
	"reported", "derived", "policy", "assumption", NULL
};

/* One figure of the data file; src is its array of source ids (borrowed). */
struct fig {
	long long v;
	const cJSON *src;
};

struct band {
	int priced;		/* low, mid and high are set */
	const char *unpriced;	/* else why there is no band (borrowed) */
	struct fig low, mid, high;
};

struct universe {
	const char *name;
	int hourly;		/* pay "hourly": contract rates, not a salary */
	const char *equity;	/* liquid, illiquid or none */
	long long round_to;
	const cJSON *employers, *cautions;
	const char *caution_from;	/* when a candidate leaves it */
	int has_sign_on;
	struct fig sign_on_low, sign_on_high;
	const char *counter_risk, *counter_why;	/* hourly: fixed advice */
	struct fig project_hours;		/* hourly */
	struct band tier[TIER_N];
};

struct comp {
	/* the data file, all borrowed from data */
	cJSON *data;
	const char *path;
	const char *as_of, *currency, *lead_with;
	const cJSON *sources, *levers, *cautions;
	struct fig opening_pct, co_low, co_high;
	struct universe *u;
	size_t nu;
	/* the run */
	struct universe *hire;
	int has_budget;
	long long budget_max;	/* per year, or per hour when hiring hourly */
	const cJSON *brief_levers;
	long long hours;
	const char *hours_basis;
};

/* What the candidate would be offered to stay. */
struct counter {
	int known;		/* low and high are set */
	int estimated;		/* from a band, not comp_hint.current_total */
	long long base, low, high;
	const char *risk;
	struct kh_buf why;
};

/* ---- loading and checking the data file ---- */

KH_PRINTF(3, 4) KH_NORETURN static void
bad_file(const char *kind, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	kh_die(KH_DATA, "bad %s '%s': %s", kind, path, msg);
}

/* Where in the data file a message points: a path built in buf. */
#define WHERE(buf, ...) (snprintf(buf, sizeof buf, __VA_ARGS__), buf)

/* Read and parse a JSON object: exit 4 when unreadable, 3 when not JSON. */
static cJSON *
load_object(const char *kind, const char *path)
{
	size_t len, line = 1, col = 1;
	const char *end = NULL;
	char *s = kh_read_file(path, DATA_MAX, &len);
	cJSON *j;

	if (s == NULL)
		kh_die(KH_SYS, "cannot read %s '%s': %s", kind, path,
		    strerror(errno));
	j = cJSON_ParseWithLengthOpts(s, len + 1, &end, 1);
	if (j == NULL) {
		size_t off = end && end >= s ? (size_t)(end - s) : 0;

		for (size_t i = 0; i < off && i < len; i++, col++)
			if (s[i] == '\n')
				line++, col = 0;
		free(s);
		bad_file(kind, path, "%zu:%zu: invalid JSON", line, col);
	}
	free(s);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		bad_file(kind, path, "not a JSON object");
	}
	return j;
}

static int
in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static const char *
need_str(const struct comp *c, const cJSON *obj, const char *where,
    const char *key)
{
	const char *s = kh_get_str(obj, key);

	if (s == NULL)
		bad_file("pay data", c->path, "%s%s: missing string", where, key);
	return s;
}

static void
need_strings(const struct comp *c, const cJSON *a, const char *where)
{
	const cJSON *e;

	if (!cJSON_IsArray(a))
		bad_file("pay data", c->path, "%s: missing array of strings",
		    where);
	cJSON_ArrayForEach(e, a)
		if (!cJSON_IsString(e))
			bad_file("pay data", c->path, "%s: not all strings",
			    where);
}

/* A figure: {value, basis, src, as_of}; every src id must be a source. */
static void
need_fig(const struct comp *c, const cJSON *obj, const char *where,
    const char *key, struct fig *f)
{
	const cJSON *j = kh_get(obj, key), *e;
	const char *basis;

	if (!cJSON_IsObject(j))
		bad_file("pay data", c->path, "%s%s: missing figure", where,
		    key);
	if (kh_get_int(j, "value", &f->v) < 0 || f->v < 0 || f->v > FIG_MAX)
		bad_file("pay data", c->path, "%s%s.value: not a whole number "
		    "from 0 to %lld", where, key, FIG_MAX);
	basis = kh_get_str(j, "basis");
	if (basis == NULL || !in_list(basis, bases))
		bad_file("pay data", c->path, "%s%s.basis: not one of reported, "
		    "derived, policy, assumption", where, key);
	if (kh_get_str(j, "as_of") == NULL)
		bad_file("pay data", c->path, "%s%s.as_of: missing string",
		    where, key);
	f->src = cJSON_GetObjectItemCaseSensitive(j, "src");
	if (!cJSON_IsArray(f->src))
		bad_file("pay data", c->path, "%s%s.src: missing array", where,
		    key);
	cJSON_ArrayForEach(e, f->src)
		if (!cJSON_IsString(e) || kh_get_str(
		    cJSON_GetObjectItemCaseSensitive(c->sources,
		    e->valuestring), "name") == NULL)
			bad_file("pay data", c->path, "%s%s.src: '%s' is not "
			    "in sources", where, key, cJSON_IsString(e) ?
			    e->valuestring : "(not a string)");
}

static int
tier_index(const char *s)
{
	for (int t = 0; t < TIER_N; t++)
		if (strcmp(s, tier_names[t]) == 0)
			return t;
	return -1;
}

static void
load_band(const struct comp *c, const cJSON *j, const char *where,
    struct band *b)
{
	if (!cJSON_IsObject(j))
		bad_file("pay data", c->path, "%s: not an object", where);
	char w[400];

	if ((b->unpriced = kh_get_str(j, "unpriced")) != NULL)
		return;
	need_fig(c, j, WHERE(w, "%s.", where), "low", &b->low);
	need_fig(c, j, w, "mid", &b->mid);
	need_fig(c, j, w, "high", &b->high);
	if (b->low.v > b->mid.v || b->mid.v > b->high.v || b->high.v == 0)
		bad_file("pay data", c->path, "%s: low, mid and high must "
		    "rise, and high be above 0", where);
	b->priced = 1;
}

static void
load_universe(const struct comp *c, const cJSON *j, struct universe *u)
{
	char w[256], w2[320];
	const char *pay;
	const cJSON *t, *so;

	u->name = j->string;
	WHERE(w, "universes.%s.", u->name);
	if (!cJSON_IsObject(j))
		bad_file("pay data", c->path, "universes.%s: not an object",
		    u->name);
	pay = need_str(c, j, w, "pay");
	if (strcmp(pay, "salary") != 0 && strcmp(pay, "hourly") != 0)
		bad_file("pay data", c->path, "%spay: not salary or hourly", w);
	u->hourly = strcmp(pay, "hourly") == 0;
	u->equity = need_str(c, j, w, "equity");
	if (!in_list(u->equity, (const char *const[]){ "liquid", "illiquid",
	    "none", NULL }))
		bad_file("pay data", c->path, "%sequity: not liquid, illiquid "
		    "or none", w);
	{
		struct fig r;

		need_fig(c, j, w, "round_to", &r);
		if (r.v < 1)
			bad_file("pay data", c->path, "%sround_to: below 1", w);
		u->round_to = r.v;
	}
	u->employers = cJSON_GetObjectItemCaseSensitive(j, "employers");
	need_strings(c, u->employers, WHERE(w2, "%semployers", w));
	u->cautions = cJSON_GetObjectItemCaseSensitive(j, "cautions");
	need_strings(c, u->cautions, WHERE(w2, "%scautions", w));
	u->caution_from = kh_get_str(j, "caution_from");
	if ((so = cJSON_GetObjectItemCaseSensitive(j, "sign_on")) != NULL) {
		need_fig(c, so, WHERE(w2, "%ssign_on.", w), "low",
		    &u->sign_on_low);
		need_fig(c, so, w2, "high", &u->sign_on_high);
		u->has_sign_on = 1;
	}
	if (u->hourly) {
		need_fig(c, j, w, "project_hours", &u->project_hours);
		u->counter_risk = need_str(c, j, w, "counteroffer.risk");
		u->counter_why = need_str(c, j, w, "counteroffer.why");
	}
	t = cJSON_GetObjectItemCaseSensitive(j, "tiers");
	if (!cJSON_IsObject(t))
		bad_file("pay data", c->path, "%stiers: missing object", w);
	for (const cJSON *e = t->child; e; e = e->next) {
		int i = tier_index(e->string);

		if (i < 0)
			bad_file("pay data", c->path, "%stiers.%s: unknown "
			    "tier", w, e->string);
		load_band(c, e, WHERE(w2, "%stiers.%s", w, e->string),
		    &u->tier[i]);
	}
}

static void
load_data(struct comp *c)
{
	const cJSON *j, *e;
	time_t t;
	size_t i = 0;

	c->data = load_object("pay data", c->path);
	j = c->data;
	c->as_of = need_str(c, j, "", "as_of");
	if (kh_parse_time(c->as_of, &t) < 0)
		bad_file("pay data", c->path, "as_of: not a date '%s'",
		    c->as_of);
	c->currency = need_str(c, j, "", "currency");
	c->sources = cJSON_GetObjectItemCaseSensitive(j, "sources");
	if (!cJSON_IsObject(c->sources))
		bad_file("pay data", c->path, "sources: missing object");
	cJSON_ArrayForEach(e, c->sources) {
		char w[256];

		need_str(c, e, WHERE(w, "sources.%s.", e->string), "name");
		need_str(c, e, w, "as_of");
		need_str(c, e, w, "says");
	}
	need_fig(c, j, "", "offer.opening_pct", &c->opening_pct);
	if (c->opening_pct.v > 100)
		bad_file("pay data", c->path, "offer.opening_pct: above 100");
	c->lead_with = need_str(c, j, "", "offer.lead_with");
	need_fig(c, j, "", "counteroffer.low_pct", &c->co_low);
	need_fig(c, j, "", "counteroffer.high_pct", &c->co_high);
	if (c->co_low.v > c->co_high.v || c->co_high.v > 1000)
		bad_file("pay data", c->path, "counteroffer: low_pct must not "
		    "be above high_pct, nor high_pct above 1000");
	c->levers = cJSON_GetObjectItemCaseSensitive(j, "levers");
	need_strings(c, c->levers, "levers");
	c->cautions = cJSON_GetObjectItemCaseSensitive(j, "cautions");
	if (!cJSON_IsObject(c->cautions))
		bad_file("pay data", c->path, "cautions: missing object");
	need_str(c, c->cautions, "cautions.", "liquid_to_illiquid");
	need_str(c, c->cautions, "cautions.", "illiquid_to_liquid");
	need_str(c, c->cautions, "cautions.", "current_grant_date");
	j = cJSON_GetObjectItemCaseSensitive(c->data, "universes");
	if (!cJSON_IsObject(j) || j->child == NULL)
		bad_file("pay data", c->path, "universes: missing object");
	c->nu = (size_t)cJSON_GetArraySize(j);
	c->u = kh_calloc(c->nu, sizeof *c->u);
	cJSON_ArrayForEach(e, j)
		load_universe(c, e, &c->u[i++]);
}

/* The figures change month to month: say so once when they are old. */
static void
check_stale(const struct comp *c)
{
	struct tm tm;
	time_t t;

	kh_parse_time(c->as_of, &t);
	gmtime_r(&t, &tm);
	tm.tm_mon += 6;
	if (kh_now() > timegm(&tm))
		kh_warn("stale pay data '%s': as of %s, more than six months "
		    "ago; the figures change month to month, verify them "
		    "against current sources", c->path, c->as_of);
}

static struct universe *
find_universe(const struct comp *c, const char *name)
{
	for (size_t i = 0; i < c->nu; i++)
		if (strcmp(c->u[i].name, name) == 0)
			return &c->u[i];
	return NULL;
}

/* "chip, frontier, startup, contract", for messages (static buffer). */
static const char *
universe_list(const struct comp *c)
{
	static struct kh_buf b;

	kh_buf_reset(&b);
	for (size_t i = 0; i < c->nu; i++)
		kh_buf_addf(&b, "%s%s", i ? ", " : "", c->u[i].name);
	return b.p;
}

/* ---- the brief: universe, budget, levers ---- */

static long long
brief_money(const cJSON *brief, const char *path, const char *key)
{
	long long v;

	if (kh_get_int(brief, key, &v) < 0 || v < 1 || v > FIG_MAX)
		bad_file("brief", path, "%s: not a whole number from 1 to %lld",
		    key, FIG_MAX);
	return v;
}

static void
load_brief(struct comp *c, const char *path, cJSON *brief)
{
	const char *s;
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(brief, "budget");

	if (c->hire == NULL) {
		if ((s = kh_get_str(brief, "universe")) == NULL)
			bad_file("brief", path, "no 'universe' (%s), and no "
			    "--universe", universe_list(c));
		if ((c->hire = find_universe(c, s)) == NULL)
			bad_file("brief", path, "unknown universe '%s' (%s)",
			    s, universe_list(c));
	}
	c->brief_levers = cJSON_GetObjectItemCaseSensitive(brief, "levers");
	if (c->brief_levers != NULL) {
		const cJSON *e;

		if (!cJSON_IsArray(c->brief_levers))
			bad_file("brief", path, "levers: not an array");
		cJSON_ArrayForEach(e, c->brief_levers)
			if (!cJSON_IsString(e))
				bad_file("brief", path, "levers: not all "
				    "strings");
	}
	if (b == NULL || cJSON_IsNull(b)) {
		kh_warn("brief '%s' has no budget: in_budget and gap_to_budget "
		    "will be null", path);
		return;
	}
	if (!cJSON_IsObject(b))
		bad_file("brief", path, "budget: not an object");
	if ((s = kh_get_str(b, "currency")) == NULL)
		bad_file("brief", path, "budget.currency: missing");
	if (strcmp(s, c->currency) != 0)
		bad_file("brief", path, "budget.currency '%s' is not the pay "
		    "data's '%s': give --data with bands in %s", s,
		    c->currency, s);
	if (c->hire->hourly) {
		if (kh_get(b, "hourly_max") == NULL)
			bad_file("brief", path, "budget.hourly_max: missing, "
			    "and the %s universe pays by the hour",
			    c->hire->name);
		c->budget_max = brief_money(brief, path, "budget.hourly_max");
		if (kh_get(b, "hours") != NULL && c->hours_basis == NULL) {
			c->hours = brief_money(brief, path, "budget.hours");
			c->hours_basis = "brief";
		}
	} else {
		if (kh_get(b, "max") == NULL)
			bad_file("brief", path, "budget.max: missing, and the "
			    "%s universe pays a salary", c->hire->name);
		s = kh_get_str(b, "basis");
		if (s == NULL || strcmp(s, "total") != 0)
			bad_file("brief", path, "budget.basis: '%s', but the "
			    "bands are total compensation: set \"total\"",
			    s ? s : "missing");
		c->budget_max = brief_money(brief, path, "budget.max");
	}
	c->has_budget = 1;
}

/* ---- pricing ---- */

static long long
round_up(long long v, long long step)
{
	return (v + step - 1) / step * step;
}

/* v percent above base, rounded half up to a whole unit. */
static long long
pct_above(long long base, long long pct)
{
	return (base * (100 + pct) + 50) / 100;
}

/* Append 1234567 as "1,234,567". */
static void
add_money(struct kh_buf *b, long long v)
{
	char s[32];
	int n = snprintf(s, sizeof s, "%lld", v);

	for (int i = 0; i < n; i++) {
		if (i > 0 && s[i - 1] != '-' && (n - i) % 3 == 0)
			kh_buf_addc(b, ',');
		kh_buf_addc(b, s[i]);
	}
}

static void
add_amount(struct kh_buf *b, const struct comp *c, long long v)
{
	add_money(b, v);
	kh_buf_addf(b, " %s", c->currency);
}

static void
add_range(struct kh_buf *b, const struct comp *c, long long lo, long long hi)
{
	add_money(b, lo);
	kh_buf_adds(b, "-");
	add_amount(b, c, hi);
}

/* Add the names of a figure's sources to out, each once. */
static void
add_sources(cJSON *out, const struct comp *c, const struct fig *f)
{
	const cJSON *e, *o;

	cJSON_ArrayForEach(e, f->src) {
		const char *name = kh_get_str(
		    cJSON_GetObjectItemCaseSensitive(c->sources,
		    e->valuestring), "name");
		int seen = 0;

		cJSON_ArrayForEach(o, out)
			seen |= strcmp(o->valuestring, name) == 0;
		if (!seen)
			cJSON_AddItemToArray(out, cJSON_CreateString(name));
	}
}

static void
add_text(cJSON *arr, struct kh_buf *b)
{
	cJSON_AddItemToArray(arr, cJSON_CreateString(b->p));
	kh_buf_reset(b);
}

/* The candidate's current universe: comp_hint.universe, else employer. */
static struct universe *
from_employer(const struct comp *c, const char *employer)
{
	const cJSON *e;

	for (size_t i = 0; employer && i < c->nu; i++)
		cJSON_ArrayForEach(e, c->u[i].employers)
			if (strcasecmp(e->valuestring, employer) == 0)
				return &c->u[i];
	return NULL;
}

/*
 * What an employer would counter with: 30-60% (from the data) above the
 * candidate's current total, or, without it, above the mid of the band
 * of their tier in the universe they are paid in now.
 */
static void
estimate_counter(const struct comp *c, const struct universe *from, int t,
    const long long *current, struct counter *co, cJSON *sources)
{
	const struct band *fb = &from->tier[t];

	if (c->hire->hourly || (current == NULL && from->hourly)) {
		const struct universe *u = c->hire->hourly ? c->hire : from;

		co->risk = u->counter_risk;
		kh_buf_adds(&co->why, u->counter_why);
		return;
	}
	if (current) {
		co->base = *current;
		kh_buf_adds(&co->why, "current total ");
		add_amount(&co->why, c, co->base);
		kh_buf_adds(&co->why, " (comp_hint.current_total)");
	} else if (fb->priced) {
		co->base = fb->mid.v;
		co->estimated = 1;
		kh_buf_addf(&co->why, "no current total known: estimated "
		    "from the mid of the %s %s band, ", from->name,
		    tier_names[t]);
		add_amount(&co->why, c, co->base);
		add_sources(sources, c, &fb->mid);
	} else {
		co->risk = "unknown";
		kh_buf_addf(&co->why, "no current total known, and no %s band "
		    "in the %s universe to estimate it from: ask for it and "
		    "set comp_hint.current_total", tier_names[t], from->name);
		return;
	}
	co->known = 1;
	co->low = pct_above(co->base, c->co_low.v);
	co->high = pct_above(co->base, c->co_high.v);
	kh_buf_addf(&co->why, "; incumbents are routinely pushed %lld-%lld%% "
	    "above that once they signal they might leave, so expect ",
	    c->co_low.v, c->co_high.v);
	add_range(&co->why, c, co->low, co->high);
	add_sources(sources, c, &c->co_low);
	add_sources(sources, c, &c->co_high);
}

static void
judge_counter(const struct comp *c, struct counter *co, long long walk)
{
	if (!co->known)
		return;
	kh_buf_adds(&co->why, "; your walk-away of ");
	add_amount(&co->why, c, walk);
	if (walk >= co->high) {
		co->risk = "low";
		kh_buf_adds(&co->why, " beats it");
	} else if (walk >= co->low) {
		co->risk = "medium";
		kh_buf_adds(&co->why, " is inside it: a counter can match you");
	} else {
		co->risk = "high";
		kh_buf_adds(&co->why, " is below it: a counter would outbid "
		    "you; decide before you offer whether to go higher, and "
		    "do not enter an auction");
	}
	if (co->estimated)
		kh_buf_adds(&co->why, "; ask for the current total and set "
		    "comp_hint.current_total");
}

static cJSON *
band_json(const struct comp *c, const struct band *b, const char *basis)
{
	cJSON *j = cJSON_CreateObject();

	kh_add_int(j, "low", b->low.v);
	kh_add_int(j, "mid", b->mid.v);
	kh_add_int(j, "high", b->high.v);
	kh_add_str(j, "currency", c->currency);
	kh_add_str(j, "basis", basis);
	return j;
}

static cJSON *
levers_json(const struct comp *c, const struct counter *co)
{
	cJSON *j = cJSON_CreateArray(), *e;
	const cJSON *src = c->brief_levers ? c->brief_levers : c->levers;

	cJSON_AddItemToArray(j, cJSON_CreateString(c->lead_with));
	cJSON_ArrayForEach(e, src)
		cJSON_AddItemToArray(j, cJSON_CreateString(e->valuestring));
	if (c->hire->has_sign_on && co->risk && (strcmp(co->risk, "high") == 0
	    || strcmp(co->risk, "medium") == 0)) {
		struct kh_buf b = { 0 };

		kh_buf_adds(&b, "a sign-on bonus of ");
		add_range(&b, c, c->hire->sign_on_low.v, c->hire->sign_on_high.v);
		kh_buf_addf(&b, ", usual for contested hires in the %s "
		    "universe: use it to replace the unvested equity the "
		    "candidate leaves behind", c->hire->name);
		add_text(j, &b);
		kh_buf_free(&b);
	}
	return j;
}

/* Cautions about equity that depend on where the candidate comes from. */
static void
from_cautions(const struct comp *c, const struct universe *from,
    int has_current, cJSON *out)
{
	const struct universe *h = c->hire;

	if (from != h && strcmp(from->equity, "liquid") == 0 &&
	    strcmp(h->equity, "illiquid") == 0)
		cJSON_AddItemToArray(out, cJSON_CreateString(kh_get_str(
		    c->cautions, "liquid_to_illiquid")));
	if (from != h && strcmp(from->equity, "illiquid") == 0 &&
	    strcmp(h->equity, "liquid") == 0)
		cJSON_AddItemToArray(out, cJSON_CreateString(kh_get_str(
		    c->cautions, "illiquid_to_liquid")));
	if (from != h && from->caution_from)
		cJSON_AddItemToArray(out, cJSON_CreateString(
		    from->caution_from));
	if (has_current && strcmp(from->equity, "none") != 0)
		cJSON_AddItemToArray(out, cJSON_CreateString(kh_get_str(
		    c->cautions, "current_grant_date")));
}

static void
budget_caution(const struct comp *c, const struct band *b, int t,
    long long target, cJSON *out)
{
	struct kh_buf m = { 0 };

	if (!c->has_budget) {
		kh_buf_addf(&m, "no budget given: in_budget and gap_to_budget "
		    "are null; set budget.%s in the brief",
		    c->hire->hourly ? "hourly_max" : "max");
	} else if (c->budget_max < b->low.v) {
		kh_buf_adds(&m, "the budget of ");
		add_amount(&m, c, c->budget_max);
		kh_buf_adds(&m, " is below the band's low end of ");
		add_amount(&m, c, b->low.v);
		kh_buf_addf(&m, " for a %s engineer in the %s universe: expect "
		    "refusals; raise the budget, or compete on levers",
		    tier_names[t], c->hire->name);
	} else if (c->budget_max < target) {
		kh_buf_adds(&m, "the budget of ");
		add_amount(&m, c, c->budget_max);
		kh_buf_adds(&m, " allows an offer inside the band but below the "
		    "recommended opening of ");
		add_amount(&m, c, target);
		kh_buf_adds(&m, ": a weaker offer invites negotiation");
	}
	if (m.len)
		add_text(out, &m);
	kh_buf_free(&m);
}

static cJSON *
contract_json(const struct comp *c, const struct band *b)
{
	cJSON *j = band_json(c, b, "hourly"), *p = cJSON_CreateObject();
	long long h = c->hours_basis ? c->hours : c->hire->project_hours.v;

	kh_add_int(p, "hours", h);
	kh_add_str(p, "hours_basis", c->hours_basis ? c->hours_basis :
	    "assumption");
	kh_add_int(p, "low", b->low.v * h);
	kh_add_int(p, "mid", b->mid.v * h);
	kh_add_int(p, "high", b->high.v * h);
	cJSON_AddItemToObject(j, "project", p);
	return j;
}

/*
 * The "comp" object for a candidate of tier t who is paid in universe
 * from now, with their current total when known.
 */
static cJSON *
price(const struct comp *c, int t, const struct universe *from,
    const long long *current)
{
	const struct universe *h = c->hire;
	const struct band *b = &h->tier[t];
	cJSON *j = cJSON_CreateObject(), *sources = cJSON_CreateArray();
	cJSON *cautions = cJSON_CreateArray(), *co_j;
	struct counter co = { 0 };
	long long target, walk, opening;

	kh_add_str(j, "universe", h->name);
	kh_add_str(j, "tier", tier_names[t]);
	if (!b->priced) {
		static const char *const nulls[] = { "band", "opening_offer",
		    "walk_away", "counteroffer", "contract_hourly", "in_budget",
		    "gap_to_budget", NULL };

		for (const char *const *k = nulls; *k; k++)
			kh_add_null(j, *k);
		cJSON_AddItemToObject(j, "levers", levers_json(c, &co));
		cJSON_AddItemToArray(cautions, cJSON_CreateString(b->unpriced));
		cJSON_AddItemToObject(j, "cautions", cautions);
		cJSON_AddItemToObject(j, "sources", sources);
		kh_add_str(j, "as_of", c->as_of);
		return j;
	}
	add_sources(sources, c, &b->low);
	add_sources(sources, c, &b->mid);
	add_sources(sources, c, &b->high);

	/*
	 * A strong opening, far up the band, and at least the low end of the
	 * counter their employer would make when we know what they earn: one
	 * offer that can be final leaves no room for an auction. It stays
	 * inside the band. The walk-away is the budget, but never more than
	 * the top of the band or of the expected counter: beyond both there
	 * is nothing left to win. Without a budget it is the top of the band.
	 */
	estimate_counter(c, from, t, current, &co, sources);
	target = b->low.v + ((b->high.v - b->low.v) * c->opening_pct.v + 99) /
	    100;
	if (co.known && !co.estimated && co.low > target)
		target = co.low;
	target = round_up(target, h->round_to);
	if (target > b->high.v)
		target = b->high.v;
	walk = b->high.v;
	if (c->has_budget) {
		long long most = co.known && co.high > walk ?
		    round_up(co.high, h->round_to) : walk;

		walk = c->budget_max < most ? c->budget_max : most;
	}
	opening = target < walk ? target : walk;
	judge_counter(c, &co, walk);

	cJSON_AddItemToObject(j, "band", h->hourly ? cJSON_CreateNull() :
	    band_json(c, b, "total"));
	kh_add_int(j, "opening_offer", opening);
	kh_add_int(j, "walk_away", walk);
	co_j = cJSON_AddObjectToObject(j, "counteroffer");
	kh_add_str(co_j, "risk", co.risk);
	if (co.known) {
		cJSON *r = cJSON_AddObjectToObject(co_j, "expected_range");

		kh_add_int(r, "low", co.low);
		kh_add_int(r, "high", co.high);
	} else
		kh_add_null(co_j, "expected_range");
	kh_add_str(co_j, "why", co.why.p);
	kh_buf_free(&co.why);
	cJSON_AddItemToObject(j, "contract_hourly", h->hourly ?
	    contract_json(c, b) : cJSON_CreateNull());
	if (c->has_budget) {
		kh_add_bool(j, "in_budget", c->budget_max >= target);
		kh_add_int(j, "gap_to_budget", c->budget_max - target);
	} else {
		kh_add_null(j, "in_budget");
		kh_add_null(j, "gap_to_budget");
	}
	cJSON_AddItemToObject(j, "levers", levers_json(c, &co));
	if (h->has_sign_on && (strcmp(co.risk, "high") == 0 ||
	    strcmp(co.risk, "medium") == 0)) {
		add_sources(sources, c, &h->sign_on_low);
		add_sources(sources, c, &h->sign_on_high);
	}
	budget_caution(c, b, t, target, cautions);
	for (const cJSON *e = h->cautions->child; e; e = e->next)
		cJSON_AddItemToArray(cautions, cJSON_CreateString(
		    e->valuestring));
	from_cautions(c, from, current != NULL, cautions);
	cJSON_AddItemToObject(j, "cautions", cautions);
	cJSON_AddItemToObject(j, "sources", sources);
	kh_add_str(j, "as_of", c->as_of);
	return j;
}

/* ---- the record handler ---- */

static int
candidate(cJSON *rec, const struct kh_pos *pos, void *ctx)
{
	const struct comp *c = ctx;
	const cJSON *tj = kh_get(rec, "score.tier"), *hint;
	const struct universe *from = c->hire;
	long long current, *cur = NULL;
	const char *s;
	int t;

	if (strcmp(kh_get_str(rec, "type"), "candidate") != 0) {
		kh_emit(rec);	/* not ours: pass it on */
		return 0;
	}
	if (tj == NULL || cJSON_IsNull(tj)) {
		kh_bad(pos, "missing required field 'score.tier'");
		return -1;
	}
	if (!cJSON_IsString(tj)) {
		kh_bad(pos, "'score.tier' is not a string");
		return -1;
	}
	if ((t = tier_index(tj->valuestring)) < 0) {
		kh_bad(pos, "unknown tier '%s' in 'score.tier' (principal, "
		    "staff, senior, mid, junior, unproven)", tj->valuestring);
		return -1;
	}
	if (!c->hire->tier[t].priced && !c->hire->tier[t].unpriced) {
		kh_bad(pos, "no %s band in the %s universe of pay data '%s'",
		    tier_names[t], c->hire->name, c->path);
		return -1;
	}
	hint = cJSON_GetObjectItemCaseSensitive(rec, "comp_hint");
	if (hint && !cJSON_IsNull(hint)) {
		const cJSON *ct = cJSON_GetObjectItemCaseSensitive(hint,
		    "current_total");

		if (!cJSON_IsObject(hint)) {
			kh_bad(pos, "'comp_hint' is not an object");
			return -1;
		}
		if (ct && !cJSON_IsNull(ct)) {
			if (kh_get_int(hint, "current_total", &current) < 0 ||
			    current < 1 || current > FIG_MAX) {
				kh_bad(pos, "'comp_hint.current_total' is not a "
				    "whole number from 1 to %lld", FIG_MAX);
				return -1;
			}
			cur = &current;
		}
		if ((s = kh_get_str(hint, "universe")) != NULL) {
			if ((from = find_universe(c, s)) == NULL) {
				kh_bad(pos, "unknown universe '%s' in "
				    "'comp_hint.universe' (%s)", s,
				    universe_list(c));
				return -1;
			}
		} else if ((s = kh_get_str(hint, "employer")) != NULL &&
		    from_employer(c, s))
			from = from_employer(c, s);
	}
	kh_set(rec, "comp", price(c, t, from, cur));
	kh_emit(rec);
	return 0;
}

int
main(int argc, char **argv)
{
	enum { O_BRIEF = KH_OPT_TOOL, O_UNIVERSE, O_DATA, O_HOURS };
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "brief", required_argument, NULL, O_BRIEF },
		{ "universe", required_argument, NULL, O_UNIVERSE },
		{ "data", required_argument, NULL, O_DATA },
		{ "hours", required_argument, NULL, O_HOURS },
		{ NULL, 0, NULL, 0 }
	};
	struct comp c = { 0 };
	const char *brief_path = NULL, *universe = NULL;
	char *data_path = NULL;
	cJSON *brief = NULL;
	int ch;

	kh_init(argv[0]);
	kh_usage_text =
	    "Usage: kh-comp [-hqVv] [--brief=FILE] [--universe=NAME] "
	    "[--data=FILE] [--hours=N]\n"
	    "               [--strict] [--max-line=BYTES] [--unbuffered] "
	    "[FILE...]\n"
	    "\n"
	    "Price the offer for each scored candidate in the hiring pay "
	    "universe.\n"
	    "\n"
	    "      --brief=FILE       role brief: universe, budget, levers\n"
	    "      --universe=NAME    chip, frontier, startup or contract "
	    "(over the brief)\n"
	    "      --data=FILE        pay bands (default: share/kh/comp.json)\n"
	    "      --hours=N          contract project size in hours\n"
	    "  -h, --help             this help\n"
	    "  -V, --version          the version\n"
	    "  -q, --quiet            mute warnings\n"
	    "  -v, --verbose          counts at the end\n"
	    "      --strict           stop at the first bad record (exit 3)\n"
	    "      --max-line=BYTES   longest input line (default 16 MiB)\n"
	    "      --unbuffered       flush after every record\n";
	while ((ch = getopt_long(argc, argv, KH_SHORTOPTS, longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case O_BRIEF:
			brief_path = optarg;
			break;
		case O_UNIVERSE:
			universe = optarg;
			break;
		case O_DATA:
			free(data_path);
			data_path = kh_strdup(optarg);
			break;
		case O_HOURS:
			c.hours = kh_opt_num("--hours", optarg, 1, 1000000);
			c.hours_basis = "option";
			break;
		default:
			kh_opt_common(ch, argv);
		}
	}
	c.path = data_path ? data_path : (data_path = kh_data_path("comp.json"));
	load_data(&c);
	check_stale(&c);
	if (universe && (c.hire = find_universe(&c, universe)) == NULL)
		kh_usage("unknown universe '%s' (%s)", universe,
		    universe_list(&c));
	if (brief_path) {
		brief = load_object("brief", brief_path);
		load_brief(&c, brief_path, brief);
	}
	if (c.hire == NULL)
		kh_usage("no pay universe: give --universe or --brief");
	kh_loop(argc - optind, argv + optind, candidate, &c);
	cJSON_Delete(brief);
	cJSON_Delete(c.data);
	free(c.u);
	free(data_path);
	return kh_finish();
}
