#!/bin/sh
# kh-comp: the shipped pay data, the stale-data warning against it, the
# role brief shared with kh-score and kh-outreach, pipelines and EXAMPLES.
. "$(dirname "$0")/../lib.sh"

data=$KH_TOP/share/kh/comp.json
brief=$KH_TOP/share/kh/briefs/example.json
KH_NOW=1790000000	# 2026-09-21: the shipped data is fresh
export KH_NOW

cand () {
	printf '{"type":"candidate","id":"github:%s","score":{"tier":"%s"}%s}\n' \
	    "$1" "$2" "${3:-}"
}

test_expect_success 'every figure of comp.json has a value, basis, sources and date' '
	jq -c "paths(objects | has(\"value\")) as \$p | getpath(\$p) |
	    select((.value | type) != \"number\" or .value != (.value | floor)
	    or (.basis | IN(\"reported\", \"derived\", \"policy\", \"assumption\") | not)
	    or (.as_of | type) != \"string\" or (.src | type) != \"array\"
	    or (.basis == \"reported\" and (.src | length) == 0)
	    or (.basis != \"reported\" and (.how | type) != \"string\" and \$p[-1] != \"round_to\"))
	    | \$p" "$data" >bad &&
	test_cmp /dev/null bad
'

test_expect_success 'every source a figure cites exists, and every source is cited' '
	jq -r "[.. | objects | select(has(\"src\")) | .src[]] | unique[]" "$data" >cited &&
	jq -r ".sources | keys[]" "$data" | sort >have &&
	test_cmp have cited
'

test_expect_success 'the band of every universe and tier comes from the data file' '
	for u in $(jq -r ".universes | keys_unsorted[]" "$data"); do
		for t in principal staff senior mid junior; do
			cand x $t | kh-comp --universe=$u |
			    jq -c "[.comp.universe, .comp.tier,
			      (.comp.band // .comp.contract_hourly | .low, .mid, .high)]"
		done
	done >actual &&
	jq -c ".universes | to_entries[] | .key as \$u | .value.tiers |
	    to_entries[] | select(.value.low) |
	    [\$u, .key, .value.low.value, .value.mid.value, .value.high.value]" \
	    "$data" >expect &&
	test_cmp expect actual
'

test_expect_success 'bands from --data win over the shipped ones' '
	jq ".universes.chip.tiers.senior.low.value = 123000" "$data" >mine.json &&
	cand x senior | kh-comp --universe=chip --data=mine.json |
	    jq -c .comp.band >actual &&
	echo "{\"low\":123000,\"mid\":423000,\"high\":500000,\"currency\":\"USD\",\"basis\":\"total\"}" >expect &&
	test_cmp expect actual
'

test_expect_success 'KH_DATADIR names where comp.json is found' '
	mkdir -p dd && jq ".as_of = \"2026-09-02\"" "$data" >dd/comp.json &&
	cand x senior | KH_DATADIR=$PWD/dd kh-comp --universe=chip |
	    jq -r .comp.as_of >actual &&
	echo 2026-09-02 >expect &&
	test_cmp expect actual
'

test_expect_success 'money is whole numbers, never an exponent or a fraction' '
	for u in chip frontier startup contract; do
		for t in principal staff senior mid junior unproven; do
			cand x $t ",\"comp_hint\":{\"current_total\":333333}"
		done | kh-comp --universe=$u
	done >out &&
	test $(wc -l <out) = 24 &&
	jq -c "[.comp | .. | numbers | select(. != floor)]" out | sort -u >fractions &&
	echo "[]" >expect &&
	test_cmp expect fractions &&
	! grep -E "[0-9][eE][-+]?[0-9]|\.[0-9]" out
'

test_expect_success 'the counteroffer range is the data percentages above the current total' '
	lo=$(jq .counteroffer.low_pct.value "$data") &&
	hi=$(jq .counteroffer.high_pct.value "$data") &&
	cand x staff ",\"comp_hint\":{\"current_total\":410000}" |
	    kh-comp --universe=frontier | jq -c .comp.counteroffer.expected_range >actual &&
	echo "{\"low\":$((410000 * (100 + lo) / 100)),\"high\":$((410000 * (100 + hi) / 100))}" >expect &&
	test_cmp expect actual
'

test_expect_success 'the example brief prices in its universe against its budget' '
	cand x senior | kh-comp --brief="$brief" |
	    jq -c ".comp | [.universe, .band.high, .opening_offer, .walk_away,
	      .in_budget, .gap_to_budget, .levers[1]]" >actual &&
	max=$(jq .budget.max "$brief") &&
	echo "[\"startup\",420000,380000,$max,true,$((max - 380000)),\"guaranteed compute with no queue: 64 B200s reserved for the kernel team\"]" >expect &&
	test_cmp expect actual
'

test_expect_success 'stale shipped data: one warning, however many records' '
	stale=$(jq -r .as_of "$data" | { IFS=- read -r y m d; echo "$((y + 1))-$m-$d"; }) &&
	{ cand a senior; cand b mid; cand c junior; } |
	    KH_NOW=$(date -u -d "$stale" +%s) KH_DATADIR="$KH_TOP/share/kh" \
	    kh-comp --universe=chip >out 2>err &&
	test $(wc -l <out) = 3 &&
	echo "kh-comp: stale pay data '\''$KH_TOP/share/kh/comp.json'\'': as of $(jq -r .as_of "$data"), more than six months ago; the figures change month to month, verify them against current sources" >expect &&
	test_cmp expect err
'

test_expect_success 'the shipped data is not stale at its own date' '
	cand a senior | KH_NOW=$(date -u -d "$(jq -r .as_of "$data")" +%s) \
	    kh-comp --universe=chip >out 2>err &&
	test_cmp /dev/null err
'

test_expect_success 'kh-comp | head -1 ends quietly' '
	i=0 && while [ $i -lt 3000 ]; do cand u$i senior; i=$((i + 1)); done >many &&
	{ kh-comp --universe=chip many 2>err; echo $? >rc; } | head -1 >first &&
	test $(wc -l <first) = 1 &&
	test_cmp /dev/null err &&
	echo 141 >expect && test_cmp expect rc
'

test_expect_success 'EXAMPLES: a contract for 160 hours' '
	cand x senior >scored.ndjson &&
	kh-comp --universe contract --hours 160 scored.ndjson |
	    jq -c ".comp.contract_hourly.project" >actual &&
	echo "{\"hours\":160,\"hours_basis\":\"option\",\"low\":14400,\"mid\":16000,\"high\":17600}" >expect &&
	test_cmp expect actual
'

test_expect_success 'EXAMPLES: the candidates the budget cannot reach' '
	{ cand a senior; cand b principal; cand c staff; } >scored.ndjson &&
	jq ".budget.max = 500000" "$brief" >role.json &&
	kh-comp --brief role.json scored.ndjson |
	    jq -r "select(.comp.in_budget == false) |
	      [.id, .comp.gap_to_budget] | @tsv" >actual &&
	printf "github:b\t-65000\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a file operand and stdin give the same records' '
	{ cand a senior; cand b mid; } >in.ndjson &&
	kh-comp --universe=startup in.ndjson >one &&
	kh-comp --universe=startup - <in.ndjson >two &&
	test_cmp one two && test $(wc -l <one) = 2
'

test_done
