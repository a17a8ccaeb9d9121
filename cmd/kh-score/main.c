/* kh-score: explainable scores for candidates, every point citing evidence */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

struct score_ctx {
	struct weights w;
	struct brief brief;
	int has_brief;
	time_t now;
};

static int
score(cJSON *rec, const struct kh_pos *pos, void *arg)
{
	struct score_ctx *ctx = arg;

	if (strcmp(kh_get_str(rec, "type"), "candidate") == 0) {
		if (!cJSON_IsArray(kh_get(rec, "evidence"))) {
			kh_bad(pos, "missing required field 'evidence'");
			return -1;
		}
		kh_set(rec, "score", score_candidate(&ctx->w, ctx->has_brief ?
		    &ctx->brief : NULL, rec, ctx->now));
	}
	kh_emit(rec);
	return 0;
}

int
main(int argc, char **argv)
{
	enum { O_WEIGHTS = KH_OPT_TOOL, O_REPO_WEIGHTS, O_BRIEF };
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "weights", required_argument, NULL, O_WEIGHTS },
		{ "repo-weights", required_argument, NULL, O_REPO_WEIGHTS },
		{ "brief", required_argument, NULL, O_BRIEF },
		{ NULL, 0, NULL, 0 }
	};
	static struct score_ctx ctx;
	char *wpath = NULL, *rpath = NULL;
	const char *brief = NULL;
	int c;

	kh_init(argv[0]);
	kh_usage_text =
	    "Usage: kh-score [-hqVv] [--brief=FILE] [--weights=FILE] "
	    "[--repo-weights=FILE]\n"
	    "                [--strict] [--max-line=BYTES] [--unbuffered] "
	    "[FILE...]\n"
	    "Add an explainable score to each candidate record.\n"
	    "  --brief=FILE         the role brief: matches on its specialty "
	    "and hardware\n"
	    "                       earn points, and the why says so\n"
	    "  --weights=FILE       signal weights, caps, recency and tiers\n"
	    "                       (default share/kh/weights.json)\n"
	    "  --repo-weights=FILE  repository weights and kernel "
	    "directories\n"
	    "                       (default share/kh/repo-weights.json)\n"
	    "  -q, --quiet          no warnings or summary\n"
	    "  -v, --verbose        counts at the end\n"
	    "  --strict             stop at the first bad record (exit 3)\n"
	    "  --max-line=BYTES     longest input line (default 16777216)\n"
	    "  --unbuffered         flush after every record\n"
	    "  -h, --help           this help\n"
	    "  -V, --version        the version\n";
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS, longopts,
	    NULL)) != -1) {
		switch (c) {
		case O_WEIGHTS:
			free(wpath);
			wpath = kh_strdup(optarg);
			break;
		case O_REPO_WEIGHTS:
			free(rpath);
			rpath = kh_strdup(optarg);
			break;
		case O_BRIEF:
			brief = optarg;
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	if (wpath == NULL)
		wpath = kh_data_path("weights.json");
	if (rpath == NULL)
		rpath = kh_data_path("repo-weights.json");
	weights_load(&ctx.w, wpath, rpath);
	if (brief) {
		brief_load(&ctx.brief, brief, &ctx.w);
		ctx.has_brief = 1;
	}
	ctx.now = kh_now();
	kh_loop(argc - optind, argv + optind, score, &ctx);
	weights_free(&ctx.w);
	if (ctx.has_brief)
		brief_free(&ctx.brief);
	free(wpath);
	free(rpath);
	return kh_finish();
}
