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

# jq's equivalent of kh-fetch events: the same selection, the same record.
targets=$(sed 's/#.*//' "$top/share/kh/repos.txt" | awk 'NF { printf "%s\"%s\":true",
	n++ ? "," : "{", tolower($1) } END { print "}" }')
cat > select.jq <<'EOF'
def repo_of(r): r | if type == "object" then (.full_name //
	(.url | if type == "string" then ltrimstr("https://api.github.com/repos/")
	else null end)) else null end;
select(.type == "PullRequestEvent" and $t[.repo.name | ascii_downcase])
| (.payload | if type == "string" then fromjson else . end) as $p
| select($p.action == "closed")
| $p.pull_request as $pr
| ($p.number // $pr.number) as $n
| (repo_of($pr.base.repo) // .repo.name) as $base
| repo_of($pr.head.repo) as $head
| {type: "evidence", id: "github:pr:\(.repo.name)#\($n)", kind: "pr",
   source: "gharchive",
   person: ({} + (if ($pr.user.login | type) == "string"
		then {login: $pr.user.login} else {} end)
	+ (if ($pr.user.id | type) == "number"
		then {user_id: ($pr.user.id | tostring)} else {} end)),
   url: "https://github.com/\(.repo.name)/pull/\($n)",
   at: ($pr.merged_at // $pr.closed_at // .created_at),
   repo: .repo.name, upstream: null, number: $n, title: $pr.title,
   text: (if ($pr.body | type) == "string" then $pr.body[:8192] else null end),
   author_type: $pr.user.type,
   merged: (if ($pr.merged | type) == "boolean" then $pr.merged
	elif ($pr.merged_at | type) == "string" then true
	elif ($pr | has("merged_at")) then false else null end),
   merged_at: $pr.merged_at, merged_by: $pr.merged_by.login,
   base_repo: $base, head_repo: $head,
   from_fork: (if $head then ($base | ascii_downcase) != ($head | ascii_downcase)
	else null end),
   labels: (if ($pr.labels | type) == "array"
	then [$pr.labels[] | .name | strings] else null end),
   added: $pr.additions, deleted: $pr.deletions,
   changed_files: $pr.changed_files, event_id: .id}
EOF
# What kh-fetch does after the selection: a pull request once, and again
# only if it was written unmerged and is now merged.
cat > dedupe.awk <<'EOF'
{
	i = index($0, "\"id\":\""); r = substr($0, i + 6)
	id = substr(r, 1, index(r, "\"") - 1); m = index($0, "\"merged\":true") > 0
	if (!(id in seen)) { seen[id] = m; print; next }
	if (m && !seen[id]) { seen[id] = 1; print }
}
EOF

echo "corpus: $((bytes / 1048576)) MB plain, $((gzbytes / 1048576)) MB gzip, 2 files"

runs=1
t_jq=$(secs sh -c 'jq -c --argjson t "$1" -f select.jq a.json b.json > jq.raw' \
	sh "$targets")
awk -f dedupe.awk jq.raw > jq.out
runs=3
t_plain=$(secs sh -c 'kh-fetch events a.json b.json > plain.out')
if cmp -s jq.out plain.out; then same=identical; else same=DIFFERENT; fi
echo "plain: $(mbs "$bytes" "$t_plain") MB/s on one core ($(wc -l < plain.out)" \
	"records, $same to jq's); jq $(mbs "$bytes" "$t_jq") MB/s;" \
	"kh-fetch/jq speed $(ratio "$t_jq" "$t_plain")x"

t_zcat=$(secs sh -c 'zcat a.json.gz b.json.gz > /dev/null')
t_gz=$(secs sh -c 'kh-fetch events a.json.gz b.json.gz > gz.out')
cmp -s gz.out plain.out || echo "gzip: output DIFFERS from the plain run"
echo "gzip: $(mbs "$bytes" "$t_gz") MB/s of JSON; time $(ratio "$t_gz" "$t_zcat")x" \
	"zcat's (zcat alone: $(mbs "$bytes" "$t_zcat") MB/s)"

# Two files, two workers; the dedupe set is per worker, so the merged
# output is deduped again as a reduce step would.
t_two=$(secs sh -c 'kh-fetch events a.json.gz > 1.out & kh-fetch events b.json.gz > 2.out & wait')
cat 1.out 2.out | awk -f dedupe.awk | cmp -s - plain.out ||
	echo "two workers: output DIFFERS from the one-worker run"
t_par=$(secs sh -c 'parallel -k -j 2 kh-fetch events ::: a.json.gz b.json.gz > par.out')
awk -f dedupe.awk par.out | cmp -s - plain.out ||
	echo "parallel: output DIFFERS from the one-worker run"
rss=$(/usr/bin/time -f %M kh-fetch events a.json.gz 2>&1 > /dev/null | tail -1)
echo "two files on two cores (gzip): $(ratio "$t_gz" "$t_two")x one core;" \
	"with GNU parallel $(ratio "$t_gz" "$t_par")x; max RSS per worker ${rss} KiB"
