#!/bin/sh
# kh-fetch github when things go wrong: rate limits (primary, secondary,
# 429), 5xx, a stalled answer, a truncated body, malformed JSON, 404,
# --offline with a cold cache, --no-wait, a damaged cache entry, and a run
# killed in the middle then run again. Waits are kept to a few seconds.
. "$(dirname "$0")/../lib.sh"
. "$KH_TOP/tests/replay/replay.sh"

S=$KH_TOP/tests/replay/github/api
E=$KH_TOP/tests/replay/github/expect
export KH_RETRY_WAIT_MS=10 KH_SECONDARY_WAIT=1
replay_start "$S" || exit 1

gh () {
	kh-fetch github --api-url "$REPLAY_URL" --cache "$TRASH/cache" "$@"
}
# stderr with the port left out
port () {
	sed "s/127.0.0.1:$REPLAY_PORT/PORT/g" "$@"
}
# how many requests the server saw for a path
hits () {
	grep -c "^$1 " "$TRASH/replay.log"
}
carol () {
	jq -r .id out >got && echo github:profile:carol >expect && test_cmp expect got
}

test_expect_success 'primary rate limit: waits until the reset (server time) + 1 s' '
	gh user ratelimited >out 2>err &&
	carol &&
	echo "kh-fetch: rate limit reached for '\''core'\'': waiting 3 s" >expect &&
	test_cmp expect err &&
	test $(hits /users/ratelimited) = 2
'

test_expect_success 'secondary rate limit: 403 with Retry-After' '
	gh user secondary >out 2>err &&
	carol &&
	echo "kh-fetch: secondary rate limit for '\''core'\'': waiting 1 s" >expect &&
	test_cmp expect err
'

test_expect_success 'secondary rate limit without Retry-After: KH_SECONDARY_WAIT' '
	gh user secondary2 >out 2>err &&
	carol &&
	echo "kh-fetch: secondary rate limit for '\''core'\'': waiting 1 s" >expect &&
	test_cmp expect err
'

test_expect_success '429 with Retry-After' '
	gh user toomany >out 2>err &&
	carol &&
	echo "kh-fetch: secondary rate limit for '\''core'\'': waiting 1 s" >expect &&
	test_cmp expect err
'

test_expect_success '502 then 200: retried quietly' '
	gh user flaky >out 2>err &&
	carol && test_cmp /dev/null err &&
	test $(hits /users/flaky) = 2
'

test_expect_success '502 for good: reported once after the retries, exit 5' '
	test_must_fail --rc=5 gh --retries 2 user down alice >out 2>err &&
	head -1 "$E/user.ndjson" | test_cmp - out &&
	port err >got &&
	echo "kh-fetch: cannot fetch '\''http://PORT/users/down'\'': HTTP 502" >expect &&
	test_cmp expect got &&
	test $(hits /users/down) = 3
'

test_expect_success 'a stalled answer hits --timeout' '
	test_must_fail --rc=5 gh --timeout 1 --retries 1 user stall >out 2>err &&
	test_cmp /dev/null out &&
	port err >got &&
	echo "kh-fetch: cannot fetch '\''http://PORT/users/stall'\'': no answer within 1 s" >expect &&
	test_cmp expect got &&
	test $(hits /users/stall) = 2
'

test_expect_success 'a truncated body is fetched again' '
	gh user truncated >out 2>err &&
	carol && test_cmp /dev/null err &&
	test $(hits /users/truncated) = 2
'

test_expect_success 'malformed JSON is fetched again' '
	gh user garbled >out 2>err &&
	carol && test_cmp /dev/null err &&
	test $(hits /users/garbled) = 2
'

test_expect_success '404: reported with its URL, the rest emitted, exit 5' '
	test_must_fail --rc=5 gh user nobody bob >out 2>err &&
	tail -1 "$E/user.ndjson" | test_cmp - out &&
	port err >got &&
	echo "kh-fetch: cannot fetch '\''http://PORT/users/nobody'\'': HTTP 404: Not Found" >expect &&
	test_cmp expect got &&
	test $(hits /users/nobody) = 1
'

test_expect_success 'a 403 that is no rate limit is not retried' '
	test_must_fail --rc=5 gh user forbidden 2>err &&
	port err >got &&
	echo "kh-fetch: cannot fetch '\''http://PORT/users/forbidden'\'': HTTP 403: Resource not accessible by integration" >expect &&
	test_cmp expect got &&
	test $(hits /users/forbidden) = 1
