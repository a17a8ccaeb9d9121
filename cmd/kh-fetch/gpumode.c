/*
 * gpumode.c: kh-fetch gpumode, the GPU MODE kernel leaderboards.
 *
 *   boards  every leaderboard, from the site API (gpumode.com/api), as
 *           records of type "board"
 *   ranks   one "leaderboard" evidence record per ranked user, per board
 *           and GPU; --clean takes the ranking from the kernelbot API
 *           instead, which leaves out runs flagged as hacked and gives
 *           each user's id
 *
 * The site wraps every answer as {"code":0,"message":...,"data":...}; a
 * code other than 0 is an error even when the HTTP status says 200.
 * Scores are seconds, lower is better, and arrive as numbers or as strings
 * (Postgres numeric). User ids are Discord snowflakes (17 to 20 digits,
 * beyond the 2^53 a double holds) or GitHub numeric ids: they stay strings.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"

#define SITE_URL "https://www.gpumode.com"
#define KERNELBOT_URL "https://site--bot--dxfjds728w5v.code.run"
#define LIVE_AGE 3600	/* seconds a live board's answer is reused */

static const char usage[] =
    "Usage: kh-fetch gpumode [-hqVv] [--unbuffered] boards\n"
    "       kh-fetch gpumode [-hqVv] [--all] [--clean] [--strict] "
    "[--unbuffered]\n"
    "                        [--board=ID]... ranks\n"
    "\n"
    "boards: one record per GPU MODE leaderboard.\n"
    "ranks:  one leaderboard evidence record per ranked user, per board "
    "and GPU.\n"
    "\n"
    "  -a, --all            every board (ranks)\n"
    "  -b, --board=ID       this board; repeat for several (ranks)\n"
    "  -c, --clean          ranking from the kernelbot API: hacked runs out,\n"
    "                       user ids in\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "  -q, --quiet          mute warnings\n"
    "  -v, --verbose        counts at the end\n"
    "      --strict         stop at the first unusable ranking row (exit 3)\n"
    "      --max-line=BYTES accepted for symmetry; no input is read\n"
    "      --unbuffered     flush after every record\n"
    "\n"
    "Environment: KH_GPUMODE_URL, KH_KERNELBOT_URL (base URLs), KH_CACHE.\n";

struct gm {
	struct kh_http *http;
	const char *site;	/* KH_GPUMODE_URL */
	const char *bot;	/* KH_KERNELBOT_URL */
	int clean;
	time_t now;
	cJSON *boards;		/* data.leaderboards of the summaries */
};

/* One user's best run on one board and GPU. */
struct row {
	const char *user;	/* user_name, borrowed from the answer */
	char *user_id;		/* a string of digits, or NULL */
	double score;
	time_t at;
	int has_at;
	long long submission;	/* submission id, -1 unknown */
	long long count;	/* submissions on that GPU, -1 unknown */
	size_t order;		/* position in the answer, to keep ties stable */
};

static const char *
env_or(const char *name, const char *def)
{
	const char *s = getenv(name);

	return s && *s ? s : def;
}

/*
 * Make every number that follows "key": a string, in the raw text, before
 * cJSON turns it into a double: a 19-digit Discord id would lose its last
 * digits. A match needs an unescaped quote before the key, so the same
 * letters inside a string value are left alone.
 */
