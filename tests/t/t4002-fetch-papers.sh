#!/bin/sh
# kh-fetch papers against the loopback replay server (OpenAlex shapes)
. "$(dirname "$0")/../lib.sh"
. "$KH_TOP/tests/replay/replay.sh"

replay_start "$KH_TOP/tests/replay/papers" || exit 1
KH_OPENALEX_URL=$REPLAY_URL KH_DBLP_URL=$REPLAY_URL KH_RETRY_WAIT_MS=10
export KH_OPENALEX_URL KH_DBLP_URL KH_RETRY_WAIT_MS
unset OPENALEX_API_KEY KH_CONTACT
fresh () { KH_CACHE=$TRASH/cache-$1; export KH_CACHE; }

test_expect_success 'a name: author search, then works by id; off-topic works dropped' '
	fresh name &&
	kh-fetch papers --name "Tri Example" -v >out 2>err &&
	cat >expect <<-\EOT &&
	{"type":"evidence","id":"openalex:W4300000001:A5000000001","kind":"paper","source":"openalex","person":{"name":"Tri Example","user_id":"A5000000001","orcid":"0000-0002-1825-0097"},"url":"https://doi.org/10.48550/arxiv.2205.99999","at":"2022-05-27T00:00:00Z","repo":null,"upstream":null,"title":"FastAttn: IO-aware exact attention kernels","authors":[{"name":"Tri Example","institutions":["Stanford University"],"orcid":"0000-0002-1825-0097"},{"name":"Dan Fuller","institutions":["Stanford University"]},{"name":"Chris Ray","institutions":["Stanford University"]}],"venue":"Neural Information Processing Systems","year":2022,"doi":"10.48550/arxiv.2205.99999","position":"first","ambiguous":false,"topics":["attention"]}
	{"type":"evidence","id":"openalex:W4300000003:A5000000001","kind":"paper","source":"openalex","person":{"name":"Tri Example","user_id":"A5000000001","orcid":"0000-0002-1825-0097"},"url":"https://proceedings.mlsys.org/paper/2024/low-bit-gemm","at":"2024-11-02T00:00:00Z","repo":null,"upstream":null,"title":"Low-bit GEMM on tensor cores","authors":[{"name":"Ana Lopez","institutions":["Princeton University"]},{"name":"Bo Li","institutions":[]},{"name":"Tri Example","institutions":["Princeton University"]}],"venue":"MLSys","year":2024,"doi":null,"position":"last","ambiguous":false,"topics":["gemm","quantization"]}
	EOT
	test_cmp expect out &&
	grep "papers: 2 works matched a topic, 1 did not" err
'

test_expect_success 'an ambiguous name yields every candidate, flagged, after a 429' '
	fresh wei &&
	kh-fetch papers --name "Wei Zhang" >out 2>err &&
	jq -c "[.person.user_id, .ambiguous, .position, .authors[0].institutions, .topics]" out >got &&
	cat >expect <<-\EOT &&
	["A5000000002",true,"only",["Tsinghua University"],["compilers","gpu"]]
	["A5000000003",true,"last",["NVIDIA (United States)"],["moe","collectives"]]
	EOT
	test_cmp expect got &&
	grep "^kh-fetch: papers: .Wei Zhang. matches 2 OpenAlex authors, all kept and flagged ambiguous: A5000000002 (Tsinghua University), A5000000003 (NVIDIA (United States))$" err &&
	grep -c "search=Wei%20Zhang" "$TRASH/replay.log" >n && echo 2 >expect && test_cmp expect n
'

test_expect_success 'an OpenAlex id goes straight to the works' '
	fresh id &&
	: >"$TRASH/replay.log" &&
	kh-fetch papers --openalex https://openalex.org/A5000000001 >out &&
	jq -r .id out >got &&
	printf "openalex:W4300000001:A5000000001\nopenalex:W4300000003:A5000000001\n" >expect &&
	test_cmp expect got &&
	! grep -q "/authors" "$TRASH/replay.log"
'

test_expect_success 'an ORCID finds the works and the position in them' '
	fresh orcid &&
	kh-fetch papers --orcid https://orcid.org/0000-0001-5109-3700 >out &&
	jq -c "[.person, .position, .url, .doi, .venue]" out >got &&
	echo "[{\"name\":\"Ravi Rao\",\"user_id\":\"A5000000031\",\"orcid\":\"0000-0001-5109-3700\"},\"middle\",\"https://dl.acm.org/doi/abs/x\",null,\"PPoPP\"]" >expect &&
	test_cmp expect got
'

test_expect_success 'works come page by page until meta.count' '
	fresh pages &&
	kh-fetch papers --openalex A5000000040 >out &&
	test $(wc -l <out) = 101 &&
	grep -c "author.id:A5000000040" "$TRASH/replay.log" >n && echo 2 >expect && test_cmp expect n
'