'

test_expect_success '--offline with a cold cache names what it lacks' '
	: >"$TRASH/replay.log" &&
	test_must_fail --rc=5 gh --cache cold --offline user alice >out 2>err &&
	test_cmp /dev/null out &&
	port err >got &&
	echo "kh-fetch: cannot fetch '\''http://PORT/users/alice'\'': not in the cache (--offline)" >expect &&
	test_cmp expect got &&
	test_cmp /dev/null "$TRASH/replay.log"
'

test_expect_success 'a damaged cache entry is fetched again whole' '
	gh --cache c2 user bob >/dev/null &&
	for f in $(find c2 -type f); do head -c 100 "$f" >t && mv t "$f"; done &&
	: >"$TRASH/replay.log" &&
	gh --cache c2 user bob >out 2>err &&
	tail -1 "$E/user.ndjson" | test_cmp - out &&
	test_cmp /dev/null err &&
	cut -d" " -f1-3 "$TRASH/replay.log" >got &&
	echo "/users/bob 200 cond=0" >expect &&
	test_cmp expect got &&
	gh --cache c2 user bob >/dev/null &&
	tail -1 "$TRASH/replay.log" | cut -d" " -f2,3 >got &&
	echo "304 cond=1" >expect && test_cmp expect got &&
	test -z "$(find c2 -name "*.tmp*")"
'

test_expect_success 'a 200 that used the last request: the next one waits' '
	gh -p 1 user lastcall alice >out 2>err &&
	jq -r .id out >got &&
	printf "%s\n" github:profile:dave github:profile:alice >expect &&
	test_cmp expect got &&
	echo "kh-fetch: rate limit reached for '\''core'\'': waiting 3 s" >expect &&
	test_cmp expect err
'

test_expect_success '--no-wait after the last request: stops only if more is asked' '
	gh --no-wait user lastcall >out 2>err &&
	test_cmp /dev/null err &&
	test_must_fail --rc=5 gh --no-wait -p 1 user lastcall alice >out 2>err &&
	jq -r .id out >got && echo github:profile:dave >expect && test_cmp expect got &&
	sed "s/until [0-9TZ:-]*:/until TIME:/" err >got &&
	echo "kh-fetch: rate limit reached for '\''core'\'' until TIME: stopping (--no-wait); run the same command again after then to resume, the answers so far are in the cache" >expect &&
	test_cmp expect got
'

# --no-wait needs the rate-limited answer again: a fresh server
replay_start "$S" || exit 1

test_expect_success '--no-wait: emits what it has, exit 5, says how to resume' '
	test_must_fail --rc=5 gh --no-wait -p 1 user alice ratelimited bob >out 2>err &&
	head -1 "$E/user.ndjson" | test_cmp - out &&
	sed "s/until [0-9TZ:-]*:/until TIME:/" err >got &&
	echo "kh-fetch: rate limit reached for '\''core'\'' until TIME: stopping (--no-wait); run the same command again after then to resume, the answers so far are in the cache" >expect &&
	test_cmp expect got &&
	! grep -q "^/users/bob " "$TRASH/replay.log" &&
	sleep 3 &&
	: >"$TRASH/replay.log" &&
	gh -p 1 user alice ratelimited bob >out 2>err &&
	test_cmp /dev/null err &&
	jq -r .id out >got &&
	printf "%s\n" github:profile:alice github:profile:carol github:profile:bob >expect &&
	test_cmp expect got &&
	cut -d" " -f1,2 "$TRASH/replay.log" >got &&
	printf "%s\n" "/users/alice 304" "/users/ratelimited 200" "/users/bob 200" >expect &&
	test_cmp expect got
'

# a slow server, so a run can be killed in the middle
replay_start "$S" --latency 150 || exit 1

test_expect_success 'killed in the middle, run again: every record exactly once' '
	gh --cache k -p 2 --unbuffered prs --files acme/kernels >part 2>/dev/null &
	pid=$! &&
	sleep 1 &&
	kill $pid && wait $pid; 
	test $(wc -l <part) -lt 6 &&
	gh --cache k -p 2 prs --files acme/kernels >rest &&
	test_cmp "$E/prs-files.ndjson" rest &&
	cat part rest | sort -u >union &&
	sort "$E/prs-files.ndjson" >expect &&
	test_cmp expect union &&
	sort rest | uniq -d >dups && test_cmp /dev/null dups
'

test_done
