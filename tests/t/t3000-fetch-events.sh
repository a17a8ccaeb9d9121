#!/bin/sh
# kh-fetch events on generated GH Archive hours: the same records as jq's
# select, whatever the input form (gzip, gzip members, stdin, BigQuery
# rows); truncated hours; split over workers with GNU parallel and merged
# downstream; the shipped repos.txt.
. "$(dirname "$0")/../lib.sh"

bench=$KH_TOP/tests/bench
gen=${KH_TESTBIN:?run through make check}/gen-gharchive

# The targets of share/kh/repos.txt as the jq object events.jq wants.
targets=$(sed 's/#.*//' "$KH_TOP/share/kh/repos.txt" | awk 'NF {
	printf "%s\"%s\":true", n++ ? "," : "{", tolower($1) } END { print "}" }')

test_expect_success 'two generated hours' '
	"$gen" -m 2 -s 1 > a.json &&
	"$gen" -m 2 -s 2 -t 50 > b.json &&
	gzip -9n -k a.json b.json &&
	test $(grep -c PullRequestEvent a.json) -gt 50
'

test_expect_success 'the records are those of the jq select, in order' '
	jq -c --argjson t "$targets" -f "$bench/events.jq" a.json b.json |
		awk -f "$bench/events-dedupe.awk" > expect &&
	kh-fetch events a.json b.json > actual &&
	test_cmp expect actual &&
	test $(wc -l < actual) -gt 10 &&
	grep -q "\"merged\":null" actual &&
	grep -q "\"merged\":false" actual &&
	grep -q "\"merged\":true" actual
'

test_expect_success 'the golden happy path is what jq selects, authors filled in too' '
	in=$KH_TOP/tests/golden/kh-fetch/200-events-happy/in.ndjson &&
	jq -c --argjson t "$targets" -f "$bench/events.jq" "$in" |
		awk -f "$bench/events-dedupe.awk" > expect-happy &&
	kh-fetch events < "$in" > actual-happy &&
	test_cmp expect-happy actual-happy &&
	grep -q "triton#4200\",.*\"person\":{\"login\":\"dave\",\"user_id\":\"1004\"}" actual-happy &&
	grep -q "triton#4100\",.*\"person\":{}" actual-happy
'

test_expect_success 'a pull request closed twice in the input is written once' '
	kh-fetch events a.json a.json > twice &&
	kh-fetch events a.json > once &&
	test_cmp once twice &&
	jq -r "select(.merged == true) | .id" once | sort | uniq -d > merged-dups &&
	test_cmp /dev/null merged-dups
'

test_expect_success 'gzip files, gzip members, gzip and plain on stdin: the same' '
	kh-fetch events a.json.gz b.json.gz > gz &&
	test_cmp expect gz &&
	cat a.json.gz b.json.gz > ab.json.gz &&
	kh-fetch events ab.json.gz > members &&
	test_cmp expect members &&
	kh-fetch events < ab.json.gz > stdin-gz &&
	test_cmp expect stdin-gz &&
	zcat a.json.gz b.json.gz | kh-fetch events > zcat &&
	test_cmp expect zcat &&
	kh-fetch events - < a.json > dash &&
	kh-fetch events a.json > a.out &&
	test_cmp a.out dash
'

