#!/bin/sh
# kh-fetch gpumode against the loopback replay server (tests/replay/gpumode)
. "$(dirname "$0")/../lib.sh"
. "$KH_TOP/tests/replay/replay.sh"

replay_start "$KH_TOP/tests/replay/gpumode" || exit 1
KH_GPUMODE_URL=$REPLAY_URL KH_KERNELBOT_URL=$REPLAY_URL
KH_NOW=1795996800	# 2026-11-30: board 730 has ended, 496 is live
export KH_GPUMODE_URL KH_KERNELBOT_URL KH_NOW
fresh () { KH_CACHE=$TRASH/cache-$1; export KH_CACHE; }

test_expect_success 'boards: one record per leaderboard, ended from the deadline' '
	fresh boards &&
	kh-fetch gpumode boards >out &&
	cat >expect <<-\EOT &&
	{"type":"board","id":"730","name":"nvfp4_group_gemm","deadline":"2026-02-13T23:59:00Z","gpus":["B200","NVIDIA"],"ended":true}
	{"type":"board","id":"496","name":"trimul","deadline":"2100-12-31T00:00:00Z","gpus":["A100","H100"],"ended":false}
	EOT
	test_cmp expect out
'

test_expect_success 'ranks: string and numeric scores, duplicates collapsed, ties share a rank' '
	fresh ranks &&
	kh-fetch gpumode ranks --board 496 -v >out 2>err &&
	jq -c "[.id, .rank, .ranked, .percentile, .score_s, .submissions, .at]" out >got &&
	cat >expect <<-\EOT &&
	["gpumode:496:A100:josusanmartin",1,2,100,0.002113831640053308,114,"2026-05-10T12:18:43Z"]
	["gpumode:496:A100:rd9000",2,2,50,0.002172734054985345,3,"2026-05-07T19:37:22Z"]
	["gpumode:496:H100:TTT",1,3,100,0.0011,14,"2026-01-19T09:13:03Z"]
	["gpumode:496:H100:brianyu",2,3,66.67,0.0015,10,"2026-05-08T10:19:04Z"]
	["gpumode:496:H100:shiyegao",2,3,66.67,0.0015,3920,"2026-02-07T07:16:28Z"]
	EOT
	test_cmp expect got &&
	grep "duplicate row for .TTT. collapsed" err
'

test_expect_success 'ranks: the whole record of a live board entry' '
	fresh one &&
	kh-fetch gpumode ranks --board=496 | head -1 | sed "s/127.0.0.1:[0-9]*/HOST/" >out &&
	cat >expect <<-\EOT &&
	{"type":"evidence","id":"gpumode:496:A100:josusanmartin","kind":"leaderboard","source":"gpumode","person":{"handle":"josusanmartin"},"url":"http://HOST/leaderboard/496?tab=rankings","at":"2026-05-10T12:18:43Z","repo":null,"upstream":null,"board":"496","board_name":"trimul","gpu":"A100","rank":1,"ranked":2,"percentile":100,"score_s":0.0021138316400533081,"submissions":114,"deadline":"2100-12-31T00:00:00Z","after_deadline":false,"submission_id":"782275"}
	EOT
	test_cmp expect out
'

test_expect_success 'ranks: a board past its deadline marks late entries after_deadline' '
	fresh ended &&
	kh-fetch gpumode ranks --board 730 >out &&
	jq -c "[.person.handle, .rank, .deadline, .after_deadline]" out >got &&
	cat >expect <<-\EOT &&
	["hackerman",1,"2026-02-13T23:59:00Z",false]
	["alice",2,"2026-02-13T23:59:00Z",false]
	["Zeyu Shen",3,"2026-02-13T23:59:00Z",true]
	["bob",4,"2026-02-13T23:59:00Z",false]
	EOT
	test_cmp expect got
'

test_expect_success 'ranks --clean: hacked entry removed, user ids as strings, GitHub ids as logins' '
	fresh clean &&
	kh-fetch gpumode ranks --clean --board 730 -v >out 2>err &&
	jq -c "[.person, .rank, .ranked, .submissions, .after_deadline]" out >got &&
	cat >expect <<-\EOT &&
	[{"login":"alice","user_id":"583920"},1,3,77,false]
	[{"handle":"Zeyu Shen","user_id":"1130522473201942538"},2,3,12,true]
	[{"handle":"bob","user_id":"1130522473201942539"},3,3,5,false]
	EOT
	test_cmp expect got &&
	grep "board 730 B200: .hackerman. is not in the clean ranking" err
