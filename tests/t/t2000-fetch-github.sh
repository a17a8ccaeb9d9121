#!/bin/sh
# kh-fetch github against the loopback replay server: pagination, the
# record shapes, the cache and 304s, the headers sent, the subcommands.
. "$(dirname "$0")/../lib.sh"
. "$KH_TOP/tests/replay/replay.sh"

S=$KH_TOP/tests/replay/github/api
E=$KH_TOP/tests/replay/github/expect
replay_start "$S" || exit 1

gh () {
	kh-fetch github --api-url "$REPLAY_URL" --cache "$TRASH/cache" "$@"
}
# the requests the server saw since the last call, port left out
seen () {
	sed "s/127.0.0.1:$REPLAY_PORT/PORT/g" "$TRASH/replay.log" >"$TRASH/seen"
	: >"$TRASH/replay.log"
	cat "$TRASH/seen"
}

test_expect_success 'prs: three pages, rels in odd order, no rel="last"' '
	gh prs acme/kernels >out 2>err &&
	test_cmp "$E/prs.ndjson" out &&
	test_cmp /dev/null err &&
	seen | cut -d" " -f1-3 >log &&
	cat >expect <<-\EOF &&
	/repos/acme/kernels/pulls?state=closed&sort=created&direction=desc&per_page=100 200 cond=0
	/repositories/4242/pulls?state=closed&sort=created&direction=desc&per_page=100&page=2 200 cond=0
	/repositories/4242/pulls?state=closed&sort=created&direction=desc&per_page=100&page=3 200 cond=0
	EOF
	test_cmp expect log
'

test_expect_success 'the record shape: bot, deleted account, deleted fork, fork' '
	jq -c "[.number, .person, .author_type, .head_repo, .from_fork, .merged]" out >got &&
	cat >expect <<-\EOF &&
	[105,{"login":"alice","user_id":"5001"},"User","alice/kernels",true,true]
	[103,{"login":"dependabot[bot]","user_id":"49699333"},"Bot","acme/kernels",false,true]
	[102,{},null,null,null,true]
	[101,{"login":"carol","user_id":"5003"},"User",null,null,true]
	[100,{"login":"alice","user_id":"5001"},"User","acme/kernels",false,true]
	[99,{"login":"dave","user_id":"5004"},"User","dave/kernels",true,true]
	EOF
	test_cmp expect got &&
	head -1 out | jq -r "keys_unsorted | join(\",\")" >keys &&
	echo type,id,kind,source,person,url,at,repo,upstream,number,title,text,author_type,merged,merged_at,merged_by,base_repo,head_repo,from_fork,labels >expect &&
	test_cmp expect keys
'

test_expect_success 'text is capped at 8 KiB on a character boundary' '
	tail -1 out | jq -j .text | wc -c >n &&
	echo 8192 >expect && test_cmp expect n &&
	! tail -1 out | grep -q "$(printf "\357\277\275")" &&
	tail -1 out | jq -j .text | tail -c 3 >got &&
	printf "\303\274" | cat - /dev/null >expect && printf " " | cat - expect >expect2 &&
	test_cmp expect2 got
'

test_expect_success 'the headers: User-Agent, Accept, API version; no token without one' '
	seen >/dev/null &&
	gh user alice >/dev/null &&
	seen | cut -d" " -f4- >log &&
	echo "auth=0 accept=application/vnd.github+json version=2022-11-28 ua=kh-fetch/$(cat "$KH_TOP/VERSION")" >expect &&
	test_cmp expect log
'

test_expect_success 'a second run revalidates: only conditional requests, all 304' '
	seen >/dev/null &&
	gh prs acme/kernels >out2 &&
	test_cmp "$E/prs.ndjson" out2 &&
	seen | cut -d" " -f2,3 | sort | uniq -c | tr -s " " >log &&
	echo " 3 304 cond=1" >expect &&
	test_cmp expect log
'

test_expect_success '-v counts the requests and the 304s' '
	gh -v prs acme/kernels >/dev/null 2>err &&
	grep -v " -> 304$" err >rest &&
	cat >expect <<-\EOF &&
	kh-fetch: 3 requests, 3 not modified, 0 from the cache, 0 failed
	kh-fetch: 7 in, 6 out, 0 skipped
	EOF
	test_cmp expect rest &&
	seen >/dev/null
