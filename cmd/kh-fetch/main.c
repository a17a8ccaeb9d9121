/* kh-fetch: evidence from public sources; one file per source beside this */
#include <string.h>

#include "fetch.h"

static const struct source {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
} sources[] = {
	{ "git", fetch_git, "git [options] GITDIR..." },
	{ "github", fetch_github, "github [options] prs|user|repos|search|claims ..." },
	{ "registry", fetch_registry, "registry [options] [FILE...]" },
	{ "events", fetch_events, "events [options] [FILE...]" },
	{ "gpumode", fetch_gpumode, "gpumode [options] boards|ranks" },
	{ "codeforces", fetch_codeforces, "codeforces [options] [HANDLE...]" },
	{ "papers", fetch_papers, "papers [options] --name=NAME|--orcid=ID|--openalex=ID..." },
};

int
main(int argc, char **argv)
{
	kh_init(argv[0]);
	if (argc >= 2) {
		for (size_t i = 0; i < sizeof sources / sizeof *sources; i++)
			if (strcmp(argv[1], sources[i].name) == 0)
				return sources[i].run(argc - 1, argv + 1);
	}
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		printf("Usage: kh-fetch SOURCE [options] [operands]\n\n"
		    "Sources (kh-fetch SOURCE --help for each):\n");
		for (size_t i = 0; i < sizeof sources / sizeof *sources; i++)
			printf("  kh-fetch %s\n", sources[i].synopsis);
		return fflush(stdout) ? KH_SYS : KH_OK;
	}
	if (argc >= 2 && (strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "--version") == 0)) {
		printf("kh-fetch %s\n", KH_VERSION);
		return fflush(stdout) ? KH_SYS : KH_OK;
	}
	if (argc < 2)
		kh_usage("which source? (git)");
	kh_usage("unknown source '%s'", argv[1]);
}
