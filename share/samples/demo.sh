#!/bin/sh
# demo.sh [OUTDIR]: the whole kh chain on the sample data, no network, no
# token. Builds the sample git histories, fetches evidence from them, adds
# the GitHub-, GPU MODE-, registry- and paper-shaped samples, then verifies
# authorship, scores, prices and drafts. Prints a shortlist; writes
# everything to OUTDIR (default ./kh-demo).
# `make demo` runs it from the source tree; installed, it is
# $(PREFIX)/share/kh/samples/demo.sh and the kh tools are on PATH.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-kh-demo}
# The example brief: share/kh/briefs in the source tree, DATADIR/briefs installed.
brief=$here/../kh/briefs/example.json
[ -f "$brief" ] || brief=$here/../briefs/example.json
brief=${KH_DEMO_BRIEF:-$brief}
mkdir -p "$out"
rm -rf "$out/repos"
sh "$here/make-repos.sh" "$out/repos"
r=$out/repos

export KH_NOW=${KH_NOW:-1767225600}	# 2026-01-01: a fixed clock, the same output every run
{
	# A repository is its own upstream: every commit on its default branch
	# landed there. The fork's own commits come out upstream:false.
	up=$r/fa-labs/flashattn
	kh-fetch git --signals --upstream "$up" "$up"
	kh-fetch git --signals --upstream "$up" "$r/forkonly/flashattn"
	up=$r/cuda100days/100-days-of-cuda
	kh-fetch git --signals --upstream "$up" "$up"
	cat "$here/evidence.ndjson"
} > "$out/evidence.ndjson"
kh-authorship < "$out/evidence.ndjson" > "$out/candidates.ndjson"
kh-score --brief "$brief" < "$out/candidates.ndjson" > "$out/scored.ndjson"
kh-comp --brief "$brief" < "$out/scored.ndjson" > "$out/priced.ndjson"
kh-outreach --brief "$brief" < "$out/priced.ndjson" > "$out/drafts.ndjson"
kh-outreach --brief "$brief" --format md < "$out/priced.ndjson" > "$out/drafts.md"

echo "Shortlist (from $(wc -l < "$out/evidence.ndjson") evidence records):"
jq -rs '
	map(select(.score.total > 0)) | sort_by(-.score.total, .id) | to_entries[]
	| .key as $i | .value as $c
	| "\($i + 1). \($c.name // $c.id)  [\($c.score.tier), \($c.score.total)/100]"
	  + "  specialty: \($c.score.specialty)"
	  + "  generations: \([$c.score.generations[]?.arch // $c.score.generations[]?] | map(tostring) | join(", ") | if . == "" then "-" else . end)",
	  ($c.score.signals | sort_by(-.points) | .[:3][] | "     +\(.points)  \(.why)")
' "$out/scored.ndjson"
echo
echo "Not shortlisted: $(jq -rs 'map(select(.score.total == 0) | .name // .id) | join("; ")' "$out/scored.ndjson")"
echo "Drafts for review: $out/drafts.md (and $out/drafts.ndjson); kh never sends mail."