static char *
quote_numbers(const char *body, size_t len, const char *key)
{
	struct kh_buf b = { 0 };
	size_t klen = strlen(key), i = 0;

	while (i < len) {
		const char *p = memchr(body + i, '"', len - i);
		size_t at, j;

		if (p == NULL)
			break;
		at = (size_t)(p - body);
		j = at + 1 + klen;
		if (j < len && body[j] == '"' &&
		    memcmp(body + at + 1, key, klen) == 0 &&
		    (at == 0 || body[at - 1] != '\\')) {
			j++;
			while (j < len && strchr(" \t\r\n", body[j]))
				j++;
			if (j < len && body[j] == ':') {
				size_t k = ++j, e;

				while (k < len && strchr(" \t\r\n", body[k]))
					k++;
				e = k;
				while (e < len && ((body[e] >= '0' &&
				    body[e] <= '9') || body[e] == '-'))
					e++;
				/* whole integers only: "1.5" stays a number */
				if (e > k && (e == len ||
				    strchr(",}] \t\r\n", body[e]))) {
					kh_buf_add(&b, body + i, k - i);
					kh_buf_addc(&b, '"');
					kh_buf_add(&b, body + k, e - k);
					kh_buf_addc(&b, '"');
					i = e;
					continue;
				}
			}
		}
		kh_buf_add(&b, body + i, at + 1 - i);
		i = at + 1;
	}
	kh_buf_add(&b, body + i, len - i);
	return kh_buf_detach(&b);
}

/* GET url and parse the answer; NULL after a message. */
static cJSON *
get_json(struct gm *g, const char *url, long max_age)
{
	struct kh_resp r = { 0 };
	const char *end = NULL;
	char *text;
	cJSON *j;

	if (kh_http_get(g->http, url, max_age, &r) != 0) {
		kh_resp_free(&r);
		return NULL;	/* reported, and the exit status recorded */
	}
	text = quote_numbers(r.body, r.len, "user_id");
	j = cJSON_ParseWithLengthOpts(text, strlen(text) + 1, &end, 1);
	free(text);
	kh_resp_free(&r);
	if (j == NULL) {
		kh_err("cannot use '%s': the answer is not JSON", url);
		kh_fail(KH_REMOTE);
	}
	return j;
}

/* The site's envelope: data (detached, caller's) when code is 0. */
static cJSON *
get_site(struct gm *g, const char *path, long max_age)
{
	char *url = kh_asprintf("%s/api%s", g->site, path);
	cJSON *j = get_json(g, url, max_age), *data = NULL;
	long long code;

	if (j == NULL) {
		free(url);
		return NULL;
	}
	if (!cJSON_IsObject(j) || kh_get_int(j, "code", &code) != 0) {
		kh_err("cannot use '%s': no {code, message, data} envelope",
		    url);
		kh_fail(KH_REMOTE);
	} else if (code != 0) {
		const char *m = kh_get_str(j, "message");

		kh_err("cannot use '%s': code %lld: %s", url, code,
		    m ? m : "no message");
		kh_fail(KH_REMOTE);
	} else {
		data = cJSON_DetachItemFromObjectCaseSensitive(j, "data");
		if (data == NULL) {
			kh_err("cannot use '%s': the envelope has no data",
			    url);
			kh_fail(KH_REMOTE);
		}
	}
	cJSON_Delete(j);
	free(url);
	return data;
}

/* Integer-valued id as a string ("496"), or NULL. */
static char *
id_string(const cJSON *obj, const char *key)
{
	const char *s = kh_get_str(obj, key);
	long long v;

	if (s && *s && strspn(s, "0123456789") == strlen(s))
		return kh_strdup(s);
	if (kh_get_int(obj, key, &v) == 0 && v >= 0)
		return kh_asprintf("%lld", v);
	return NULL;
}

/* A time field as epoch seconds: 0 ok, -1 absent or not a time. */
static int
get_time(const cJSON *obj, const char *key, time_t *t)
{
	const char *s = kh_get_str(obj, key);

	return s ? kh_parse_time(s, t) : -1;
}

/* A score, from a number or a numeric string: 0 ok, -1 not a score. */
static int
get_score(const cJSON *obj, const char *key, double *out)
{
	const cJSON *j = kh_get(obj, key);
	char *end;

	if (cJSON_IsNumber(j)) {
		*out = j->valuedouble;
		return 0;
	}
	if (cJSON_IsString(j) && j->valuestring[0]) {
		*out = strtod(j->valuestring, &end);
		return *end == '\0' ? 0 : -1;
	}
	return -1;
}

