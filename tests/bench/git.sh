#!/bin/sh
# tests/bench/git.sh: kh-fetch git against `git log --numstat` over the same
# history; the target is at most 1.5x. The history is a repository built
# here (a few thousand commits, several files each, renames and binaries),
# or the clone in $KH_BENCH_REPO, limited to $KH_BENCH_REV when set
# (e.g. KH_BENCH_REV=HEAD~5000..HEAD). Each side runs three times; the
# fastest run counts, so a noisy neighbour hurts both sides alike.
set -eu
: "${KH_BIN:?run through make bench}"
PATH=$KH_BIN:$PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-bench-git.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
commits=${KH_BENCH_COMMITS:-4000}

if [ -n "${KH_BENCH_REPO:-}" ]; then
	repo=$KH_BENCH_REPO
else
	repo=$tmp/repo
	git -c init.defaultBranch=main init -q "$repo"
	# A fast-import stream: 300 files of 40-120 lines; each commit edits
	# a few lines of 4 files; every 40th renames one, every 25th
	# rewrites a binary file.
	awk -v n="$commits" 'BEGIN {
		srand(42);
		nf = 300;
		for (f = 0; f < nf; f++) {
			path[f] = sprintf("src/dir%d/kernel%d.cu", f % 17, f);
			nl[f] = 40 + int(rand() * 80);
			for (l = 0; l < nl[f]; l++)
				line[f, l] = sprintf("    x%d = load(ptr + %d); // %d", l, f, rand() * 1e6);
		}
		for (c = 1; c <= n; c++) {
			a = c % 23;
			msg = sprintf("Tune kernel batch %d (#%d)\n\nMeasured on H100.\n", c, c);
			printf "commit refs/heads/main\n";
			printf "author Dev%d <dev%d@example.com> %d +0000\n", a, a, 1600000000 + c * 600;
			printf "committer Dev%d <dev%d@example.com> %d +0000\n", a, a, 1600000000 + c * 600;
			printf "data %d\n%s", length(msg), msg;
			if (c % 40 == 0) {
				f = int(rand() * nf);
				new = sprintf("src/moved/c%d-kernel%d.cu", c, f);
				printf "R %s %s\n", path[f], new;
				path[f] = new;
			}
			for (k = 0; k < 4; k++) {
				f = int(rand() * nf);
				for (e = 0; e < 3; e++)
					line[f, int(rand() * nl[f])] = sprintf("    y = mma(x, %d); // c%d", rand() * 1e6, c);
				s = "";
				for (l = 0; l < nl[f]; l++)
					s = s line[f, l] "\n";
				printf "M 100644 inline %s\ndata %d\n%s", path[f], length(s), s;
			}
			if (c % 25 == 0) {
				s = sprintf("cubin %d %d", c, rand() * 1e9);
				printf "M 100644 inline bin/kernel%d.cubin\ndata %d\n%c%s\n", c % 7, length(s) + 1, 0, s;
			}
		}
	}' | git -C "$repo" fast-import --quiet
fi

# best CMD...: "WALL CPU" in nanoseconds, the fastest of three runs each.
# CPU is user+system of the command and its children (git under kh-fetch
# too), from the shell's `times`: steadier than wall time on a busy machine.
best () {
	bw= bc=
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		c=$( ("$@" >/dev/null; times) | awk 'END {
			n = split($0, f, " "); t = 0;
			for (i = 1; i <= n; i++) {
				split(f[i], ms, "m"); sub("s", "", ms[2]);
				t += ms[1] * 60 + ms[2];
			}
			printf "%d", t * 1e9 }')
		t1=$(date +%s%N)
		w=$((t1 - t0))
		if [ -z "$bw" ] || [ "$w" -lt "$bw" ]; then bw=$w; fi
		if [ -z "$bc" ] || [ "$c" -lt "$bc" ]; then bc=$c; fi
	done
	echo "$bw $bc"
}

if [ -n "${KH_BENCH_REV:-}" ]; then
	set -- "$KH_BENCH_REV"
	kh_rev="--rev=$KH_BENCH_REV"
else
	set -- HEAD
	kh_rev=--rev=HEAD
fi
n=$(git -C "$repo" rev-list --count "$@")
base=$(best git -C "$repo" log --numstat "$@" --)
kh=$(best kh-fetch git "$kh_rev" "$repo")
echo "$base $kh" | awk -v n="$n" '{
	printf "%d commits            wall       cpu\n", n;
	printf "git log --numstat  %8.3fs %8.3fs\n", $1 / 1e9, $2 / 1e9;
	printf "kh-fetch git       %8.3fs %8.3fs\n", $3 / 1e9, $4 / 1e9;
	printf "ratio              %8.2fx %8.2fx  (target <= 1.50x)\n", $3 / $1, $4 / $2;
}'