'

test_expect_success '--all adds the closed PRs that were not merged' '
	gh prs --all acme/kernels >out &&
	test_cmp "$E/prs-all.ndjson" out &&
	jq -c "select(.merged == false) | [.number, .at, .merged_at]" out >got &&
	echo "[104,\"2025-01-20T16:00:00Z\",null]" >expect &&
	test_cmp expect got
'

test_expect_success '--since pages by update time and stops past the date' '
	seen >/dev/null &&
	gh prs --since 2025-02-01 acme/kernels >out &&
	test_cmp "$E/prs-since.ndjson" out &&
	seen | cut -d" " -f1 >log &&
	cat >expect <<-\EOF &&
	/repos/acme/kernels/pulls?state=closed&sort=updated&direction=desc&per_page=100
	/repositories/4242/pulls?state=closed&sort=updated&direction=desc&per_page=100&page=2
	EOF
	test_cmp expect log
'

test_expect_success '--files: merged_by, sizes, two pages of files, signals' '
	gh prs --files acme/kernels >out &&
	test_cmp "$E/prs-files.ndjson" out &&
	head -1 out | jq -c "[.merged_by, .added, .deleted, .changed_files, (.files|length), .files[2], .signals.arch]" >got &&
	echo "[\"maint\",420,37,3,3,{\"path\":\"csrc/gemm/kernel_105_2.cu\",\"added\":140,\"deleted\":0},[\"hopper\"]]" >expect &&
	test_cmp expect got
'

test_expect_success '--files at the 3,000-file cap says so' '
	seen >/dev/null &&
	gh prs --files acme/huge >out &&
	jq -c "[.changed_files, (.files|length), .files_capped, .added]" out >got &&
	echo "[3400,3000,true,5000]" >expect &&
	test_cmp expect got &&
	seen | grep -c "/files" >n && echo 30 >expect && test_cmp expect n
'

test_expect_success 'rel="last": pages fetched in parallel, same output as one at a time' '
	seen >/dev/null &&
	gh --no-cache -p 1 prs acme/wide >one &&
	gh --no-cache -p 16 prs acme/wide >many &&
	test_cmp "$E/prs-wide.ndjson" one &&
	test_cmp one many &&
	seen | cut -d" " -f1 | sort | uniq -d >dups &&
	sort -u <one | wc -l >n && echo 22 >expect && test_cmp expect n &&
	test $(grep -c . dups) = 6
'

test_expect_success 'a renamed repository: the 301 is followed' '
	seen >/dev/null &&
	gh --no-cache prs old/kernels >out &&
	test_cmp "$E/prs.ndjson" out &&
	seen | cut -d" " -f1,2 | head -2 >log &&
	cat >expect <<-\EOF &&
	/repos/old/kernels/pulls?state=closed&sort=created&direction=desc&per_page=100 301
	/repositories/4242/pulls?state=closed&sort=created&direction=desc&per_page=100 200
	EOF
	test_cmp expect log
'

test_expect_success 'a next page that was read already is not read again' '
	seen >/dev/null &&
	gh prs acme/loop >out 2>err &&
	jq -c .number out >got && printf "105\n103\n" >expect && test_cmp expect got &&
	sed "s/127.0.0.1:$REPLAY_PORT/PORT/" err >got &&
	echo "kh-fetch: the next page '\''http://PORT/repositories/4545/pulls?state=closed&sort=created&direction=desc&per_page=100&page=2'\'' was read already: not again" >expect &&
	test_cmp expect got &&
	test $(seen | wc -l) = 2
'

test_expect_success 'one record per PR even when named twice' '
	gh prs acme/kernels acme/kernels Acme/Kernels >out 2>err &&
	test_cmp "$E/prs.ndjson" out && test_cmp /dev/null err
'