test_expect_success '--topics: own topics; a file without topics keeps every work' '
	fresh topics &&
	echo "surgery: arthroplasty" >t.txt &&
	kh-fetch papers --openalex A5000000001 --topics t.txt >out &&
	jq -c "[.id, .topics]" out >got &&
	echo "[\"openalex:W4300000002:A5000000001\",[\"surgery\"]]" >expect &&
	test_cmp expect got &&
	kh-fetch papers --openalex A5000000001 --topics /dev/null >all &&
	test $(wc -l <all) = 3 &&
	echo "no colon here" >bad.txt &&
	test_must_fail --rc=2 kh-fetch papers --openalex A5000000001 --topics bad.txt 2>err &&
	grep "bad.txt:1: want .topic: phrase, ...." err
'

test_expect_success 'a name nobody has: a warning, no records, exit 0' '
	fresh none &&
	kh-fetch papers --name "Nobody Here" >out 2>err &&
	test ! -s out &&
	grep "no OpenAlex author named .Nobody Here." err
'

test_expect_success 'an answer that is not JSON is a remote failure' '
	fresh bad &&
	test_must_fail --rc=5 kh-fetch papers --openalex A5000000050 >out 2>err &&
	test ! -s out && grep "no list of results" err
'

test_expect_success 'the API key and contact go to OpenAlex, never to the output' '
	fresh key &&
	OPENALEX_API_KEY=sekret-key-123 KH_CONTACT=recruiter@example.org \
		kh-fetch papers --openalex A5000000001 >out &&
	test $(wc -l <out) = 2 &&
	! grep -q sekret out &&
	grep -q "api_key=sekret-key-123 200 .*ua=kh-fetch/[0-9.]* (mailto:recruiter@example.org)$" "$TRASH/replay.log"
'

test_expect_success 'the API key never reaches stderr, even in errors and -v logs' '
	fresh keyerr &&
	test_must_fail --rc=5 env OPENALEX_API_KEY=sekret-key-123 \
		kh-fetch papers -v --openalex A5000000099 >out 2>err &&
	! grep -q sekret err &&
	grep -q "api_key=REDACTED" err
'

test_expect_success 'DBLP: one author hit as an object, numbers as strings, pid filter' '
	fresh dblp &&
	kh-fetch papers --dblp "Tri Example" -v >out 2>err &&
	cat >expect <<-\EOT &&
	{"type":"evidence","id":"dblp:conf/nips/Example22:123/4567","kind":"paper","source":"dblp","person":{"name":"Tri Example","user_id":"123/4567"},"url":"https://doi.org/10.5555/3600270.3601482","at":"2022-01-01T00:00:00Z","repo":null,"upstream":null,"title":"FastAttn: IO-aware exact attention kernels","authors":[{"name":"Tri Example","institutions":[]},{"name":"Dan Fuller","institutions":[]}],"venue":"NeurIPS","year":2022,"doi":"10.5555/3600270.3601482","position":"first","ambiguous":false,"topics":["attention"]}
	{"type":"evidence","id":"dblp:journals/corr/abs-2301-00001:123/4567","kind":"paper","source":"dblp","person":{"name":"Tri Example","user_id":"123/4567"},"url":"https://arxiv.org/abs/2301.00001","at":"2023-01-01T00:00:00Z","repo":null,"upstream":null,"title":"Notes on tensor core GEMM","authors":[{"name":"Tri Example","institutions":[]}],"venue":"CoRR","year":2023,"doi":null,"position":"only","ambiguous":false,"topics":["gemm"]}
	EOT
	test_cmp expect out &&
	grep "papers: 2 works matched a topic, 1 did not" err &&
	grep "4 in, 2 out, 0 skipped" err
'

test_expect_success 'DBLP: homonyms are all kept, flagged ambiguous, numbered names cleaned' '
	fresh dblpwei &&
	kh-fetch papers --dblp "Wei Zhang" >out 2>err &&
	jq -c "[.id, .person, .position, .ambiguous, .authors[0].name]" out >got &&
	cat >expect <<-\EOT &&
	["dblp:conf/asplos/Zhang24:10/1-9",{"name":"Wei Zhang","user_id":"10/1-9"},"first",true,"Wei Zhang"]
	["dblp:conf/sc/Park25:10/1-12",{"name":"Wei Zhang","user_id":"10/1-12"},"last",true,"Kim Park"]
	EOT
	test_cmp expect got &&
	grep "^kh-fetch: papers: .Wei Zhang. matches 2 DBLP authors, all kept and flagged ambiguous: 10/1-9 (Tsinghua University, Beijing, China), 10/1-12$" err
'

test_expect_success 'DBLP: no hit at all, and an answer with a bad status' '
	fresh dblpnone &&
	kh-fetch papers --dblp "Nobody Here" >out 2>err &&
	test ! -s out && grep "no DBLP author named .Nobody Here." err &&
	test_must_fail --rc=5 kh-fetch papers --dblp "Broken Answer" >out 2>err &&
	test ! -s out && grep "not a DBLP search answer" err
'

test_expect_success 'usage errors exit 2' '
	test_must_fail --rc=2 kh-fetch papers 2>err && grep "whose?" err &&
	test_must_fail --rc=2 kh-fetch papers --orcid 1234 &&
	test_must_fail --rc=2 kh-fetch papers --openalex W123 &&
	test_must_fail --rc=2 kh-fetch papers --name "" &&
	test_must_fail --rc=2 kh-fetch papers --dblp "" &&
	test_must_fail --rc=2 kh-fetch papers --name x extra
'

test_done
