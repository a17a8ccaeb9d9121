#!/bin/sh
# share/examples/sourcing.mk against the replay server: a first run builds
# every stage; a second run asks only conditional questions (all 304: no
# full download) and rebuilds nothing; a changed brief rebuilds only the
# stages that read it.
. "$(dirname "$0")/../lib.sh"
. "$KH_TOP/tests/replay/replay.sh"

replay_start "$KH_TOP/tests/replay/github/api" || exit 1
KH_API_URL=$REPLAY_URL KH_CACHE=$TRASH/cache KH_NOW=1767225600
export KH_API_URL KH_CACHE KH_NOW
cp "$KH_TOP/share/kh/briefs/example.json" role.json

run () {
	: >"$TRASH/replay.log" &&
	make -f "$KH_TOP/share/examples/sourcing.mk" REPOS=acme/kernels \
		BRIEF=role.json OUT=out >make.out 2>&1
}
# "STATUS cond=N" of every request, counted
requests () {
	cut -d" " -f2-3 "$TRASH/replay.log" | sort | uniq -c | sed "s/^ *//"
}
stamps () {
	for f in out/*; do printf "%s %s\n" "$f" "$(stat -c %Y.%y "$f")"; done
}

test_expect_success 'the first run builds every stage from full downloads' '
	run &&
	for f in evidence candidates scored priced drafts; do
		test -s out/$f.ndjson || return 1
	done &&
	test -s out/drafts.md && test -f out/shortlist.txt &&
	requests >got &&
	grep -q "200 cond=0" got &&
	! grep -v "200 cond=0" got
'

test_expect_success 'the second run downloads nothing and rebuilds nothing' '
	stamps >before &&
	sleep 1 &&
	run &&
	requests >got &&
	grep -q "304 cond=1" got &&
	! grep -v "304 cond=1" got &&
	grep "evidence unchanged" make.out &&
	stamps >after &&
	test_cmp before after
'

test_expect_success 'a changed brief rebuilds only the stages that read it' '
	stamps >before &&
	sleep 1 &&
	touch role.json &&
	run &&
	stamps >after &&
	diff before after | sed -n "s/^> \(out\/[a-z.]*\) .*/\1/p" | sort >changed &&
	printf "%s\n" out/drafts.md out/drafts.ndjson out/priced.ndjson out/scored.ndjson out/shortlist.txt >expect &&
	test_cmp expect changed
'

test_expect_success 'a failed fetch fails the stage and keeps the old evidence' '
	cp out/evidence.ndjson good &&
	test_must_fail make -f "$KH_TOP/share/examples/sourcing.mk" REPOS=acme/no-such-repo \
		BRIEF=role.json OUT=out >make.out 2>&1 &&
	test_cmp good out/evidence.ndjson
'
test_done
