#!/bin/sh
# t6000-score: properties of kh-score over many candidates: adding verified
# evidence never lowers a score; uncredited evidence alone is unproven with
# total 0; the output is deterministic and KH_NOW fixes recency; the brief
# only raises; a closed pipe ends it quietly.
. "$(dirname "$0")/../lib.sh"

export KH_NOW=1795996800	# 2026-11-30
G=$KH_TOP/tests/golden/kh-score

test_expect_success 'gather the candidates of the golden cases' '
	for f in "$G"/1*/in.ndjson "$G"/001-happy/in.ndjson; do
		jq -c "select(.type == \"candidate\" and (.evidence | type) == \"array\")" "$f" || exit 1
	done > base.ndjson &&
	test "$(wc -l < base.ndjson)" -ge 40
'

# Evidence to add, one at a time, each verified (one as co-author).
cat > extra.ndjson <<\EOF
{"type":"evidence","id":"x:lb","kind":"leaderboard","source":"gpumode","at":"2026-10-01T00:00:00Z","board":"grayscale","board_name":"grayscale","gpu":"B200","rank":7,"ranked":90,"after_deadline":false,"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:lb-late","kind":"leaderboard","source":"gpumode","at":"2026-10-01T00:00:00Z","board":"grayscale","gpu":"H100","rank":1,"ranked":300,"after_deadline":true,"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:pr-kernel","kind":"pr","source":"github","at":"2024-01-01T00:00:00Z","repo":"Dao-AILab/flash-attention","upstream":true,"number":99001,"title":"Backward pass for varlen, 1.2x faster on A100","text":"","merged":true,"files":[{"path":"csrc/flash_bwd.cu","added":90,"deleted":3}],"signals":{"instructions":{"mma.sync":2,"ldmatrix":1},"arch":["ampere"],"dtypes":[]},"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:pr-docs","kind":"pr","source":"github","at":"2026-11-01T00:00:00Z","repo":"vllm-project/vllm","upstream":true,"number":99002,"title":"[Doc] serving guide","text":"","merged":true,"files":[{"path":"docs/serving.md","added":40,"deleted":0}],"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:pr-nofiles","kind":"pr","source":"github","at":"2026-02-01T00:00:00Z","repo":"sgl-project/sglang","upstream":true,"number":99003,"title":"MoE routing kernel: 30% faster decode","text":"","merged":true,"added":300,"deleted":10,"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:commit-personal","kind":"commit","source":"git","at":"2026-03-01T00:00:00Z","repo":"someone/cuda-practice","upstream":true,"sha":"ab","title":"day 3","text":"","files":[{"path":"day3/k.cu","added":120,"deleted":0}],"signals":{"instructions":{"wgmma":1},"arch":["hopper"],"dtypes":["fp8"]},"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:commit-big","kind":"commit","source":"git","at":"2026-04-01T00:00:00Z","repo":"NVIDIA/cutlass","upstream":true,"sha":"cd","title":"Add SM100 blockscaled GEMM","text":"","files":[{"path":"include/cutlass/gemm/sm100_bs.hpp","added":5000,"deleted":0}],"signals":{"instructions":{"tcgen05":4,"tmem":3},"arch":["blackwell"],"dtypes":["nvfp4","fp4","mxfp4"]},"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:pr-coauthor","kind":"pr","source":"github","at":"2026-05-01T00:00:00Z","repo":"ROCm/aiter","upstream":true,"number":99004,"title":"FP8 GEMM 2.1x vs hipBLASLt on MI300X","text":"","merged":true,"files":[{"path":"csrc/gemm.cu","added":200,"deleted":0}],"signals":{"instructions":{"mfma":2,"gfx":1},"arch":["cdna","cdna3"],"dtypes":["fp8"]},"authorship":{"verdict":"coauthor","why":"t"}}
{"type":"evidence","id":"x:comp","kind":"competition","source":"registry","at":"2025-06-12T00:00:00Z","competition":"Cup","organiser":"Org","placing":4,"placing_text":"4th","self_reported":false,"confidence":"medium","authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:paper","kind":"paper","source":"openalex","at":"2025-01-01T00:00:00Z","title":"Sparse attention kernels","venue":"PPoPP","year":2025,"position":"middle","ambiguous":false,"topics":[],"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:rating","kind":"rating","source":"codeforces","at":"2025-01-01T00:00:00Z","rating":1700,"max_rating":2200,"authorship":{"verdict":"verified","why":"t"}}
{"type":"evidence","id":"x:profile","kind":"profile","source":"github","at":"2020-01-01T00:00:00Z","profile":{},"authorship":{"verdict":"verified","why":"t"}}
EOF

# pairs FILE: for every candidate of base.ndjson and every extra evidence,
# the candidate alone and with the extra added, as two lines
pairs () {
	jq -c --slurpfile x extra.ndjson '
		. as $c | range(0; $x | length) as $i |
		($c | .id = "\($c.id)|\($i)|before"),
		($c | .id = "\($c.id)|\($i)|after" | .evidence += [$x[$i]])' base.ndjson
}