test_expect_success 'rows of the BigQuery tables, exported as NDJSON: the same' '
	jq -c "{type, public, payload: (.payload | tojson), repo, actor, org,
		created_at: (.created_at | sub(\"T\"; \" \") | sub(\"Z\"; \" UTC\")),
		id, other: null}" a.json b.json > bq.json &&
	kh-fetch events bq.json > bq &&
	test_cmp expect bq
'

test_expect_success 'a truncated hour keeps every line before the cut' '
	size=$(wc -c < a.json.gz) &&
	head -c $((size * 2 / 3)) a.json.gz > cut.json.gz &&
	{ zcat cut.json.gz 2>/dev/null; true; } > cut.raw &&
	lines=$(wc -l < cut.raw) &&
	head -n "$lines" cut.raw > whole.json &&
	kh-fetch events whole.json > expect-cut &&
	test_must_fail --rc=1 kh-fetch events cut.json.gz > actual-cut 2> err &&
	test_cmp expect-cut actual-cut &&
	test -s actual-cut &&
	echo "kh-fetch: cut.json.gz:$((lines + 1)): truncated gzip data" > expect-err &&
	echo "kh-fetch: 1 of $((lines + 1)) records skipped" >> expect-err &&
	test_cmp expect-err err
'

test_expect_success 'the truncated hour is reported and the next file still read' '
	test_must_fail --rc=1 kh-fetch events cut.json.gz b.json.gz > two 2> err &&
	kh-fetch events b.json.gz > b.out &&
	cat expect-cut b.out | awk -f "$bench/events-dedupe.awk" > expect-two &&
	test_cmp expect-two two &&
	test_must_fail --rc=3 kh-fetch events --strict cut.json.gz b.json.gz > strict &&
	test_cmp expect-cut strict
'

test_expect_success 'a directory is an I/O error; the other files are read' '
	mkdir hours &&
	test_must_fail --rc=4 kh-fetch events hours a.json > dir-out 2> err &&
	test_cmp a.out dir-out &&
	grep "^kh-fetch: cannot read .hours.: Is a directory$" err
'

test_expect_success 'parallel -j 2 over the files, merged downstream, is one run' '
	command -v parallel > /dev/null || { echo "no GNU parallel"; exit 1; }
	parallel -j 2 kh-fetch events ::: a.json.gz b.json.gz > par &&
	jq -r .id par | sort -u > par.ids &&
	jq -r .id expect | sort -u > expect.ids &&
	test_cmp expect.ids par.ids &&
	parallel -k -j 2 kh-fetch events ::: a.json.gz b.json.gz |
		awk -f "$bench/events-dedupe.awk" > par-k &&
	test_cmp expect par-k
'

test_expect_success 'map and reduce: kh-authorship --key, sort, --sorted' '
	command -v kh-authorship > /dev/null || { echo "no kh-authorship"; exit 1; }
	parallel -j 2 "kh-fetch events {} | kh-authorship --key" ::: \
		a.json.gz b.json.gz | LC_ALL=C sort | kh-authorship --sorted > reduced &&
	kh-fetch events a.json.gz b.json.gz | kh-authorship > one &&
	jq -r .id one | sort > one.ids &&
	jq -r .id reduced | sort > reduced.ids &&
	test_cmp one.ids reduced.ids &&
	test -s one.ids
'

test_expect_success 'kh-fetch events | head -1 ends quietly' '
	cat a.json a.json a.json a.json > big.json &&
	kh-fetch events --all-repos big.json 2> err | head -1 > first &&
	test $(wc -l < first) -eq 1 &&
	test_cmp /dev/null err
'

test_expect_success 'the shipped repos.txt lists the key kernel repositories' '
	for r in vllm-project/vllm sgl-project/sglang Dao-AILab/flash-attention \
	    NVIDIA/cutlass triton-lang/triton HazyResearch/ThunderKittens \
	    flashinfer-ai/flashinfer deepseek-ai/DeepGEMM deepseek-ai/FlashMLA; do
		grep -qx "$r" "$KH_TOP/share/kh/repos.txt" || { echo "no $r"; exit 1; }
	done &&
	grep -q "^# As of [0-9-]*\." "$KH_TOP/share/kh/repos.txt" &&
	kh-fetch events --repos="$KH_TOP/share/kh/repos.txt" < /dev/null
'

# The recorded GH Archive hour beside the project, when it is there.
shared=$KH_TOP/../shared/fixtures/github/derived
if [ -f "$shared/2017-12-29-0.json.gz" ]; then
	test_expect_success 'a real 2017 GH Archive hour: its two merged pull requests' '
		kh-fetch events --all-repos "$shared/2017-12-29-0.json.gz" > real &&
		jq -r "[.id, .merged, .person.login] | @tsv" real > ids &&
		printf "%s\t%s\t%s\n" "github:pr:FRCDiscord/Dozer#59" true 770352 \
			"github:pr:abseil/abseil-py#26" true yilei > expect-real &&
		test_cmp expect-real ids
	'
fi

test_done
