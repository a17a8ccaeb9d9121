/* weights.c: loading weights.json, repo-weights.json and the role brief */
#include <stdlib.h>
#include <string.h>

#include "score.h"

/*
 * A bad data file is a usage error (exit 2) naming the file and the key:
 * scoring with a half-read weights file would give numbers nobody chose.
 */
static double
num(const cJSON *root, const char *file, const char *path)
{
	const cJSON *j = kh_get(root, path);

	if (!cJSON_IsNumber(j) || j->valuedouble < 0)
		kh_die(KH_USAGE, "weights '%s': '%s' must be a number >= 0",
		    file, path);
	return j->valuedouble;
}

static const cJSON *
list(const cJSON *root, const char *file, const char *path, int objects)
{
	const cJSON *j = kh_get(root, path), *e;

	if (objects ? !cJSON_IsObject(j) : !cJSON_IsArray(j))
		kh_die(KH_USAGE, "weights '%s': '%s' must be %s", file, path,
		    objects ? "an object" : "a list");
	if (!objects)
		cJSON_ArrayForEach(e, j)
			if (!cJSON_IsString(e) && !cJSON_IsArray(e))
				kh_die(KH_USAGE, "weights '%s': '%s' holds "
				    "a value of the wrong type", file, path);
	return j;
}

static const char *const tier_keys[] = {
	"principal", "staff", "senior", "mid", "junior", "unproven"
};

static int
tier_of(const cJSON *root, const char *file, const char *path)
{
	const char *s = kh_get_str(root, path);

	for (int i = 0; s && i < 6; i++)
		if (strcmp(s, tier_keys[i]) == 0)
			return i;
	kh_die(KH_USAGE, "weights '%s': '%s' must name a tier", file, path);
}

static int
longer_first(const void *a, const void *b)
{
	const struct gpu *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? 1 : -1;
	return strcmp(x->name, y->name);
}

