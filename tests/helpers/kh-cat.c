/* kh-cat: passes records through the shared loop; tests the bad-line policy */
#include <getopt.h>

#include "kh.h"

static int
cat(cJSON *rec, const struct kh_pos *pos, void *ctx)
{
	const char *need = ctx;

	if (need && !kh_get(rec, need)) {
		kh_bad(pos, "missing required field '%s'", need);
		return -1;
	}
	kh_emit(rec);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "need", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char *need = NULL;
	int c;

	kh_init(argv[0]);
	kh_usage_text = "Usage: kh-cat [-hqVv] [--need=FIELD] [--strict] "
	    "[--max-line=BYTES] [--unbuffered] [FILE...]\n";
	while ((c = getopt_long(argc, argv, KH_SHORTOPTS "n:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'n':
			need = optarg;
			break;
		default:
			kh_opt_common(c, argv);
		}
	}
	kh_loop(argc - optind, argv + optind, cat, (void *)need);
	return kh_finish();
}