test_expect_success 'prs --complete fills in merged:null evidence and what a trimmed payload lacks, the rest passes' '
	cat >in <<-\EOF &&
	{"type":"evidence","id":"gharchive:pr:acme/kernels#104","kind":"pr","source":"gharchive","repo":"acme/kernels","number":104,"at":null,"title":null,"merged":null}
	{"type":"evidence","id":"gharchive:pr:acme/kernels#105","kind":"pr","source":"gharchive","repo":"acme/kernels","number":105,"merged":null,"merged_at":null}
	{"type":"evidence","id":"gharchive:pr:acme/kernels#1","kind":"pr","source":"gharchive","repo":"acme/kernels","number":1,"merged":true}
	{"type":"candidate","id":"github:alice","logins":["alice"]}
	EOF
	gh prs --complete <in >out 2>err &&
	test_cmp /dev/null err &&
	cat >expect <<-\EOF &&
	{"type":"evidence","id":"gharchive:pr:acme/kernels#104","kind":"pr","source":"gharchive","repo":"acme/kernels","number":104,"at":"2025-01-20T16:00:00Z","title":"Try a split-K variant","merged":false,"merged_at":null,"merged_by":null,"person":{"login":"bob","user_id":"5002"},"url":"https://github.com/acme/kernels/pull/104","upstream":true,"author_type":"User","base_repo":"acme/kernels","head_repo":"bob/kernels","from_fork":true,"labels":[]}
	{"type":"evidence","id":"gharchive:pr:acme/kernels#105","kind":"pr","source":"gharchive","repo":"acme/kernels","number":105,"merged":true,"merged_at":"2025-03-01T12:30:00Z","at":"2025-03-01T12:30:00Z","merged_by":"maint","person":{"login":"alice","user_id":"5001"},"url":"https://github.com/acme/kernels/pull/105","upstream":true,"title":"Add FP8 grouped GEMM for Hopper","text":"Uses wgmma and TMA.\r\n\r\nBenchmarks in the thread.","author_type":"User","base_repo":"acme/kernels","head_repo":"alice/kernels","from_fork":true,"labels":["perf","cuda"]}
	EOF
	sed -n 3,4p in >>expect &&
	test_cmp expect out &&
	gh prs --complete --files <in >out &&
	sed -n 2p out | jq -c "[.added, .deleted, .changed_files, (.files|length)]" >got &&
	echo "[420,37,3,3]" >expect &&
	test_cmp expect got
'

test_expect_success 'user: profiles; blog "" is null' '
	gh user alice bob >out &&
	test_cmp "$E/user.ndjson" out &&
	jq -c "[.profile.blog, .profile.hireable, .profile.twitter]" out >got &&
	printf "%s\n" "[null,true,null]" "[\"https://bob.example\",null,\"bobk\"]" >expect &&
	test_cmp expect got
'

test_expect_success 'user as a filter: records pass, each login fetched once' '
	gh prs acme/kernels >prs &&
	gh user <prs >out 2>err &&
	test_cmp /dev/null err &&
	jq -r "if .kind == \"profile\" then .id else .number end" out >got &&
	printf "%s\n" 105 github:profile:alice 103 102 101 github:profile:carol \
		100 99 github:profile:dave >expect &&
	test_cmp expect got &&
	jq -c "select(.kind == \"pr\")" out | test_cmp prs -
'

test_expect_success 'repos: two pages; forks get their parent' '
	gh repos alice >out &&
	test_cmp "$E/repos.ndjson" out &&
	jq -c "[.repo, .fork, .parent, .upstream]" out >got &&
	cat >expect <<-\EOF &&
	["alice/kernels",true,"acme/kernels",false]
	["alice/notes",false,null,true]
	["alice/triton",true,"triton-lang/triton",false]
	EOF
	test_cmp expect got
'

test_expect_success 'search: split by date past 1,000; never page 11' '
	printf "%s\n" "# targets" "acme/kernels" "acme/compiler  # the compiler" >repos.txt &&
	seen >/dev/null &&
	KH_NOW=1751241600 gh search --repos repos.txt alice bigdev prolific >out 2>err &&
	test_cmp "$E/search.ndjson" out &&
	test_cmp /dev/null err &&
	seen | cut -d" " -f1 >log &&
	grep -c "author%3Aprolific" log >n && echo 10 >expect && test_cmp expect n &&
	! grep "page=11" log &&
	grep -c "merged%3A" log >n && echo 2 >expect && test_cmp expect n
'

