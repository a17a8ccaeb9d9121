#!/bin/sh
# t6000-score-panel: a realistic panel. Git histories built here (shared
# upstreams, a fork, a learning repository) go through kh-fetch git
# --signals | kh-authorship | kh-score together with GitHub-, GPU MODE-,
# registry-, paper- and Codeforces-shaped evidence; the test checks the
# documented order below.
#
# The documented order, best first; within a group the order is free,
# every member of a group scores above every member of the next:
#   1. star: landed Blackwell kernels (tcgen05, TMEM) in flash-attention and
#      CUTLASS with measured speedups on B200, and a grand prize
#   2. champ (first of 400 on an H100 board, second of 212 on MI300, before
#      the deadlines), hopper (steady wgmma/TMA kernels in flash-attention,
#      1.5x on H100), amd (MFMA kernels for gfx942 in aiter, 2.1x over
#      hipBLASLt on MI300X), vllmk (FP8 paged-attention decode kernels in
#      vLLM, 30% faster on H100)
#   3. winner (an organiser-stated first place), cute (CuTe/Ampere atoms
#      in CUTLASS), trap (plain kernels landed in flash-attention; its
#      tcgen05 and TMEM are only in comments, so no Blackwell)
#   4. author (first author of a kernel paper at MLSys), nohw (2x in
#      FlashInfer, no hardware named), learner (60 days of CUDA in a personal
#      repository: junior at most), smallb (rank 2 of 9)
#   5. above zero, unproven: cf (a Codeforces rating only), vllmpy (Python
#      engine work in vLLM, no kernels), tester (tests only), organiser
#      (problem definitions in gpu-mode/reference-kernels)
#   6. zero, unproven: docs (typo fixes), ci (workflow files), forker (work
#      only in a fork), dropper (a release drop), unmerged (a PR never
#      merged), botty (a bot), m (merged other people's PRs), maintainer
#      (initial commits)
. "$(dirname "$0")/../lib.sh"

export KH_NOW=1795996800	# 2026-11-30
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
T=1767225600	# 2026-01-01; commit n is n hours later
n=0

# commit LOGIN MESSAGE: commit what is staged as LOGIN's noreply address
commit () {
	n=$((n + 1))
	d="@$((T + n * 3600)) +0000"
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL="$1@users.noreply.github.com" \
	GIT_COMMITTER_NAME=$1 GIT_COMMITTER_EMAIL="$1@users.noreply.github.com" \
	GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d \
	git commit -q --allow-empty -m "$2"
}

# kernel FILE KIND N: a kernel file of N lines; KIND says which instructions
kernel () {
	mkdir -p "$(dirname "$1")"
	{
		case $2 in
		hopper)
			echo '#if defined(__CUDA_ARCH_FEAT_SM90_ALL)'
			echo '__device__ void mma(float *d, unsigned long long a, unsigned long long b) {'
			echo '  asm volatile("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%0}, %1, %2;" : "+f"(d[0]) : "l"(a), "l"(b));'
			echo '  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile [%0], [%1];" :: "r"(0), "l"(a));'
			echo '}'
			echo '#endif' ;;
		blackwell)
			echo '#if defined(__CUDA_ARCH_FEAT_SM100_ALL)'
			echo '__device__ void umma(unsigned t) {'
			echo '  asm volatile("tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3;" :: "r"(t));'
			echo '  uint32_t tmem = tmem_alloc(128); (void)tmem;'
			echo '}'
			echo '#endif' ;;
		ampere)
			echo '#include <cute/tensor.hpp>'
			echo '__device__ void ld(unsigned *r, unsigned a) {'
			echo '  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));'
			echo '  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};" : "+f"(x));'
			echo '  auto t = cute::make_tensor(p, l);'
			echo '}' ;;
		cdna)
			echo '#if defined(__gfx942__)'
			echo '__device__ void mf(floatx4 &acc, long a, long b) {'
			echo '  acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, acc, 0, 0, 0);'
			echo '}'
			echo '#endif' ;;
		comment)
			echo '// TODO: tcgen05.mma and TMEM allocation for Blackwell (sm_100a)'
			echo '/* wgmma path comes later */'
			echo '__global__ void plain(float *o, const float *i) {' ;;
		*)
			echo '__global__ void k(float *o, const float *i) {' ;;
		esac
		awk -v n="$3" 'BEGIN { for (j = 0; j < n; j++)
			printf "  o[threadIdx.x + %d] = i[threadIdx.x + %d] * 2.0f;\n", j, j }'
		echo '}'
	} >> "$1"
}

