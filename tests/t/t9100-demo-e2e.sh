#!/bin/sh
# The whole chain on the demo data (share/samples), end to end.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'the demo runs and prints a shortlist' '
	sh "$KH_TOP/share/samples/demo.sh" out >demo.out 2>demo.err &&
	grep "^Shortlist" demo.out &&
	test -s out/drafts.md
'

# The shortlist: candidates with points, best first.
jq -rs "map(select(.score.total > 0)) | sort_by(-.score.total, .id) | .[].name" \
	out/scored.ndjson >shortlist 2>/dev/null

# Ravi Raman: rank 2 of 180 before the deadline and an organiser-stated
# 3rd place, machine-verified results, the most reliable signal; then Mei
# Lin: three merged Hopper/Blackwell kernel PRs upstream.
test_expect_success 'the shortlist puts the machine-verified and kernel authors first' '
	head -2 shortlist >top &&
	printf "Ravi Raman\nMei Lin\n" >expect &&
	test_cmp expect top
'

test_expect_success 'no bot, fork-only, docs-only or release-drop identity is on it' '
	! grep -i -e dependabot -e "Frank Fork" -e "Dee Oakes" -e "fa-labs release" shortlist
'

test_expect_success 'the person under three emails is one candidate' '
	jq -r "select(.emails | index(\"mei.lin@uni.example\")) | .id" out/candidates.ndjson >ids &&
	test $(wc -l <ids) -eq 1 &&
	jq -r "select(.emails | index(\"mei.lin@uni.example\")) | .emails[]" out/candidates.ndjson | sort >emails &&
	grep -x "12345+meilin-gpu@users.noreply.github.com" emails &&
	grep -x "mei@lattice-old.example" emails
'

test_expect_success 'every draft cites evidence of its own candidate' '
	jq -r "select(.outreach.cites) | .id as \$c | ([.evidence[].id]) as \$ids
		| .outreach.cites[] | select(. as \$x | \$ids | index(\$x) | not)
		| \"\(\$c) cites \(.)\"" out/drafts.ndjson >dangling &&
	test_cmp /dev/null dangling &&
	jq -s "map(select(.outreach.cites)) | length" out/drafts.ndjson >n &&
	test $(cat n) -ge 2
'

test_expect_success 'the demo is reproducible' '
	sh "$KH_TOP/share/samples/demo.sh" again >/dev/null 2>&1 &&
	cmp out/scored.ndjson again/scored.ndjson &&
	cmp out/drafts.ndjson again/drafts.ndjson
'
test_done