'

test_expect_success 'ranks --all: every board of the summaries' '
	fresh all &&
	kh-fetch gpumode ranks --all >out &&
	jq -r .board out | uniq -c | awk "{print \$2, \$1}" >got &&
	printf "730 4\n496 5\n" >expect &&
	test_cmp expect got
'

test_expect_success 'ended boards come from the cache for good, live ones are asked again' '
	fresh cache &&
	kh-fetch gpumode ranks --board 730 --board 496 >first &&
	: >"$TRASH/replay.log" &&
	# age every cache entry (http.c writes "stored EPOCH" in its header)
	find "$KH_CACHE" -type f -exec sed -i "s/^stored [0-9]*$/stored 1000/" {} + &&
	kh-fetch gpumode ranks --board 730 --board 496 >second &&
	test_cmp first second &&
	cut -d" " -f1 "$TRASH/replay.log" >asked &&
	printf "%s\n" /api/leaderboard-summaries /api/leaderboard/496 >expect &&
	test_cmp expect asked
'

test_expect_success 'an error envelope over HTTP 404 is a remote failure (exit 5)' '
	fresh e404 &&
	test_must_fail --rc=5 kh-fetch gpumode ranks --board 999 >out 2>err &&
	test ! -s out &&
	grep "HTTP 404: canonot find leaderboard with id 999" err
'

test_expect_success 'code != 0 under HTTP 200 is an error too; other boards still come' '
	fresh e200 &&
	test_must_fail --rc=5 kh-fetch gpumode ranks --board 998 --board 496 >out 2>err &&
	test $(wc -l <out) = 5 &&
	sed "s/127.0.0.1:[0-9]*/HOST/" err >got &&
	echo "kh-fetch: cannot use '\''http://HOST/api/leaderboard/998'\'': code 10500: database unavailable" >expect &&
	test_cmp expect got
'

test_expect_success 'an answer without the envelope is refused' '
	fresh bare &&
	test_must_fail --rc=5 kh-fetch gpumode ranks --board 997 2>err &&
	grep "no {code, message, data} envelope" err
'

test_expect_success '429 with Retry-After is waited out; unusable rows are reported and skipped' '
	fresh retry &&
	test_must_fail --rc=1 kh-fetch gpumode ranks --board 543 >out 2>err &&
	jq -c "[.person.handle, .rank, .ranked, .score_s]" out >got &&
	echo "[\"carol\",1,1,0.00031]" >expect &&
	test_cmp expect got &&
	grep "^kh-fetch: gpumode board 543 L4:2: ranking row for .dave. has no usable score$" err &&
	grep "^kh-fetch: gpumode board 543 L4:3: ranking row has no user_name$" err &&
	grep "2 of 3 records skipped" err &&
	grep -c "/api/leaderboard/543 " "$TRASH/replay.log" >n && echo 2 >expect && test_cmp expect n
'

test_expect_success '--strict stops at the first unusable row (exit 3)' '
	fresh strict &&
	test_must_fail --rc=3 kh-fetch gpumode ranks --strict --board 543 >out 2>err &&
	test ! -s out
'

test_expect_success '--clean when kernelbot refuses: exit 5 with its detail' '
	fresh refuse &&
	test_must_fail --rc=5 kh-fetch gpumode ranks --clean --board 496 >out 2>err &&
	test ! -s out &&
	grep "HTTP 400" err
'

test_expect_success 'usage errors exit 2' '
	test_must_fail --rc=2 kh-fetch gpumode 2>err && grep "boards or ranks?" err &&
	test_must_fail --rc=2 kh-fetch gpumode ranks 2>err && grep "which boards?" err &&
	test_must_fail --rc=2 kh-fetch gpumode ranks --all --board 1 &&
	test_must_fail --rc=2 kh-fetch gpumode ranks --board x1 &&
	test_must_fail --rc=2 kh-fetch gpumode boards --clean &&
	test_must_fail --rc=2 kh-fetch gpumode scores
'

test_done