# not_lower FILE: every "after" total is at least its "before" total
not_lower () {
	jq -r '[.id, .score.total] | @tsv' "$1" | awk -F '\t' '
		{ split($1, k, "|"); key = k[1] "|" k[2] }
		k[3] == "before" { before[key] = $2 }
		k[3] == "after" { n++; if ($2 + 0 < before[key] + 0) {
			print "lower: " key ": " before[key] " -> " $2; bad = 1 } }
		END { if (n < 400) { print "only " n " pairs"; exit 1 } exit bad }'
}

test_expect_success 'adding verified evidence never lowers a score' '
	pairs > pairs.ndjson &&
	kh-score < pairs.ndjson > scored.ndjson &&
	not_lower scored.ndjson
'

test_expect_success 'nor with the role brief' '
	kh-score --brief "$KH_TOP/share/kh/briefs/example.json" < pairs.ndjson > scored-brief.ndjson &&
	not_lower scored-brief.ndjson
'

test_expect_success 'the property check can fail: removing evidence lowers' '
	jq -c "select(.id | endswith(\"|after\")) | .id |= sub(\"after\$\"; \"before\")" pairs.ndjson > a.ndjson &&
	jq -c "select(.id | endswith(\"|before\")) | .id |= sub(\"before\$\"; \"after\")" pairs.ndjson > b.ndjson &&
	cat a.ndjson b.ndjson | kh-score > swapped.ndjson &&
	! not_lower swapped.ndjson > /dev/null
'

test_expect_success 'upgrading a verdict to verified never lowers a score' '
	jq -c "range(0; .evidence | length) as \$i |
		(.id = \"\(.id)|\(\$i)|before\" | .evidence[\$i].authorship.verdict = \"unverified\"),
		(.id = \"\(.id)|\(\$i)|after\" | .evidence[\$i].authorship.verdict = \"verified\")" \
		base.ndjson | head -2000 > up.ndjson &&
	kh-score < up.ndjson > up-scored.ndjson &&
	not_lower up-scored.ndjson
'

test_expect_success 'only fork-only, trivial or bot evidence: unproven, total 0' '
	jq -c "(.evidence[] | .authorship.verdict) |= ([\"fork-only\", \"trivial\", \"bot\"][(. | length) % 3])" \
		base.ndjson > uncredited.ndjson &&
	kh-score --brief "$KH_TOP/share/kh/briefs/example.json" < uncredited.ndjson > out.ndjson &&
	jq -r "[.score.total, .score.tier, ([.score.signals[].points] | max // 0), (.score.generations | length), .score.specialty] | @tsv" \
		out.ndjson | sort -u > actual &&
	printf "0\tunproven\t0\t0\tunknown\n" > expect &&
	test_cmp expect actual &&
	jq -e "all(.score.signals[]; .signal == \"uncredited\" and (.why | test(\"earn no points|earns no points\")))" out.ndjson
'

test_expect_success 'the output is deterministic' '
	kh-score < pairs.ndjson > again.ndjson &&
	cmp scored.ndjson again.ndjson &&
	kh-score --unbuffered pairs.ndjson > again2.ndjson &&
	cmp scored.ndjson again2.ndjson
'

test_expect_success 'KH_NOW fixes recency: the same clock, the same output' '
	KH_NOW=1900000000 kh-score < base.ndjson > later1.ndjson &&
	KH_NOW=1900000000 kh-score < base.ndjson > later2.ndjson &&
	cmp later1.ndjson later2.ndjson &&
	kh-score < base.ndjson > now.ndjson &&
	! cmp -s now.ndjson later1.ndjson &&
	jq -r "[.id, ([.score.signals[] | select(.signal == \"recency\") | .points] | add // 0)] | @tsv" now.ndjson > r-now &&
	jq -r "[.id, ([.score.signals[] | select(.signal == \"recency\") | .points] | add // 0)] | @tsv" later1.ndjson > r-later &&
	paste r-now r-later | awk -F "\t" "\$4 > \$2 { bad = 1 } \$4 < \$2 { fewer++ } END { exit bad || !fewer }"
'

test_expect_success 'the brief only raises, and says so' '
	kh-score < base.ndjson > plain.ndjson &&
	kh-score --brief "$KH_TOP/share/kh/briefs/example.json" < base.ndjson > briefed.ndjson &&
	jq -r .score.total plain.ndjson > t-plain && jq -r .score.total briefed.ndjson > t-brief &&
	paste t-plain t-brief | awk "\$2 < \$1 { bad = 1 } \$2 > \$1 { up++ } END { exit bad || !up }" &&
	jq -e "select(.score.signals | any(.signal == \"brief_hardware\" and .points > 0)) |
		.score.signals[] | select(.signal == \"brief_hardware\") | .why | test(\"the brief asks for\")" \
		briefed.ndjson > /dev/null
'

test_expect_success 'a closed pipe ends it quietly' '
	for i in 1 2 3 4 5 6 7 8 9 10; do cat pairs.ndjson; done > many.ndjson &&
	kh-score < many.ndjson 2> err | head -1 > first &&
	test -s first && ! test -s err
'

test_expect_success 'every signal has a name, integer-tenth points and a why' '
	jq -e "all(.score.signals[]; (.signal | type) == \"string\" and
		(.points * 10 | . == floor) and (.why | length) > 10)" scored.ndjson |
		sort -u > flags &&
	echo true > expect && test_cmp expect flags
'

test_done
