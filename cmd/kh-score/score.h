/* score.h: kh-score's parts: weights, text parsing, scoring */
#ifndef SCORE_H
#define SCORE_H

#include "kh.h"

#define NARCH 10	/* see arch_names in text.c */
#define MAX_GPUS 64

/* The weights (weights.json) and repository weights (repo-weights.json). */
struct weights {
	cJSON *w, *r;			/* the parsed files, kept for lists */
	const char *wpath, *rpath;
	double tier[5];			/* principal staff senior mid junior */
	int cap_no_proof, cap_personal;	/* tier index held at: 0..5 */
	double total_cap, credit_verified, credit_coauthor;
	struct {
		double item_cap, unit, count, count_other, lines, lines_other,
		    kernel_min, unsized, repo_cap, cap;
		double path[6];		/* kernel code test bench ci docs */
	} landed;
	struct {
		double points, shape, full, after, proof, cap;
	} lb;
	struct {
		double first, second, third, top10, named, self, cap;
		double conf_high, conf_medium, conf_low;
	} comp;
	struct {
		double points, other_venue, off_topic, ambiguous, proof, cap;
		double pos_first, pos_only, pos_last, pos_middle;
		const cJSON *venues, *topics;
	} paper;
	struct {
		double hw, nohw, max_factor, cap;
	} speedup;
	struct {
		double points[NARCH], guard_only, lb_only, personal, cap;
	} gen;
	double stack_points, stack_cap, lp_fp8, lp_fp4, lp_cap;
	const cJSON *rating_bands;
	double recency_points, half_life;
	double brief_specialty, brief_full_at, brief_gen, brief_cap;
	double both_share;
	const cJSON *inference_terms, *training_terms;
	/* GPU names, longest first, with their architecture index */
	int ngpus;
	struct gpu {
		const char *name;
		size_t len;
		int arch;
	} gpus[MAX_GPUS];
	unsigned char gpu_first[256];	/* bytes a GPU name starts with */
	/* repositories */
	double repo_default, repo_personal, repo_learning, repo_reviewed;
	double shared_min;
	const cJSON *learning_patterns, *repos;
};

void weights_load(struct weights *w, const char *wpath, const char *rpath);
void weights_free(struct weights *w);

/* The role brief, when --brief is given. */
struct brief {
	cJSON *j;
	const char *specialty;		/* inference, training, both or NULL */
	unsigned gens;			/* architecture bits */
	const char *gen_names;		/* "blackwell, hopper" for whys */
	char *gen_text;
};
void brief_load(struct brief *b, const char *path, const struct weights *w);
void brief_free(struct brief *b);

/* text.c */
extern const char *const arch_names[NARCH];
int arch_index(const char *name);	/* -1 when unknown */
/* The first GPU named in s[0..n) (index into w->gpus), or -1. */
int gpu_find(const struct weights *w, const char *s, size_t n);
struct speedup {
	double factor;
	char metric[24];
	char baseline[48];
	int gpu;		/* index into w->gpus, -1 when none named */
};
/* The best measured speedup in a title and a body: 1 found, 0 none. */
int speedup_parse(const struct weights *w, const char *title,
    const char *text, struct speedup *out);
/* Case-insensitive search of a term in lowercased text, word start. */
int term_in(const char *lower, size_t n, const char *term);
/* Lowercase s into b (up to max bytes). */
void lower_into(struct kh_buf *b, const char *s, size_t max);

/* score.c: the score object for one candidate's evidence array */
cJSON *score_candidate(const struct weights *w, const struct brief *b,
    const cJSON *cand, time_t now);

#endif
