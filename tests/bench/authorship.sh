#!/bin/sh
# tests/bench/authorship.sh: kh-authorship against `jq -s 'group_by(...)'`
# (the same grouping, without any of the checks) on generated evidence:
# commit and PR records shaped as kh-fetch writes them, by 20000 people
# under logins and emails, joined by squash merges "(#N)". The target is
# 200,000 records a second; jq's rate is the yardstick measured in the
# same run. Each side runs three times and the fastest run counts.
# KH_BENCH_N sets the count (default 100000).
set -eu
: "${KH_BIN:?run through make bench}"
PATH=$KH_BIN:$PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-bench-authorship.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
n=${KH_BENCH_N:-100000}

awk -v n="$n" 'BEGIN {
	srand(7);
	for (i = 0; i < n; i++) {
		at = sprintf("2025-%02d-%02dT%02d:00:00Z", 1 + i % 12, 1 + i % 28, i % 24);
		if (i % 3 == 0) {
			# a PR, then two commits that name it: its squash merge
			# and a follow-up, by the same person under an email
			p = int(rand() * 20000);
			pr = i;
			printf "{\"type\":\"evidence\",\"id\":\"github:pr:o/r%d#%d\",\"kind\":\"pr\",\"source\":\"github\",\"person\":{\"login\":\"dev%d\"},\"url\":\"https://github.com/o/r%d/pull/%d\",\"at\":\"%s\",\"repo\":\"o/r%d\",\"upstream\":true,\"number\":%d,\"title\":\"Tune the kernel for batch %d\",\"text\":\"Measured on H100: %d us faster.\",\"author_type\":\"User\",\"merged\":%s,\"merged_at\":null,\"merged_by\":\"maint%d\",\"base_repo\":\"o/r%d\",\"head_repo\":\"dev%d/r\",\"from_fork\":true,\"labels\":[],\"added\":%d,\"deleted\":%d}\n", pr % 7, pr, p, pr % 7, pr, at, pr % 7, pr, pr, i % 97, (i % 5 ? "true" : "false"), i % 3, pr % 7, p, 5 + i % 200, i % 30;
		} else {
			printf "{\"type\":\"evidence\",\"id\":\"git:commit:%040d\",\"kind\":\"commit\",\"source\":\"git\",\"person\":{\"name\":\"Dev Number%d\",\"email\":\"dev%d@kernels.dev\"},\"url\":null,\"at\":\"%s\",\"repo\":\"o/r%d\",\"upstream\":%s,\"sha\":\"%040d\",\"author\":{\"name\":\"Dev Number%d\",\"email\":\"dev%d@kernels.dev\"},\"committer\":{\"name\":\"GitHub\",\"email\":\"noreply@github.com\"},\"committed_at\":\"%s\",\"title\":\"Tune the kernel for batch %d (#%d)\",\"text\":\"\",\"pr\":%d,\"merge\":false,\"coauthors\":[],\"files\":[{\"path\":\"csrc/k%d.cu\",\"added\":%d,\"deleted\":%d},{\"path\":\"tests/test_k.py\",\"added\":4,\"deleted\":0}],\"added\":%d,\"deleted\":%d}\n", i, p, p, at, pr % 7, (i % 4 ? "true" : "false"), i, p, p, at, pr, pr, pr, i % 50, 10 + i % 90, i % 9, 14 + i % 90, i % 9;
		}
	}
}' >"$tmp/in.ndjson"

# best CMD...: the fastest of three runs, in CPU seconds (user + system,
# children included) when /usr/bin/time can say, else in wall seconds.
# On a shared machine the CPU time is the steadier of the two.
best () {
	b=
	for _ in 1 2 3; do
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f "%U %S" -o "$tmp/t" "$@" \
			    <"$tmp/in.ndjson" >/dev/null
			t=$(awk '{ printf "%.3f", $1 + $2 }' "$tmp/t")
		else
			t0=$(date +%s%N)
			"$@" <"$tmp/in.ndjson" >/dev/null
			t1=$(date +%s%N)
			t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		fi
		b=$(awk -v b="$b" -v t="$t" 'BEGIN { print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}

base=$(best jq -c -s 'group_by(.person.login // .person.email)[]')
kh=$(best kh-authorship)
sorted=$(best sh -c 'kh-authorship --key | LC_ALL=C sort | kh-authorship --sorted')
awk -v n="$n" -v b="$base" -v k="$kh" -v s="$sorted" 'BEGIN {
	if (b <= 0) b = 0.001; if (k <= 0) k = 0.001; if (s <= 0) s = 0.001;
	printf "jq -s group_by            %8.3fs  %9.0f records/s\n", b, n / b;
	printf "kh-authorship             %8.3fs  %9.0f records/s  (target >= 200000)\n", k, n / k;
	printf "--key | sort | --sorted   %8.3fs  %9.0f records/s\n", s, n / s;
	printf "ratio kh/jq               %8.2fx\n", k / b;
}'
