#!/bin/sh
# kh-authorship --key | sort | kh-authorship --sorted: the map-reduce form,
# and the pipeline behaviour every tool owes (head, -v).
. "$(dirname "$0")/../lib.sh"

golden=$KH_TOP/tests/golden/kh-authorship

test_expect_success 'the sorted reduce gives what the whole run gives' '
	# inputs where every person has one key: no identity merging needed
	cat "$golden"/021-*/in.ndjson "$golden"/023-*/in.ndjson \
	    "$golden"/029-*/in.ndjson "$golden"/030-*/in.ndjson >in.ndjson &&
	kh-authorship in.ndjson >expect &&
	kh-authorship --key in.ndjson | LC_ALL=C sort |
	    kh-authorship --sorted >actual &&
	test_cmp expect actual &&
	test $(wc -l <actual) -eq 13
'

test_expect_success 'the key lines can be split and sorted in parts' '
	kh-authorship --key in.ndjson >keys &&
	split -l 7 keys part. &&
	for p in part.*; do LC_ALL=C sort "$p" >"$p.s" || return 1; done &&
	LC_ALL=C sort -m part.*.s | kh-authorship --sorted >actual &&
	test_cmp expect actual
'

test_expect_success 'unsorted input to --sorted stops with exit 3' '
	kh-authorship --key in.ndjson | LC_ALL=C sort -r >rev &&
	test_must_fail --rc=3 kh-authorship --sorted rev >out 2>err &&
	grep "^kh-authorship: rev:[0-9]*: input is not sorted by key (" err &&
	test $(wc -l <err) -eq 1
'

test_expect_success '--sorted wants the --key form' '
	test_must_fail --rc=1 kh-authorship --sorted in.ndjson >out 2>err &&
	head -1 err >actual &&
	echo "kh-authorship: in.ndjson:1: missing required field '\''authorship.key'\'' (make the input with kh-authorship --key)" >expect &&
	test_cmp expect actual &&
	test_cmp /dev/null out
'

test_expect_success 'a reader that stops early ends it quietly' '
	awk "{ for (i = 0; i < 400; i++) { s = \$0; gsub(/wong.dev/, \"w\" i \".dev\", s); print s } }" \
	    in.ndjson >big.ndjson &&
	{ kh-authorship big.ndjson 2>err; echo $? >rc; } | head -1 >one &&
	test $(wc -l <one) -eq 1 &&
	test_cmp /dev/null err
'

test_expect_success '-v counts what went in and out' '
	kh-authorship -v in.ndjson >/dev/null 2>err &&
	echo "kh-authorship: 14 in, 13 out, 0 skipped" >expect &&
	test_cmp expect err
'
test_done