/* The summary of board id from the summaries, or NULL (borrowed). */
static const cJSON *
find_board(const struct gm *g, const char *id)
{
	const cJSON *b;

	cJSON_ArrayForEach(b, g->boards) {
		char *s = id_string(b, "id");
		int same = s && strcmp(s, id) == 0;

		free(s);
		if (same)
			return b;
	}
	return NULL;
}

static int
ended(const struct gm *g, const cJSON *board)
{
	time_t t;

	return get_time(board, "deadline", &t) == 0 && t < g->now;
}

static void
add_time(cJSON *obj, const char *key, const cJSON *from, const char *fkey)
{
	char iso[21];
	time_t t;

	if (get_time(from, fkey, &t) != 0) {
		kh_add_null(obj, key);
		return;
	}
	kh_iso8601(t, iso);
	kh_add_str(obj, key, iso);
}

static int
load_boards(struct gm *g)
{
	cJSON *data = get_site(g, "/leaderboard-summaries", LIVE_AGE);

	if (data == NULL)
		return -1;
	g->boards = cJSON_DetachItemFromObjectCaseSensitive(data,
	    "leaderboards");
	cJSON_Delete(data);
	if (!cJSON_IsArray(g->boards)) {
		kh_err("cannot use the leaderboard summaries: no list of "
		    "leaderboards");
		kh_fail(KH_REMOTE);
		return -1;
	}
	return 0;
}

static int
boards(struct gm *g)
{
	const cJSON *b, *gpu;

	if (load_boards(g) != 0)
		return -1;
	cJSON_ArrayForEach(b, g->boards) {
		char *id = id_string(b, "id");
		cJSON *rec, *gpus;

		kh_count_in();
		if (id == NULL) {
			kh_warn("a leaderboard summary has no id, left out");
			continue;
		}
		rec = cJSON_CreateObject();
		kh_add_str(rec, "type", "board");
		kh_add_str(rec, "id", id);
		kh_add_str(rec, "name", kh_get_str(b, "name"));
		add_time(rec, "deadline", b, "deadline");
		gpus = cJSON_AddArrayToObject(rec, "gpus");
		cJSON_ArrayForEach(gpu, kh_get(b, "gpu_types"))
			if (cJSON_IsString(gpu))
				cJSON_AddItemToArray(gpus,
				    cJSON_CreateString(gpu->valuestring));
		kh_add_bool(rec, "ended", ended(g, b));
		kh_emit(rec);
		cJSON_Delete(rec);
		free(id);
	}
	return 0;
}

