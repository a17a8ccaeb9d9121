#!/bin/sh
# kh-fetch codeforces against the loopback replay server
. "$(dirname "$0")/../lib.sh"
. "$KH_TOP/tests/replay/replay.sh"

replay_start "$KH_TOP/tests/replay/codeforces" || exit 1
KH_CODEFORCES_URL=$REPLAY_URL KH_NOW=1795996800 KH_RETRY_WAIT_MS=10
export KH_CODEFORCES_URL KH_NOW KH_RETRY_WAIT_MS
fresh () { KH_CACHE=$TRASH/cache-$1; export KH_CACHE; }
host () { sed "s/127.0.0.1:[0-9]*/HOST/g" "$@"; }

test_expect_success 'one call for all handles; unrated users have null ratings' '
	fresh ok &&
	kh-fetch codeforces kernelqueen test_tarou Bob-K >out &&
	host out >got &&
	cat >expect <<-\EOT &&
	{"type":"evidence","id":"codeforces:kernelqueen","kind":"rating","source":"codeforces","person":{"name":"Kay Queen","handle":"kernelqueen"},"url":"http://HOST/profile/kernelqueen","at":"2026-11-30T00:00:00Z","repo":null,"upstream":null,"rating":2731,"max_rating":2804,"rank_title":"international grandmaster","max_rank_title":"international grandmaster","country":"Canada"}
	{"type":"evidence","id":"codeforces:test_tarou","kind":"rating","source":"codeforces","person":{"handle":"test_tarou"},"url":"http://HOST/profile/test_tarou","at":"2026-11-30T00:00:00Z","repo":null,"upstream":null,"rating":null,"max_rating":null,"rank_title":null,"max_rank_title":null}
	{"type":"evidence","id":"codeforces:Bob-K","kind":"rating","source":"codeforces","person":{"handle":"Bob-K"},"url":"http://HOST/profile/Bob-K","at":"2026-11-30T00:00:00Z","repo":null,"upstream":null,"rating":1893,"max_rating":2012,"rank_title":"candidate master","max_rank_title":"candidate master","organization":"ETH Zurich"}
	EOT
	test_cmp expect got &&
	test $(grep -c "^/api/user.info" "$TRASH/replay.log") = 1
'

test_expect_success 'a second run within the day comes from the cache' '
	fresh ok &&
	: >"$TRASH/replay.log" &&
	kh-fetch codeforces kernelqueen test_tarou Bob-K >again &&
	test_cmp out again &&
	test ! -s "$TRASH/replay.log"
'

test_expect_success 'FAILED under HTTP 400: asked one a call, the others still come (exit 5)' '
	fresh e400 &&
	test_must_fail --rc=5 kh-fetch codeforces kernelqueen nosuchuser1 Bob-K >out 2>err &&
	jq -r .person.handle out >got &&
	printf "kernelqueen\nBob-K\n" >expect &&
	test_cmp expect got &&
	host err >got &&
	cat >expect <<-\EOT &&
	kh-fetch: cannot fetch '\''http://HOST/api/user.info?handles=kernelqueen;nosuchuser1;Bob-K'\'': HTTP 400
	kh-fetch: cannot fetch '\''http://HOST/api/user.info?handles=nosuchuser1'\'': HTTP 400
	EOT
	test_cmp expect got
'

test_expect_success 'FAILED under HTTP 200 naming a handle: that one skipped (exit 1)' '
	fresh e200 &&
	printf "kernelqueen\n\n# a comment\nghost_200\nBob-K\nKERNELQUEEN\n" >handles &&
	test_must_fail --rc=1 kh-fetch codeforces <handles >out 2>err &&
	jq -r .person.handle out >got &&
	printf "kernelqueen\nBob-K\n" >expect &&
	test_cmp expect got &&
	cat >expect <<-\EOT &&
	kh-fetch: <stdin>:4: no Codeforces user '\''ghost_200'\''
	kh-fetch: 1 of 4 records skipped
	EOT
	test_cmp expect err
'

test_expect_success '--strict stops at an unknown handle (exit 3)' '
	fresh strict &&
	test_must_fail --rc=3 kh-fetch codeforces --strict kernelqueen ghost_200 Bob-K >out &&
	test ! -s out
'

test_expect_success 'any other FAILED body is a remote failure with its comment' '
	fresh other &&
	test_must_fail --rc=5 kh-fetch codeforces odd_one >out 2>err &&
	test ! -s out &&
	grep "handles: Field should contain between 1 and 10000 items$" err
'

test_expect_success '429 with Retry-After, then 503 "Call limit exceeded", then the answer' '
	fresh busy &&
	kh-fetch codeforces test_tarou >out &&
	jq -r .id out >got && echo codeforces:test_tarou >expect && test_cmp expect got &&
	grep "handles=test_tarou " "$TRASH/replay.log" | cut -d" " -f2 >got &&
	printf "429\n503\n200\n" >expect &&
	test_cmp expect got
'

test_expect_success 'bad handles are reported with their position and never sent' '
	fresh bad &&
	: >"$TRASH/replay.log" &&
	test_must_fail --rc=1 kh-fetch codeforces "bad handle!" ab 2>err &&
	cat >expect <<-\EOT &&
	kh-fetch: <operand>:1: not a Codeforces handle: '\''bad handle!'\''
	kh-fetch: <operand>:2: not a Codeforces handle: '\''ab'\''
	kh-fetch: 2 of 2 records skipped
	EOT
	test_cmp expect err &&
	test ! -s "$TRASH/replay.log"
'

test_expect_success 'help and a bad flag' '
	kh-fetch codeforces --help >out && grep "^Usage: kh-fetch codeforces" out &&
	test_must_fail --rc=2 kh-fetch codeforces --frob
'

test_done
