#!/bin/sh
# gen-comp-table.sh DATA PAGE: print PAGE (kh-comp.1) with the part between
# its comp-table marker comments replaced by the universe x tier table and
# the source list generated from DATA (share/kh/comp.json), so the page can
# never disagree with the data. `make comp-table` writes the result back;
# tests/t/t7001-comp-table.sh fails when the page is out of date.
set -eu
[ $# -eq 2 ] || { echo "usage: gen-comp-table.sh DATA PAGE" >&2; exit 2; }
data=$1 page=$2
tmp=$(mktemp "${TMPDIR:-/tmp}/kh-comp-table.XXXXXX")
trap 'rm -f "$tmp"' EXIT

# mdoc text: escape backslashes, and a leading dot or quote.
jq -r '
def roff: gsub("\\\\"; "\\e") | if test("^[.\u0027]") then "\\&" + . else . end;
def c3: if length <= 3 then . else (.[:-3] | c3) + "," + .[-3:] end;
def fig: (.value | tostring | c3) + (if .basis == "reported" then "" else "*" end);
.currency as $cur |
[.universes | to_entries[] | select(.value.pay == "hourly") | .key] as $hourly |
".Pp",
"Bands as of \(.as_of | roff), in \($cur | roff): annual total compensation" +
(if ($hourly | length) > 0
 then ", except the \($hourly | join(", ")) rows, which are per hour." else "." end),
"A figure marked * is derived by kh from the reported ones, or assumed;",
"the rest are stated by the sources listed below.",
".Bl -column \"universe\" \"principal\" \"1,600,000*\" \"1,600,000*\" \"1,600,000*\"",
".It Sy universe Ta Sy tier Ta Sy low Ta Sy mid Ta Sy high",
(.universes | to_entries[] | .key as $u | .value.tiers | to_entries[] |
 if .value.unpriced then ".It \($u) Ta \(.key) Ta \\(em Ta \\(em Ta \\(em"
 else ".It \($u) Ta \(.key) Ta \(.value.low | fig) Ta \(.value.mid | fig) Ta \(.value.high | fig)"
 end),
".El",
".Pp",
"The opening offer sits \(.offer.opening_pct.value) percent of the way up a band;",
"a counteroffer is expected \(.counteroffer.low_pct.value) to \(.counteroffer.high_pct.value) percent above the current total.",
(.universes | to_entries[] | select(.value.pay == "hourly") |
 "A \(.key) project is \(.value.project_hours.value) hours unless the brief or",
 ".Fl \\-hours",
 "says otherwise (\(.value.project_hours.basis))."),
".Pp",
"The sources, each as of its date:",
".Bl -tag -width Ds",
(.sources | to_entries[] |
 ".It \(.key)", "\(.value.name | roff) (\(.value.as_of | roff)):", (.value.says | roff)),
".El"
' "$data" > "$tmp"

awk -v block="$tmp" '
/^\.\\" BEGIN comp-table/ { print; while ((getline l < block) > 0) print l; skip = 1; begun = 1; next }
/^\.\\" END comp-table/ { skip = 0; ended = 1 }
!skip { print }
END { if (!begun || !ended) { print "gen-comp-table.sh: no comp-table markers" > "/dev/stderr"; exit 1 } }
' "$page"