void
weights_load(struct weights *w, const char *wpath, const char *rpath)
{
	const cJSON *j = NULL, *g, *e;
	const char *f;
	char key[64];

	memset(w, 0, sizeof *w);
	w->wpath = wpath;
	w->rpath = rpath;
	w->w = kh_load_json(wpath);
	w->r = kh_load_json(rpath);
	j = w->w;
	f = wpath;
	for (int i = 0; i < 5; i++) {
		snprintf(key, sizeof key, "tiers.%s", tier_keys[i]);
		w->tier[i] = num(j, f, key);
		if (i > 0 && w->tier[i] > w->tier[i - 1])
			kh_die(KH_USAGE, "weights '%s': tier thresholds must "
			    "not rise from principal to junior", f);
	}
	w->cap_no_proof = tier_of(j, f, "tier_caps.no_strong_proof");
	w->cap_personal = tier_of(j, f, "tier_caps.personal_only");
	w->total_cap = num(j, f, "total_cap");
	w->credit_verified = num(j, f, "credit.verified");
	w->credit_coauthor = num(j, f, "credit.coauthor");

	w->landed.item_cap = num(j, f, "landed.item_lines_cap");
	w->landed.unit = num(j, f, "landed.line_unit");
	if (w->landed.unit <= 0)
		kh_die(KH_USAGE, "weights '%s': 'landed.line_unit' must be "
		    "above 0", f);
	w->landed.count = num(j, f, "landed.count");
	w->landed.count_other = num(j, f, "landed.count_other");
	w->landed.lines = num(j, f, "landed.lines");
	w->landed.lines_other = num(j, f, "landed.lines_other");
	w->landed.kernel_min = num(j, f, "landed.kernel_item_min_lines");
	w->landed.unsized = num(j, f, "landed.unsized");
	w->landed.repo_cap = num(j, f, "landed.repo_cap");
	w->landed.cap = num(j, f, "landed.cap");
	{
		static const char *const pk[] = { "kernel", "code", "test",
		    "bench", "ci", "docs" };

		for (int i = 0; i < 6; i++) {
			snprintf(key, sizeof key, "landed.paths.%s", pk[i]);
			w->landed.path[i] = num(j, f, key);
		}
	}

	w->lb.points = num(j, f, "leaderboard.points");
	w->lb.shape = num(j, f, "leaderboard.shape");
	w->lb.full = num(j, f, "leaderboard.full_board");
	if (w->lb.full < 2)
		kh_die(KH_USAGE, "weights '%s': 'leaderboard.full_board' "
		    "must be at least 2", f);
	w->lb.after = num(j, f, "leaderboard.after_deadline");
	w->lb.proof = num(j, f, "leaderboard.proof_quality");
	w->lb.cap = num(j, f, "leaderboard.cap");

	w->comp.first = num(j, f, "competition.first");
	w->comp.second = num(j, f, "competition.second");
	w->comp.third = num(j, f, "competition.third");
	w->comp.top10 = num(j, f, "competition.top10");
	w->comp.named = num(j, f, "competition.named");
	w->comp.self = num(j, f, "competition.self_reported");
	w->comp.conf_high = num(j, f, "competition.confidence.high");
	w->comp.conf_medium = num(j, f, "competition.confidence.medium");
	w->comp.conf_low = num(j, f, "competition.confidence.low");
	w->comp.cap = num(j, f, "competition.cap");

	w->paper.points = num(j, f, "paper.points");
	w->paper.venues = list(j, f, "paper.venues", 1);
	cJSON_ArrayForEach(e, w->paper.venues)
		if (!cJSON_IsNumber(e))
			kh_die(KH_USAGE, "weights '%s': 'paper.venues.%s' must "
			    "be a number", f, e->string);
	w->paper.other_venue = num(j, f, "paper.other_venue");
	w->paper.topics = list(j, f, "paper.topics", 0);
	w->paper.off_topic = num(j, f, "paper.off_topic");
	w->paper.pos_first = num(j, f, "paper.position.first");
	w->paper.pos_only = num(j, f, "paper.position.only");
	w->paper.pos_last = num(j, f, "paper.position.last");
	w->paper.pos_middle = num(j, f, "paper.position.middle");
	w->paper.ambiguous = num(j, f, "paper.ambiguous");
	w->paper.proof = num(j, f, "paper.proof_venue");
	w->paper.cap = num(j, f, "paper.cap");

	w->speedup.hw = num(j, f, "speedup.hardware");
	w->speedup.nohw = num(j, f, "speedup.no_hardware");
	w->speedup.max_factor = num(j, f, "speedup.max_factor");
	w->speedup.cap = num(j, f, "speedup.cap");

	for (int i = 0; i < NARCH; i++) {
		snprintf(key, sizeof key, "generation.points.%s",
		    arch_names[i]);
		w->gen.points[i] = num(j, f, key);
	}
	w->gen.guard_only = num(j, f, "generation.guard_only");
	w->gen.lb_only = num(j, f, "generation.leaderboard_only");
	w->gen.personal = num(j, f, "generation.personal");
	w->gen.cap = num(j, f, "generation.cap");

	w->stack_points = num(j, f, "stack.points");
	w->stack_cap = num(j, f, "stack.cap");
	w->lp_fp8 = num(j, f, "low_precision.fp8");
	w->lp_fp4 = num(j, f, "low_precision.fp4");
	w->lp_cap = num(j, f, "low_precision.cap");
	w->rating_bands = list(j, f, "rating.bands", 0);
	cJSON_ArrayForEach(e, w->rating_bands)
		if (cJSON_GetArraySize(e) != 2 ||
		    !cJSON_IsNumber(cJSON_GetArrayItem(e, 0)) ||
		    !cJSON_IsNumber(cJSON_GetArrayItem(e, 1)))
			kh_die(KH_USAGE, "weights '%s': 'rating.bands' wants "
			    "[rating, points] pairs", f);
	w->recency_points = num(j, f, "recency.points");
	w->half_life = num(j, f, "recency.half_life_days");
	if (w->half_life <= 0)
		kh_die(KH_USAGE, "weights '%s': 'recency.half_life_days' must "
		    "be above 0", f);
	w->brief_specialty = num(j, f, "brief.specialty");
	w->brief_full_at = num(j, f, "brief.specialty_full_at");
	if (w->brief_full_at < 1)
		w->brief_full_at = 1;
	w->brief_gen = num(j, f, "brief.generation");
	w->brief_cap = num(j, f, "brief.cap");
	w->both_share = num(j, f, "specialty.both_share");
	w->inference_terms = list(j, f, "specialty.inference", 0);
	w->training_terms = list(j, f, "specialty.training", 0);

	g = list(j, f, "gpus", 1);
	cJSON_ArrayForEach(e, g) {
		int a = cJSON_IsString(e) ? arch_index(e->valuestring) : -1;

		if (a < 0)
			kh_die(KH_USAGE, "weights '%s': 'gpus.%s' must name "
			    "an architecture", f, e->string);
		if (w->ngpus == MAX_GPUS)
			kh_die(KH_USAGE, "weights '%s': more than %d gpus", f,
			    MAX_GPUS);
		w->gpus[w->ngpus].name = e->string;
		w->gpus[w->ngpus].len = strlen(e->string);
		w->gpus[w->ngpus].arch = a;
		w->ngpus++;
	}
	qsort(w->gpus, (size_t)w->ngpus, sizeof w->gpus[0], longer_first);
	for (int k = 0; k < w->ngpus; k++) {
		unsigned char c0 = (unsigned char)w->gpus[k].name[0];

		w->gpu_first[c0] = 1;
		if (c0 >= 'A' && c0 <= 'Z')
			w->gpu_first[c0 + 32] = 1;
		if (c0 >= 'a' && c0 <= 'z')
			w->gpu_first[c0 - 32] = 1;
	}

	j = w->r;
	f = rpath;
	w->repo_default = num(j, f, "default");
	w->repo_personal = num(j, f, "personal");
	w->repo_reviewed = num(j, f, "reviewed");
	w->shared_min = num(j, f, "shared_min");
	w->repo_learning = num(j, f, "learning.weight");
	w->learning_patterns = list(j, f, "learning.patterns", 0);
	w->repos = list(j, f, "repos", 1);
	cJSON_ArrayForEach(e, w->repos) {
		snprintf(key, sizeof key, "repos.%s", e->string);
		if (!cJSON_IsNumber(kh_get(e, "weight")) ||
		    !cJSON_IsArray(kh_get(e, "kernel_dirs")))
			kh_die(KH_USAGE, "weights '%s': repository '%s' needs "
			    "a number 'weight' and a list 'kernel_dirs'", f,
			    e->string);
	}
}