static int
by_score(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* A GitHub login: letters, digits, single inner hyphens, at most 39. */
static int
github_login(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 39 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '-' ? s[i + 1] == '-' : !((c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

/*
 * person: a GitHub numeric id (at most 12 digits; Discord snowflakes have
 * 17 or more) with a user_name that is a valid login is a GitHub account
 * signed in through popcorn-cli: person.login, which kh-authorship joins
 * to GitHub evidence. Anything else is a display name: person.handle.
 */
static void
add_person(cJSON *rec, const struct row *r)
{
	cJSON *p = cJSON_AddObjectToObject(rec, "person");
	int gh = r->user_id && strlen(r->user_id) <= 12 &&
	    r->user_id[strspn(r->user_id, "0123456789")] == '\0' &&
	    r->user && github_login(r->user);

	if (r->user)
		kh_add_str(p, gh ? "login" : "handle", r->user);
	if (r->user_id)
		kh_add_str(p, "user_id", r->user_id);
}

struct board {
	const char *id;
	const char *name;
	const char *gpu;
	time_t deadline;
	int has_deadline;
};

static void
emit_rows(struct gm *g, const struct board *bd, struct row *rows, size_t n)
{
	size_t kept = 0;

	qsort(rows, n, sizeof *rows, by_score);
	/*
	 * Collapse duplicates: the site lists a user twice when two of their
	 * runs tie for best. The first (best) row stays.
	 */
	for (size_t i = 0; i < n; i++) {
		int dup = 0;

		for (size_t k = 0; k < kept && !dup; k++)
			dup = rows[i].user_id && rows[k].user_id ?
			    strcmp(rows[i].user_id, rows[k].user_id) == 0 :
			    rows[i].user && rows[k].user &&
			    strcmp(rows[i].user, rows[k].user) == 0;
		if (dup) {
			kh_note("board %s %s: duplicate row for '%s' collapsed",
			    bd->id, bd->gpu, rows[i].user);
			free(rows[i].user_id);
			continue;
		}
		rows[kept++] = rows[i];
	}
	for (size_t i = 0; i < kept; i++) {
		struct row *r = &rows[i];
		cJSON *rec = cJSON_CreateObject();
		char *id = kh_asprintf("gpumode:%s:%s:%s", bd->id, bd->gpu,
		    r->user ? r->user : r->user_id);
		char *url = kh_asprintf("%s/leaderboard/%s?tab=rankings",
		    g->site, bd->id);
		size_t rank = 1;
		char iso[21];

		/* Equal scores share a rank, as in competition ranking. */
		while (rank <= i && rows[rank - 1].score < r->score)
			rank++;
		kh_add_str(rec, "type", "evidence");
		kh_add_str(rec, "id", id);
		kh_add_str(rec, "kind", "leaderboard");
		kh_add_str(rec, "source", "gpumode");
		add_person(rec, r);
		kh_add_str(rec, "url", url);
		if (r->has_at) {
			kh_iso8601(r->at, iso);
			kh_add_str(rec, "at", iso);
		} else {
			kh_add_null(rec, "at");
		}
		kh_add_null(rec, "repo");
		kh_add_null(rec, "upstream");
		kh_add_str(rec, "board", bd->id);
		kh_add_str(rec, "board_name", bd->name);
		kh_add_str(rec, "gpu", bd->gpu);
		kh_add_int(rec, "rank", (long long)rank);
		kh_add_int(rec, "ranked", (long long)kept);
		/* 100 for the first, 100/ranked for the last; 2 decimals */
		cJSON_AddNumberToObject(rec, "percentile",
		    (double)(long long)(10000.0 * (double)(kept - rank + 1) /
		    (double)kept + 0.5) / 100.0);
		cJSON_AddNumberToObject(rec, "score_s", r->score);
		if (r->count >= 0)
			kh_add_int(rec, "submissions", r->count);
		else
			kh_add_null(rec, "submissions");
		if (bd->has_deadline) {
			kh_iso8601(bd->deadline, iso);
			kh_add_str(rec, "deadline", iso);
		} else {
			kh_add_null(rec, "deadline");
		}
		/* A rank earned after the deadline is no prize placement. */
		kh_add_bool(rec, "after_deadline", bd->has_deadline &&
		    r->has_at && r->at > bd->deadline);
		if (r->submission >= 0) {
			char *s = kh_asprintf("%lld", r->submission);

			kh_add_str(rec, "submission_id", s);
			free(s);
		}
		kh_emit(rec);
		cJSON_Delete(rec);
		free(id);
		free(url);
		free(r->user_id);
	}
}

/*
 * Fill one row from an entry of the site (user_name, score,
 * submission_time, submission_id, submission_count) or of kernelbot
 * (user_name, user_id, submission_score, submission_time,
 * submission_id). Returns -1 after reporting a row that cannot be ranked.
 */
static int
read_row(const cJSON *e, size_t i, const struct board *bd, int bot,
    struct row *r)
{
	struct kh_pos pos = { NULL, (unsigned long)i + 1, 0 };
	char *where = kh_asprintf("%s board %s %s", bot ? "kernelbot" :
	    "gpumode", bd->id, bd->gpu);
	int rc = -1;

	pos.file = where;
	memset(r, 0, sizeof *r);
	r->order = i;
	r->user = kh_get_str(e, "user_name");
	r->user_id = bot ? id_string(e, "user_id") : NULL;
	r->has_at = get_time(e, "submission_time", &r->at) == 0;
	if (kh_get_int(e, "submission_id", &r->submission) != 0)
		r->submission = -1;
	if (bot || kh_get_int(e, "submission_count", &r->count) != 0)
		r->count = -1;
	kh_count_in();
	if (!cJSON_IsObject(e))
		kh_bad(&pos, "ranking row is not an object");
	else if (r->user == NULL && r->user_id == NULL)
		kh_bad(&pos, "ranking row has no user_name");
	else if (get_score(e, bot ? "submission_score" : "score",
	    &r->score) != 0)
		kh_bad(&pos, "ranking row for '%s' has no usable score",
		    r->user ? r->user : r->user_id);
	else
		rc = 0;
	if (rc != 0)
		free(r->user_id);
	free(where);
	return rc;
}

/* %-encode a path segment (board names are plain, but be safe). */
static char *
seg(const char *s)
{
	struct kh_buf b = { 0 };

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~", c))
			kh_buf_addc(&b, c);
		else
			kh_buf_addf(&b, "%%%02X", c);
	}
	if (b.p == NULL)
		kh_buf_adds(&b, "");
	return kh_buf_detach(&b);
}

/* The clean ranking of one board and GPU from kernelbot; NULL on failure. */
static cJSON *
get_clean(struct gm *g, const struct board *bd, long max_age)
{
	char *name = seg(bd->name), *gpu = seg(bd->gpu);
	char *url = kh_asprintf("%s/submissions/%s/%s", g->bot, name, gpu);
	cJSON *j = get_json(g, url, max_age);

	if (j && !cJSON_IsArray(j)) {
		const char *m = kh_get_str(j, "detail");

		kh_err("cannot use '%s': %s", url, m ? m :
		    "not a list of submissions");
		kh_fail(KH_REMOTE);
		cJSON_Delete(j);
		j = NULL;
	}
	free(name);
	free(gpu);
	free(url);
	return j;
}

/* Rows of one board and GPU; site is that GPU's list in the site answer. */
static void
one_gpu(struct gm *g, const struct board *bd, const cJSON *site,
    long max_age)
{
	cJSON *bot = NULL;
	const cJSON *list = site, *e;
	size_t n = 0, cap = (size_t)cJSON_GetArraySize(site) + 1, i = 0;
	struct row *rows;

	if (g->clean) {
		if ((bot = get_clean(g, bd, max_age)) == NULL)
			return;
		list = bot;
		cap = (size_t)cJSON_GetArraySize(bot) + 1;
	}
	rows = kh_calloc(cap, sizeof *rows);
	cJSON_ArrayForEach(e, list) {
		if (read_row(e, i++, bd, g->clean, &rows[n]) == 0)
			n++;
	}
	if (g->clean) {
		/* submission counts come from the site's row of that user */
		for (size_t k = 0; k < n; k++) {
			cJSON_ArrayForEach(e, site) {
				const char *u = kh_get_str(e, "user_name");

				if (u && rows[k].user && strcmp(u,
				    rows[k].user) == 0 && kh_get_int(e,
				    "submission_count", &rows[k].count) == 0)
					break;
			}
		}
		/* say who the clean ranking leaves out */
		cJSON_ArrayForEach(e, site) {
			const char *u = kh_get_str(e, "user_name");
			size_t k = 0;

			while (u && k < n && (rows[k].user == NULL ||
			    strcmp(rows[k].user, u) != 0))
				k++;
			if (u && k == n)
				kh_note("board %s %s: '%s' is not in the clean "
				    "ranking (hacked or unverified runs), "
				    "left out", bd->id, bd->gpu, u);
		}
	}
	emit_rows(g, bd, rows, n);
	free(rows);
	cJSON_Delete(bot);
	fflush(stdout);	/* a slow producer: let the pipeline see progress */
}

static void
one_board(struct gm *g, const char *id)
{
	const cJSON *sum = find_board(g, id), *gpu;
	long max_age = sum && ended(g, sum) ? -1 : LIVE_AGE;
	char *path = kh_asprintf("/leaderboard/%s", id);
	cJSON *data = get_site(g, path, max_age);
	struct board bd = { 0 };

	free(path);
	if (data == NULL)
		return;
	bd.id = id;
	bd.name = kh_get_str(data, "name");
	bd.has_deadline = get_time(data, "deadline", &bd.deadline) == 0;
	if (bd.name == NULL) {
		kh_err("cannot use leaderboard %s: it has no name", id);
		kh_fail(KH_REMOTE);
	} else {
		/* an ended board seen before the summaries knew: keep it */
		if (max_age != -1 && bd.has_deadline && bd.deadline < g->now)
			max_age = -1;
		cJSON_ArrayForEach(gpu, kh_get(data, "rankings")) {
			bd.gpu = gpu->string;
			if (cJSON_IsArray(gpu))
				one_gpu(g, &bd, gpu, max_age);
		}
	}
	cJSON_Delete(data);
}

static void
ranks(struct gm *g, char **ids, size_t nids, int all)
{
	const cJSON *b;

	if (load_boards(g) != 0 && all)
		return;
	if (all) {
		cJSON_ArrayForEach(b, g->boards) {
			char *id = id_string(b, "id");

			if (id)
				one_board(g, id);
			free(id);
		}
		return;
	}
	for (size_t i = 0; i < nids; i++)
		one_board(g, ids[i]);
}

int
fetch_gpumode(int argc, char **argv)
{
	enum { OPT_ALL = KH_OPT_TOOL, OPT_BOARD, OPT_CLEAN };
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "board", required_argument, NULL, 'b' },
		{ "clean", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	struct kh_http_opts ho = { 0 };
	struct gm g = { 0 };
	char **ids = kh_calloc((size_t)argc + 1, sizeof *ids);
	size_t nids = 0;
	int all = 0, c;

	kh_usage_text = usage;
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS "ab:c", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a':
			all = 1;
			break;
		case 'b':
			kh_opt_num("--board", optarg, 0, (long long)1 << 52);
			ids[nids++] = optarg;
			break;
		case 'c':
			g.clean = 1;
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		kh_usage("gpumode: boards or ranks?");
	if (strcmp(argv[0], "boards") != 0 && strcmp(argv[0], "ranks") != 0)
		kh_usage("gpumode: unknown command '%s' (boards or ranks)",
		    argv[0]);
	if (argc > 1)
		kh_usage("gpumode: unexpected operand '%s'", argv[1]);
	if (strcmp(argv[0], "boards") == 0 && (all || nids || g.clean))
		kh_usage("gpumode boards takes no --all, --board or --clean");
	if (strcmp(argv[0], "ranks") == 0 && !all && nids == 0)
		kh_usage("gpumode ranks: which boards? (--board=ID or --all)");
	if (all && nids)
		kh_usage("gpumode ranks: --all or --board, not both");
	g.site = env_or("KH_GPUMODE_URL", SITE_URL);
	g.bot = env_or("KH_KERNELBOT_URL", KERNELBOT_URL);
	g.now = kh_now();
	ho.per_second = 1;	/* polite: neither API publishes a limit */
	ho.retries = 3;
	g.http = kh_http_new(&ho);
	if (strcmp(argv[0], "boards") == 0)
		boards(&g);
	else
		ranks(&g, ids, nids, all);
	kh_http_free(g.http);
	cJSON_Delete(g.boards);
	free(ids);
	return kh_finish();
}
