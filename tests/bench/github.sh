#!/bin/sh
# tests/bench/github.sh: kh-fetch github prs against a sequential curl loop
# over the same URLs, on the replay server with 50 ms of latency a request
# and 2,000 pages of 30 pull requests (KH_BENCH_PAGES, KH_BENCH_LATENCY).
# Targets: --parallel 16 reaches 10x the pages per second of the curl loop;
# a warm re-run downloads no body (every answer a 304); memory does not
# grow with the number of pages (peak RSS at a quarter and at all pages).
set -eu
: "${KH_BIN:?run through make bench}"
PATH=$KH_BIN:$PATH
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-bench-github.XXXXXX")
# The cache on tmpfs when there is one: this measures the network side, and
# a shared virtual disk writing 18 KB per page is slower than the network.
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=$tmp
cache=$(mktemp -d "$shm/kh-bench-cache.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp" "$cache"' EXIT
pages=${KH_BENCH_PAGES:-2000}
latency=${KH_BENCH_LATENCY:-50}
command -v curl >/dev/null || { echo "github.sh: needs curl"; exit 1; }

now () { date +%s.%N; }
server () {	# DIR LATENCY: start the replay server, set base
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -f "$tmp/port"
	python3 "$top/tests/replay/server.py" --port-file "$tmp/port" \
		--latency "$2" "$1" &
	pid=$!
	while [ ! -s "$tmp/port" ]; do sleep 0.1; done
	base=http://127.0.0.1:$(cat "$tmp/port")
}
stats () { python3 -c 'import sys,urllib.request as u;print(u.urlopen(sys.argv[1]).read().decode())' "$base/_replay/stats"; }

python3 "$top/tests/replay/server.py" --gen-bench "$tmp/s" "$pages"
server "$tmp/s" "$latency"

# baseline: one curl, the URLs one after the other on a kept-alive connection
sed "s|^|url = \"$base|; s|\$|\"\\noutput = \"/dev/null\"|" "$tmp/s/urls" >"$tmp/curl.cfg"
t0=$(now)
curl -s --compressed -H "Accept: application/vnd.github+json" -K "$tmp/curl.cfg"
t1=$(now)

t2=$(now)
kh-fetch github --api-url "$base" --cache "$cache" -p 16 prs bench/big >"$tmp/out"
t3=$(now)
n=$(wc -l <"$tmp/out")
before=$(stats)
kh-fetch github --api-url "$base" --cache "$cache" -p 16 prs bench/big >"$tmp/out2"
after=$(stats)
cmp -s "$tmp/out" "$tmp/out2" || { echo "github.sh: the warm run differs"; exit 1; }

rc=0
python3 - "$pages" "$t0" "$t1" "$t2" "$t3" "$n" "$before" "$after" <<'EOF' || rc=1
import json, sys
pages, t0, t1, t2, t3, n = int(sys.argv[1]), *map(float, sys.argv[2:6]), int(sys.argv[6])
b, a = json.loads(sys.argv[7]), json.loads(sys.argv[8])
curl, kh = pages / (t1 - t0), pages / (t3 - t2)
print("pages: %d, records: %d" % (pages, n))
print("curl loop:        %7.1f pages/s" % curl)
print("kh-fetch -p 16:   %7.1f pages/s  %.1fx the curl loop (target >= 10x)" % (kh, kh / curl))
req = a["requests"] - b["requests"]
nm = a["not_modified"] - b["not_modified"]
full = a["full"] - b["full"]
print("warm re-run:      %d requests, %d answered 304, %d bodies (target 0)" % (req, nm, full))
ok = kh / curl >= 10 and full == 0 and req == pages
sys.exit(0 if ok else 1)
EOF

# memory: peak RSS for a quarter of the pages and for all, no latency
q=$((pages / 4))
python3 "$top/tests/replay/server.py" --gen-bench "$tmp/q" "$q"
for d in q s; do
	server "$tmp/$d" 0
	/usr/bin/time -f %M -o "$tmp/rss.$d" kh-fetch github --api-url "$base" \
		--no-cache -p 16 prs bench/big >/dev/null
done
echo "peak RSS:         $(cat "$tmp/rss.q") KiB at $q pages, $(cat "$tmp/rss.s") KiB at $pages pages"
exit $rc