void
weights_free(struct weights *w)
{
	cJSON_Delete(w->w);
	cJSON_Delete(w->r);
}

void
brief_load(struct brief *b, const char *path, const struct weights *w)
{
	const cJSON *e;
	struct kh_buf names = { 0 };

	memset(b, 0, sizeof *b);
	b->j = kh_load_json(path);
	if (!cJSON_IsObject(b->j))
		kh_die(KH_USAGE, "brief '%s': not a JSON object", path);
	b->specialty = kh_get_str(b->j, "specialty");
	if (b->specialty && strcmp(b->specialty, "inference") != 0 &&
	    strcmp(b->specialty, "training") != 0 &&
	    strcmp(b->specialty, "both") != 0)
		b->specialty = NULL;
	cJSON_ArrayForEach(e, kh_get(b->j, "generations")) {
		int a = cJSON_IsString(e) ? arch_index(e->valuestring) : -1;

		if (a >= 0)
			b->gens |= 1u << a;
	}
	cJSON_ArrayForEach(e, kh_get(b->j, "hardware")) {
		int g = cJSON_IsString(e) ? gpu_find(w, e->valuestring,
		    strlen(e->valuestring)) : -1;

		if (g >= 0)
			b->gens |= 1u << w->gpus[g].arch;
	}
	for (int i = 0; i < NARCH; i++)
		if (b->gens & (1u << i))
			kh_buf_addf(&names, "%s%s", names.len ? ", " : "",
			    arch_names[i]);
	b->gen_text = names.len ? kh_buf_detach(&names) : kh_strdup("");
	kh_buf_free(&names);
	b->gen_names = b->gen_text;
}

void
brief_free(struct brief *b)
{
	cJSON_Delete(b->j);
	free(b->gen_text);
}