lines () {	# lines FILE N: N lines of text
	mkdir -p "$(dirname "$1")"
	awk -v n="$2" -v f="$1" -v c="$n" 'BEGIN { for (j = 0; j < n; j++)
		printf "line %d of %s %d\n", j, f, c }' >> "$1"
}

repo () {	# repo DIR OWNER/NAME
	mkdir -p "$1" && git -C "$1" init -q -b main &&
	git -C "$1" remote add origin "https://github.com/$2.git"
}

test_expect_success 'build the panel histories' '
	repo fa Dao-AILab/flash-attention && repo cutlass NVIDIA/cutlass &&
	repo vllm vllm-project/vllm && repo refk gpu-mode/reference-kernels &&
	repo aiter ROCm/aiter && repo learn learner/100-days-of-cuda &&
	(cd fa && lines README.md 5 && git add -A && commit maintainer "Initial commit" &&
	 for i in 1 2 3 4 5 6; do kernel hopper/fa3_$i.cu hopper 80 && git add -A &&
		commit hopper "hopper: FP8 attention forward, part $i

1.5x faster than FA2 on H100 at seqlen 8k." || exit 1; done &&
	 for i in 1 2 3; do kernel hopper/bw_$i.cu blackwell 90 && git add -A &&
		commit star "Blackwell FMHA with tcgen05 and TMEM, part $i

1.7x over the Hopper kernel on B200." || exit 1; done &&
	 for i in 1 2 3; do kernel hopper/plain_$i.cu comment 60 && git add -A &&
		commit trap "Prepare the Blackwell path, part $i" || exit 1; done &&
	 for i in 1 2 3 4 5 6 7 8 9 10; do lines tests/test_attn_$i.py 40 && git add -A &&
		commit tester "Add attention tests, part $i" || exit 1; done &&
	 for i in 1 2 3 4 5 6 7 8; do lines docs/guide_$i.md 3 && git add -A &&
		commit docs "Fix typo in docs" || exit 1; done &&
	 mkdir -p .github/workflows &&
	 for i in 1 2 3 4 5 6; do lines .github/workflows/ci_$i.yml 20 && git add -A &&
		commit ci "CI: add workflow $i" || exit 1; done &&
	 for i in 1 2 3 4 5 6 7 8 9 10 11 12; do kernel vendor/drop_$i.cu plain 2000 || exit 1; done &&
	 git add -A && commit dropper "Sync from internal repository") &&
	git clone -q fa fork && (cd fork && git remote set-url origin https://github.com/forker/flash-attention.git &&
	 for i in 1 2 3; do kernel hopper/mine_$i.cu hopper 100 && git add -A &&
		commit forker "My faster attention, part $i" || exit 1; done) &&
	(cd cutlass && lines README.md 5 && git add -A && commit maintainer "Initial commit" &&
	 for i in 1 2 3 4 5; do kernel include/cute/atom/mma_sm80_$i.hpp ampere 70 && git add -A &&
		commit cute "CuTe: SM80 MMA atom, part $i" || exit 1; done &&
	 for i in 1 2; do kernel include/cutlass/gemm/sm100_$i.hpp blackwell 120 && git add -A &&
		commit star "Blackwell grouped GEMM, part $i" || exit 1; done) &&
	(cd vllm && lines README.md 5 && git add -A && commit maintainer "Initial commit" &&
	 for i in 1 2 3 4; do kernel csrc/attention/paged_attention_fp8_$i.cu hopper 60 && git add -A &&
		commit vllmk "[Kernel] FP8 paged attention decode, part $i

30% faster decode on H100 for batch 64." || exit 1; done &&
	 for i in 1 2 3 4 5 6 7 8 9 10 11 12; do lines vllm/engine/step_$i.py 60 && git add -A &&
		commit vllmpy "[Core] scheduler refactor, part $i" || exit 1; done) &&
	(cd refk && lines README.md 5 && git add -A && commit maintainer "Initial commit" &&
	 for i in 1 2 3 4 5 6 7 8 9 10; do lines problems/amd/p$i/reference.py 50 && lines problems/amd/p$i/task.yml 10 &&
		git add -A && commit organiser "Add problem $i" || exit 1; done) &&
	(cd aiter && lines README.md 5 && git add -A && commit maintainer "Initial commit" &&
	 for i in 1 2 3 4; do kernel csrc/gemm/fp8_gemm_$i.cu cdna 70 && git add -A &&
		commit amd "FP8 MFMA GEMM for gfx942, part $i

2.1x vs hipBLASLt on MI300X." || exit 1; done) &&
	(cd learn && lines README.md 5 && git add -A && commit learner "Day 0" &&
	 i=1 && while [ $i -le 60 ]; do
		if [ $((i % 10)) -eq 0 ]; then kind=hopper; else kind=plain; fi &&
		kernel day$i/kernel.cu $kind 40 && kernel day$i/helper.cuh plain 10 &&
		git add -A && commit learner "Day $i of CUDA" || exit 1; i=$((i + 1)); done)
'

test_expect_success 'github-, leaderboard-, registry-, paper- and rating-shaped evidence' '
	cat > other.ndjson <<-\EOF
	{"type":"evidence","id":"registry:amd-challenge:winner","kind":"competition","source":"registry","person":{"login":"winner"},"url":"https://example.org/results","at":"2025-06-12T00:00:00Z","repo":null,"upstream":null,"competition":"AMD Developer Challenge 2025","organiser":"AMD x GPU MODE","placing":1,"placing_text":"grand prize","self_reported":false,"members":[{"login":"winner"}],"confidence":"high","sources":["https://example.org/results"]}
	{"type":"evidence","id":"registry:amd-challenge:star","kind":"competition","source":"registry","person":{"login":"star"},"url":"https://example.org/results","at":"2025-06-12T00:00:00Z","repo":null,"upstream":null,"competition":"AMD Developer Challenge 2025","organiser":"AMD x GPU MODE","placing":1,"placing_text":"grand prize","self_reported":false,"members":[{"login":"star"}],"confidence":"high","sources":["https://example.org/results"]}
	{"type":"evidence","id":"openalex:W1","kind":"paper","source":"openalex","person":{"login":"author"},"url":"https://openalex.org/W1","at":"2026-05-01T00:00:00Z","repo":null,"upstream":null,"title":"Tile-level attention kernels for tensor cores","authors":[{"name":"Pat Author"}],"venue":"MLSys","year":2026,"doi":null,"position":"first","ambiguous":false,"topics":["GPU kernels"]}
	{"type":"evidence","id":"codeforces:cf","kind":"rating","source":"codeforces","person":{"login":"cf","handle":"cf"},"url":"https://codeforces.com/profile/cf","at":"2026-01-01T00:00:00Z","repo":null,"upstream":null,"rating":2500,"max_rating":2550,"rank_title":"grandmaster","max_rank_title":"grandmaster"}
	{"type":"evidence","id":"github:pr:flashinfer-ai/flashinfer#900","kind":"pr","source":"github","person":{"login":"nohw"},"url":"https://github.com/flashinfer-ai/flashinfer/pull/900","at":"2026-09-01T00:00:00Z","repo":"flashinfer-ai/flashinfer","upstream":true,"number":900,"title":"Faster top-k sampling","text":"2x faster sampling kernel.","author_type":"User","merged":true,"merged_at":"2026-09-01T00:00:00Z","merged_by":"m","base_repo":"flashinfer-ai/flashinfer","head_repo":"nohw/flashinfer","from_fork":true,"labels":[],"files":[{"path":"include/flashinfer/sampling.cuh","added":40,"deleted":5}],"added":40,"deleted":5,"changed_files":1}
	{"type":"evidence","id":"github:pr:flashinfer-ai/flashinfer#901","kind":"pr","source":"github","person":{"login":"unmerged"},"url":"https://github.com/flashinfer-ai/flashinfer/pull/901","at":"2026-09-02T00:00:00Z","repo":"flashinfer-ai/flashinfer","upstream":true,"number":901,"title":"Blackwell decode 3x faster on B200","text":"","author_type":"User","merged":false,"merged_at":null,"merged_by":null,"base_repo":"flashinfer-ai/flashinfer","head_repo":"unmerged/flashinfer","from_fork":true,"labels":[],"files":[{"path":"include/flashinfer/decode.cuh","added":400,"deleted":0}],"added":400,"deleted":0,"changed_files":1}
	{"type":"evidence","id":"github:pr:flashinfer-ai/flashinfer#902","kind":"pr","source":"github","person":{"login":"botty[bot]"},"url":"https://github.com/flashinfer-ai/flashinfer/pull/902","at":"2026-09-03T00:00:00Z","repo":"flashinfer-ai/flashinfer","upstream":true,"number":902,"title":"Bump actions/checkout from 3 to 4","text":"","author_type":"Bot","merged":true,"merged_at":"2026-09-03T00:00:00Z","merged_by":"m","base_repo":"flashinfer-ai/flashinfer","head_repo":"flashinfer-ai/flashinfer","from_fork":false,"labels":[],"files":[{"path":".github/workflows/ci.yml","added":1,"deleted":1}],"added":1,"deleted":1,"changed_files":1}
	EOF
	{
		for r in fa cutlass vllm refk aiter learn; do
			kh-fetch git --signals --upstream "$r" "$r" || exit 1
		done &&
		kh-fetch git --signals --upstream fa fork &&
		cat other.ndjson
	} > evidence.ndjson &&
	test "$(wc -l < evidence.ndjson)" -gt 150
'

# Leaderboard-only candidates, written as kh-authorship writes them (verdicts
# included), so the panel's ranks do not hang on its leaderboard rules.
cat > ranked.ndjson <<\EOF
{"type":"candidate","id":"github:champ","name":"champ","logins":["champ"],"emails":[],"names":[],"handles":["champ"],"profile":null,"summary":{"verified":2,"coauthored":0,"prs":0,"commits":0,"lines":0,"kernel_lines":0,"repos":[],"first":"2026-05-01T00:00:00Z","last":"2025-05-20T00:00:00Z","sources":["gpumode"]},"evidence":[{"type":"evidence","id":"gpumode:trimul:H100:champ","kind":"leaderboard","source":"gpumode","person":{"login":"champ","handle":"champ"},"url":"https://www.gpumode.com/leaderboard/496","at":"2026-05-01T00:00:00Z","repo":null,"upstream":null,"board":"trimul","board_name":"trimul","gpu":"H100","rank":1,"ranked":400,"percentile":null,"score_s":0.0021,"submissions":40,"deadline":"2026-06-01T00:00:00Z","after_deadline":false,"authorship":{"verdict":"verified","why":"ranked 1 on trimul (H100)"}},{"type":"evidence","id":"gpumode:amd-fp8-mm:MI300:champ","kind":"leaderboard","source":"gpumode","person":{"login":"champ","handle":"champ"},"url":"https://www.gpumode.com/leaderboard/399","at":"2025-05-20T00:00:00Z","repo":null,"upstream":null,"board":"amd-fp8-mm","board_name":"amd-fp8-mm","gpu":"MI300","rank":2,"ranked":212,"percentile":null,"score_s":0.0001,"submissions":90,"deadline":"2025-06-08T00:00:00Z","after_deadline":false,"authorship":{"verdict":"verified","why":"ranked 2 on amd-fp8-mm (MI300)"}}]}
{"type":"candidate","id":"github:smallb","name":"smallb","logins":["smallb"],"emails":[],"names":[],"handles":["smallb"],"profile":null,"summary":{"verified":1,"coauthored":0,"prs":0,"commits":0,"lines":0,"kernel_lines":0,"repos":[],"first":"2026-04-01T00:00:00Z","last":"2026-04-01T00:00:00Z","sources":["gpumode"]},"evidence":[{"type":"evidence","id":"gpumode:tiny:L4:smallb","kind":"leaderboard","source":"gpumode","person":{"login":"smallb","handle":"smallb"},"url":"https://www.gpumode.com/leaderboard/7","at":"2026-04-01T00:00:00Z","repo":null,"upstream":null,"board":"tiny-sort","board_name":"tiny-sort","gpu":"L4","rank":2,"ranked":9,"percentile":null,"score_s":0.5,"submissions":3,"deadline":"2026-05-01T00:00:00Z","after_deadline":false,"authorship":{"verdict":"verified","why":"ranked 2 on tiny-sort (L4)"}}]}
EOF

test_expect_success 'the panel goes through authorship and score' '
	kh-authorship < evidence.ndjson > candidates.ndjson &&
	cat ranked.ndjson >> candidates.ndjson &&
	kh-score < candidates.ndjson > scored.ndjson &&
	jq -r "select(.type == \"candidate\") | [(.logins[0] // .handles[0] // .id), .score.total, .score.tier] | @tsv" \
		scored.ndjson | sort -t "	" -k2,2gr -k1,1 > ranking &&
	cat ranking &&
	test "$(wc -l < ranking)" -ge 20 && test "$(wc -l < ranking)" -le 30
'

# total LOGIN: the candidate's total (empty when absent)
total () {
	awk -F "	" -v who="$1" '$1 == who { print $2 }' ranking
}

test_expect_success 'the documented order holds' '
	groups="star champ,hopper,amd,vllmk winner,cute,trap author,nohw,learner,smallb cf,vllmpy,tester,organiser" &&
	prev= &&
	for g in $groups; do
		lo= &&
		for who in $(echo "$g" | tr , " "); do
			t=$(total "$who") &&
			test -n "$t" || { echo "no candidate $who"; exit 1; }
			lo=$(awk -v a="$t" -v b="${lo:-1000}" "BEGIN { print (a < b) ? a : b }")
		done &&
		if [ -n "$prev" ]; then
			for who in $(echo "$g" | tr , " "); do
				awk -v a="$(total "$who")" -v b="$prev" "BEGIN { exit !(a < b) }" ||
				{ echo "$who ($(total "$who")) is not below the group above (lowest $prev)"; exit 1; }
			done
		fi &&
		prev=$lo || exit 1
	done &&
	for who in cf vllmpy tester organiser; do
		awk -v a="$(total "$who")" "BEGIN { exit !(a > 0) }" ||
		{ echo "$who should score above zero"; exit 1; }
	done
'

test_expect_success 'evidence that is not credited scores zero and unproven' '
	for who in docs ci forker dropper unmerged botty m maintainer; do
		printf "%s\t0\tunproven\n" "$who" || exit 1
	done | sort > expect &&
	grep -E "^(docs|ci|forker|dropper|unmerged|botty(\[bot\])?|m|maintainer)	" ranking |
		sed "s/^botty\[bot\]/botty/" | sort > actual &&
	test_cmp expect actual
'

test_expect_success 'tiers: the learner is held at junior, the star is principal or staff' '
	grep "^learner	" ranking | cut -f3 > actual && echo junior > expect && test_cmp expect actual &&
	case $(grep "^star	" ranking | cut -f3) in principal|staff) ;; *) exit 1 ;; esac
'

test_expect_success 'the comment-only trap proves no Blackwell' '
	jq -r "select(.logins[0] == \"trap\") | [.score.generations[].arch] | join(\",\")" scored.ndjson > actual &&
	echo > expect && test_cmp expect actual &&
	jq -r "select(.logins[0] == \"star\") | [.score.generations[].arch] | join(\",\")" scored.ndjson > actual &&
	echo blackwell > expect && test_cmp expect actual &&
	jq -r "select(.logins[0] == \"hopper\") | [.score.generations[].arch] | join(\",\")" scored.ndjson > actual &&
	echo hopper > expect && test_cmp expect actual
'

test_expect_success 'every point cites evidence the candidate has' '
	jq -e "select(.type == \"candidate\") | [.evidence[].id] as \$ids |
		.score.signals | all(.[]; (.points <= 0) or
		((.evidence | length) > 0 and all(.evidence[]; . as \$e | \$ids | index(\$e) != null)))" \
		scored.ndjson > flags &&
	! grep -v true flags
'

test_done
