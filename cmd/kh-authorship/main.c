/*
 * kh-authorship: verify who really did the work, and group evidence into
 * candidates. It gathers: identity needs the whole input, so it reads
 * everything, then writes one candidate per person (see kh-authorship(1)).
 */
#include <getopt.h>
#include <stdlib.h>

#include "authorship.h"

enum { O_CONFLICTS = KH_OPT_TOOL, O_EVIDENCE, O_EXPLAIN, O_KEY, O_SORTED,
	O_BOTS, O_KERNEL, O_MAILMAP, O_MAXFILES, O_MAXLINES, O_MINLINES };

static const char usage[] =
"Usage: kh-authorship [-hqVv] [--conflicts] [--evidence] [--explain] [--key]\n"
"                     [--sorted] [--strict] [--unbuffered] [--bots=FILE]\n"
"                     [--kernel-paths=FILE] [--mailmap=FILE] [--max-files=N]\n"
"                     [--max-line=BYTES] [--max-lines=N] [--min-lines=N]\n"
"                     [FILE...]\n"
"Group evidence records into candidates, each record with a verdict.\n"
"  --conflicts           also write identity-conflict records to review\n"
"  --evidence            write the annotated evidence, not candidates\n"
"  --explain             add identity_links: why identities were merged\n"
"  --key                 write each record once per person, key first\n"
"  --sorted              read --key output sorted by key, in little memory\n"
"  --bots=FILE           bot patterns (default share/kh/bots.txt)\n"
"  --kernel-paths=FILE   kernel file patterns (default share/kh/kernel-paths.txt)\n"
"  --mailmap=FILE        map names and emails as git's .mailmap does\n"
"  --max-files=N         more files is bulk (default 300, 0: no limit)\n"
"  --max-lines=N         more changed lines is bulk (default 20000, 0: none)\n"
"  --min-lines=N         fewer changed lines is trivial (default 3)\n"
"  -q, --quiet           mute warnings\n"
"  -v, --verbose         print counts at the end\n"
"  --strict              stop at the first bad record (exit 3)\n"
"  --max-line=BYTES      longest input line (default 16 MiB)\n"
"  --unbuffered          flush after every record\n"
"  -h, --help            print this help\n"
"  -V, --version         print the version\n";

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		KH_LONGOPTS,
		{ "conflicts", no_argument, NULL, O_CONFLICTS },
		{ "evidence", no_argument, NULL, O_EVIDENCE },
		{ "explain", no_argument, NULL, O_EXPLAIN },
		{ "key", no_argument, NULL, O_KEY },
		{ "sorted", no_argument, NULL, O_SORTED },
		{ "bots", required_argument, NULL, O_BOTS },
		{ "kernel-paths", required_argument, NULL, O_KERNEL },
		{ "mailmap", required_argument, NULL, O_MAILMAP },
		{ "max-files", required_argument, NULL, O_MAXFILES },
		{ "max-lines", required_argument, NULL, O_MAXLINES },
		{ "min-lines", required_argument, NULL, O_MINLINES },
		{ NULL, 0, NULL, 0 }
	};
	struct ctx c = { 0 };
	int ch;

	kh_init(argv[0]);
	kh_usage_text = usage;
	c.min_lines = 3;
	c.max_files = 300;
	c.max_lines = 20000;
	while ((ch = getopt_long(argc, argv, KH_SHORTOPTS, longopts,
	    NULL)) != -1) {
		switch (ch) {
		case O_CONFLICTS: c.conflicts = 1; break;
		case O_EVIDENCE: c.evidence_mode = 1; break;
		case O_EXPLAIN: c.explain = 1; break;
		case O_KEY: c.key_mode = 1; break;
		case O_SORTED: c.sorted = 1; break;
		case O_BOTS: c.bots_file = optarg; break;
		case O_KERNEL: c.kernel_file = optarg; break;
		case O_MAILMAP: c.mailmap_file = optarg; break;
		case O_MAXFILES:
			c.max_files = kh_opt_num("--max-files", optarg, 0,
			    1000000000);
			break;
		case O_MAXLINES:
			c.max_lines = kh_opt_num("--max-lines", optarg, 0,
			    1000000000000);
			break;
		case O_MINLINES:
			c.min_lines = kh_opt_num("--min-lines", optarg, 0,
			    1000000000);
			break;
		default:
			kh_opt_common(ch, argv);
		}
	}
	if (c.key_mode && c.sorted)
		kh_usage("--key and --sorted are the two ends of a sort: "
		    "use one");
	load_data(&c);
	if (c.key_mode) {
		kh_loop(argc - optind, argv + optind, print_key, &c);
	} else if (c.sorted) {
		kh_loop(argc - optind, argv + optind, gather_sorted, &c);
		flush_group(&c);
	} else {
		kh_loop(argc - optind, argv + optind, gather, &c);
		resolve(&c);
		judge(&c);
		output(&c);
	}
	if (c.unattributed)
		kh_warn("%lu evidence record%s name%s no usable author "
		    "(missing, or generic like root@localhost): not grouped",
		    c.unattributed, c.unattributed == 1 ? "" : "s",
		    c.unattributed == 1 ? "s" : "");
	store_reset(&c);
	free(c.evs);
	free(c.claims);
	free(c.group);
	free(c.group_form);
	free_data(&c);
	return kh_finish();
}
