#!/bin/sh
# tests/bench/events.sh: kh-fetch events on a generated GH-Archive-shaped
# corpus (KH_BENCH_MB megabytes, default 320, in two files), against
# baselines run here and now: jq's equivalent select (its output must be
# identical), zcat alone on the gzip'd files, and the tool on two cores.
# The targets are those of issue 4: plain >= 1000 MB/s and >= 25x jq;
# gzip <= 0.8x zcat's time; two files on two cores close to 2x.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${KH_BIN:?run through make bench}"
PATH=$KH_BIN:$PATH
export PATH here
mb=${KH_BENCH_MB:-320}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-bench-events.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

${CC:-cc} -O2 -o gen "$top/tests/helpers/gen-gharchive.c" || exit 1
./gen -m $((mb / 2)) -s 1 > a.json && ./gen -m $((mb / 2)) -s 2 > b.json ||
	exit 1
gzip -6 -k a.json b.json || exit 1
bytes=$(cat a.json b.json | wc -c)
gzbytes=$(cat a.json.gz b.json.gz | wc -c)

# Seconds a command takes, best of $runs (wall clock).
secs () {
	best=
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s.%N)
		"$@" || { echo "failed: $*" >&2; exit 1; }
		t1=$(date +%s.%N)
		best=$(echo "$t0 $t1 ${best:-}" | awk '{ t = $2 - $1;
			if ($3 != "" && $3 < t) t = $3; printf "%.4f", t }')
		i=$((i + 1))
	done
	echo "$best"
}
ratio () { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
mbs () { echo "$1 $2" | awk '{ printf "%.0f", $1 / 1048576 / $2 }'; }

# The targets as a jq object for events.jq.
targets=$(sed 's/#.*//' "$top/share/kh/repos.txt" | awk 'NF { printf "%s\"%s\":true",
	n++ ? "," : "{", tolower($1) } END { print "}" }')

echo "corpus: $((bytes / 1048576)) MB plain, $((gzbytes / 1048576)) MB gzip, 2 files"

runs=1
t_jq=$(secs sh -c 'jq -c --argjson t "$1" -f "$here/events.jq" a.json b.json > jq.raw' \
	sh "$targets")
awk -f "$here/events-dedupe.awk" jq.raw > jq.out
runs=3
t_plain=$(secs sh -c 'kh-fetch events a.json b.json > plain.out')
if cmp -s jq.out plain.out; then same=identical; else same=DIFFERENT; fi
echo "plain: $(mbs "$bytes" "$t_plain") MB/s on one core (want >= 1000);" \
	"$(ratio "$t_jq" "$t_plain")x jq's speed (want >= 25; jq $(mbs "$bytes" "$t_jq") MB/s);" \
	"$(wc -l < plain.out) records, $same to jq's"

t_zcat=$(secs sh -c 'zcat a.json.gz b.json.gz > /dev/null')
t_gz=$(secs sh -c 'kh-fetch events a.json.gz b.json.gz > gz.out')
cmp -s gz.out plain.out || echo "gzip: output DIFFERS from the plain run"
echo "gzip: $(ratio "$t_gz" "$t_zcat")x the time of zcat alone (want <= 0.8);" \
	"$(mbs "$bytes" "$t_gz") MB/s of JSON, zcat $(mbs "$bytes" "$t_zcat") MB/s"

# Two files, two workers; the dedupe set is per worker, so the merged
# output is deduped again as a reduce step would.
t_two=$(secs sh -c 'kh-fetch events a.json.gz > 1.out & kh-fetch events b.json.gz > 2.out & wait')
cat 1.out 2.out | awk -f "$here/events-dedupe.awk" | cmp -s - plain.out ||
	echo "two workers: output DIFFERS from the one-worker run"
# What two cores give here at all: zcat the same way, as the baseline.
t_zcat2=$(secs sh -c 'zcat a.json.gz > /dev/null & zcat b.json.gz > /dev/null & wait')
echo "two files on two cores (gzip): $(ratio "$t_gz" "$t_two")x one core" \
	"(want close to 2); zcat the same way: $(ratio "$t_zcat" "$t_zcat2")x" \
	"($(getconf _NPROCESSORS_ONLN) cores here)"
if command -v parallel > /dev/null; then
	t_par=$(secs sh -c 'parallel -k -j 2 kh-fetch events ::: a.json.gz b.json.gz > par.out')
	awk -f "$here/events-dedupe.awk" par.out | cmp -s - plain.out ||
		echo "parallel: output DIFFERS from the one-worker run"
	echo "the same through GNU parallel -j 2: $(ratio "$t_gz" "$t_par")x one core"
fi
if [ -x /usr/bin/time ]; then
	rss=$(/usr/bin/time -f %M kh-fetch events a.json.gz 2>&1 > /dev/null | tail -1)
	echo "memory: max RSS of one worker $((rss / 1024)) MiB, for $((bytes / 2097152)) MB"
fi
