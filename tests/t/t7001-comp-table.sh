#!/bin/sh
# kh-comp(1)'s table of bands is generated from share/kh/comp.json
# (make comp-table): fail when the page and the data disagree.
. "$(dirname "$0")/../lib.sh"

data=$KH_TOP/share/kh/comp.json
page=$KH_TOP/share/man/man1/kh-comp.1
gen=$KH_TOP/share/man/gen-comp-table.sh

test_expect_success 'kh-comp(1) holds the table of the shipped data (make comp-table)' '
	sh "$gen" "$data" "$page" >regenerated &&
	test_cmp "$page" regenerated
'

test_expect_success 'the table has a row for every universe and tier of the data' '
	jq -r ".universes | to_entries[] | .key as \$u | .value.tiers | keys_unsorted[] |
	    \".It \(\$u) Ta \(.) Ta \"" "$data" >rows &&
	test $(wc -l <rows) = 24 &&
	while IFS= read -r row; do
		grep -c -F -- "$row" "$page" || echo "no row: $row"
	done <rows >counts &&
	sort -u counts >actual && echo 1 >expect &&
	test_cmp expect actual
'

test_expect_success 'a changed figure changes the table, so the check can fail' '
	jq ".universes.frontier.tiers.staff.mid.value = 1234567 |
	    .universes.frontier.tiers.staff.mid.basis = \"derived\"" "$data" >changed.json &&
	sh "$gen" changed.json "$page" >new &&
	! cmp -s "$page" new &&
	grep -F ".It frontier Ta staff Ta 850,000 Ta 1,234,567* Ta 1,600,000" new
'

test_expect_success 'the generated page lints clean' '
	if command -v mandoc >/dev/null; then
		mandoc -Tlint -W warning regenerated >lint 2>&1
	else
		groff -mdoc -z -ww regenerated >lint 2>&1
	fi
	test_cmp /dev/null lint
'

test_expect_success 'a page without the markers is an error' '
	sed "/comp-table/d" "$page" >nomarks.1 &&
	test_must_fail sh "$gen" "$data" nomarks.1 >out 2>err &&
	echo "gen-comp-table.sh: no comp-table markers" >expect &&
	test_cmp expect err
'

test_done