test_expect_success 'search: incomplete_results warns; a 422 is reported' '
	test_must_fail --rc=5 gh search --repos repos.txt slowdev hidden >out 2>err &&
	jq -r .id out >got && echo "github:pr:acme/compiler#18" >expect &&
	test_cmp expect got &&
	sed "s/127.0.0.1:$REPLAY_PORT/PORT/" err >got &&
	cat >expect <<-\EOF &&
	kh-fetch: results for '\''is:pr is:merged author:slowdev repo:acme/kernels repo:acme/compiler'\'' are incomplete (GitHub timed out): run again later for the rest
	kh-fetch: cannot fetch '\''http://PORT/search/issues?q=is%3Apr%20is%3Amerged%20author%3Ahidden%20repo%3Aacme%2Fkernels%20repo%3Aacme%2Fcompiler&per_page=100'\'': HTTP 422: Validation Failed: The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.
	EOF
	test_cmp expect got
'

test_expect_success 'claims: a PR, a commit upstream, a commit in a fork' '
	printf "%s\n" "https://github.com/acme/kernels/pull/105" \
		"" "# from the resume" \
		"https://github.com/acme/kernels/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678" \
		"  github.com/alice/kernels/commit/0f0e0d0c0b0a09080706050403020100f0e0d0c0" >urls &&
	gh claims <urls >out &&
	test_cmp "$E/claims.ndjson" out &&
	jq -c "[.kind, .repo, .upstream, .person.login]" out >got &&
	cat >expect <<-\EOF &&
	["pr","acme/kernels",true,"alice"]
	["commit","acme/kernels",true,"alice"]
	["commit","alice/kernels",false,"alice"]
	EOF
	test_cmp expect got &&
	sed -n 2p out | jq -c .coauthors >got &&
	echo "[{\"name\":\"Bob\",\"email\":\"bob@example.org\"}]" >expect &&
	test_cmp expect got
'

test_expect_success 'claims: not a GitHub URL is a bad record' '
	echo "https://gitlab.com/a/b/-/merge_requests/1" >>urls &&
	test_must_fail --rc=1 gh claims <urls >out 2>err &&
	test_cmp "$E/claims.ndjson" out &&
	cat >expect <<-\EOF &&
	kh-fetch: <stdin>:6: not a GitHub pull request or commit URL '\''https://gitlab.com/a/b/-/merge_requests/1'\''
	kh-fetch: 1 of 4 records skipped
	EOF
	test_cmp expect err
'

test_expect_success 'the token goes to the API host only, and is never printed' '
	seen >/dev/null &&
	GITHUB_TOKEN=s3cr3t-token gh -v --no-cache user alice >out 2>err &&
	seen | cut -d" " -f4 >log && echo auth=1 >expect && test_cmp expect log &&
	! grep s3cr3t out err &&
	sed "s/127.0.0.1:$REPLAY_PORT/PORT/" err >got &&
	cat >expect <<-\EOF &&
	kh-fetch: GET http://PORT/users/alice (token sent) -> 200
	kh-fetch: 1 requests, 0 not modified, 0 from the cache, 0 failed
	kh-fetch: 1 in, 1 out, 0 skipped
	EOF
	test_cmp expect got &&
	GH_TOKEN=other gh --no-cache --api-url "http://localhost:$REPLAY_PORT" user alice >/dev/null &&
	seen | cut -d" " -f4 >log && echo auth=1 >expect && test_cmp expect log
'

test_expect_success 'KH_API_URL sets the API base' '
	KH_API_URL=$REPLAY_URL kh-fetch github --cache "$TRASH/cache" user alice >out &&
	head -1 "$E/user.ndjson" >expect &&
	test_cmp expect out
'

test_expect_success '--offline answers from a warm cache without a request' '
	seen >/dev/null &&
	gh --offline prs --files acme/kernels >out &&
	test_cmp "$E/prs-files.ndjson" out &&
	test_cmp /dev/null "$TRASH/replay.log"
'

test_expect_success 'stdout closed early (| head -1) ends quietly' '
	gh prs acme/kernels 2>err | head -1 >out &&
	head -1 "$E/prs.ndjson" | test_cmp - out &&
	test_cmp /dev/null err
'

test_done
