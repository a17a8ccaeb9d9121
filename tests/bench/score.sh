#!/bin/sh
# tests/bench/score.sh: kh-score on generated candidates shaped as
# kh-authorship writes them, against baselines run here and now: cat, and a
# jq filter that only counts verified evidence per candidate. Two inputs:
# "full" candidates of six evidence records, 3.5 KB each (a merged kernel
# PR with files, signals and a speedup in its body, the commit that landed
# it, a docs commit, a leaderboard rank, a fork-only PR, a profile), and
# "compact" ones of two (the PR and the rank), 1.4 KB each. The target is
# 50,000 candidates a second. Each side runs three times and the fastest
# run counts. KH_BENCH_N sets the count.
set -eu
: "${KH_BIN:?run through make bench}"
PATH=$KH_BIN:$PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-bench-score.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C KH_NOW=1795996800
n=${KH_BENCH_N:-50000}

gen () {
awk -v n="$n" -v compact="${COMPACT:-0}" 'BEGIN {
	split("Dao-AILab/flash-attention NVIDIA/cutlass vllm-project/vllm acme/kernels flashinfer-ai/flashinfer", repos, " ");
	split("H100 MI300 B200 A100", gpus, " ");
	for (i = 0; i < n; i++) {
		r = repos[1 + i % 5]; g = gpus[1 + i % 4]; pr = 1000 + i;
		at = sprintf("2026-%02d-%02dT00:00:00Z", 1 + i % 11, 1 + i % 28);
		v = (i % 7 == 0) ? "fork-only" : "verified";
		printf "{\"type\":\"candidate\",\"id\":\"github:dev%d\",\"name\":\"Dev %d\",\"logins\":[\"dev%d\"],\"emails\":[\"dev%d@kernels.dev\"],\"names\":[\"Dev %d\"],\"handles\":[],\"profile\":null,", i, i, i, i, i;
		printf "\"summary\":{\"verified\":4,\"coauthored\":0,\"prs\":1,\"commits\":2,\"lines\":%d,\"kernel_lines\":%d,\"repos\":[{\"repo\":\"%s\",\"prs\":1,\"commits\":2,\"lines\":%d,\"kernel_lines\":%d}],\"first\":\"%s\",\"last\":\"%s\",\"sources\":[\"github\",\"git\"]},\"evidence\":[", 60 + i % 900, 50 + i % 800, r, 60 + i % 900, 50 + i % 800, at, at;
		printf "{\"type\":\"evidence\",\"id\":\"github:pr:%s#%d\",\"kind\":\"pr\",\"source\":\"github\",\"person\":{\"login\":\"dev%d\"},\"url\":\"https://github.com/%s/pull/%d\",\"at\":\"%s\",\"repo\":\"%s\",\"upstream\":true,\"number\":%d,\"title\":\"Paged KV decode for FP8, %d.%dx faster on %s\",\"text\":\"Measured with batch 64 and 32k context: up to %d.%dx over cuBLAS on %s.\",\"author_type\":\"User\",\"merged\":true,\"merged_at\":\"%s\",\"merged_by\":\"maint\",\"base_repo\":\"%s\",\"head_repo\":\"dev%d/r\",\"from_fork\":true,\"labels\":[],\"files\":[{\"path\":\"csrc/attention/decode_%d.cu\",\"added\":%d,\"deleted\":3},{\"path\":\"tests/test_decode.py\",\"added\":20,\"deleted\":0}],\"added\":%d,\"deleted\":3,\"changed_files\":2,\"signals\":{\"instructions\":{\"inline_asm\":2,\"wgmma\":%d,\"tma\":1,\"sm_90\":1},\"arch\":[\"hopper\"],\"dtypes\":[\"fp8\"]},\"authorship\":{\"verdict\":\"verified\",\"why\":\"merged into %s as PR #%d\"}},", r, pr, i, r, pr, at, r, pr, 1 + i % 3, i % 10, g, 1 + i % 4, i % 10, g, at, r, i, i % 50, 50 + i % 800, 70 + i % 800, 1 + i % 5, r, pr;
		if (compact) {
			printf "{\"type\":\"evidence\",\"id\":\"gpumode:b%d:%s:dev%d\",\"kind\":\"leaderboard\",\"source\":\"gpumode\",\"at\":\"%s\",\"board\":\"board-%d\",\"gpu\":\"%s\",\"rank\":%d,\"ranked\":%d,\"after_deadline\":false,\"authorship\":{\"verdict\":\"verified\",\"why\":\"ranked\"}}]}\n", i % 40, g, i, at, i % 40, g, 1 + i % 50, 60 + i % 300;
			continue;
		}
		printf "{\"type\":\"evidence\",\"id\":\"git:commit:%040d\",\"kind\":\"commit\",\"source\":\"git\",\"person\":{\"email\":\"dev%d@kernels.dev\"},\"url\":null,\"at\":\"%s\",\"repo\":\"%s\",\"upstream\":true,\"sha\":\"%040d\",\"title\":\"Paged KV decode for FP8 (#%d)\",\"text\":\"\",\"pr\":%d,\"merge\":false,\"coauthors\":[],\"files\":[{\"path\":\"csrc/attention/decode_%d.cu\",\"added\":%d,\"deleted\":3}],\"added\":%d,\"deleted\":3,\"authorship\":{\"verdict\":\"verified\",\"why\":\"in the history of %s\"}},", i, i, at, r, i, pr, pr, i % 50, 50 + i % 800, 50 + i % 800, r;
		printf "{\"type\":\"evidence\",\"id\":\"git:commit:%040d\",\"kind\":\"commit\",\"source\":\"git\",\"person\":{\"email\":\"dev%d@kernels.dev\"},\"url\":null,\"at\":\"%s\",\"repo\":\"%s\",\"upstream\":true,\"sha\":\"%040d\",\"title\":\"Document the decode options\",\"text\":\"\",\"pr\":null,\"merge\":false,\"coauthors\":[],\"files\":[{\"path\":\"docs/decode.md\",\"added\":12,\"deleted\":1}],\"added\":12,\"deleted\":1,\"authorship\":{\"verdict\":\"verified\",\"why\":\"in the history of %s\"}},", n + i, i, at, r, n + i, r;
		printf "{\"type\":\"evidence\",\"id\":\"gpumode:b%d:%s:dev%d\",\"kind\":\"leaderboard\",\"source\":\"gpumode\",\"person\":{\"handle\":\"dev%d\"},\"url\":\"https://www.gpumode.com/leaderboard/%d\",\"at\":\"%s\",\"repo\":null,\"upstream\":null,\"board\":\"board-%d\",\"board_name\":\"board-%d\",\"gpu\":\"%s\",\"rank\":%d,\"ranked\":%d,\"percentile\":null,\"score_s\":0.001,\"submissions\":9,\"deadline\":\"2026-12-01T00:00:00Z\",\"after_deadline\":false,\"authorship\":{\"verdict\":\"verified\",\"why\":\"ranked\"}},", i % 40, g, i, i, i % 40, at, i % 40, i % 40, g, 1 + i % 50, 60 + i % 300;
		printf "{\"type\":\"evidence\",\"id\":\"github:pr:dev%d/r#%d\",\"kind\":\"pr\",\"source\":\"github\",\"person\":{\"login\":\"dev%d\"},\"url\":null,\"at\":\"%s\",\"repo\":\"dev%d/r\",\"upstream\":false,\"number\":%d,\"title\":\"wip\",\"text\":\"\",\"merged\":true,\"files\":[{\"path\":\"k.cu\",\"added\":500,\"deleted\":0}],\"authorship\":{\"verdict\":\"%s\",\"why\":\"a PR into the fork\"}},", i, i, i, at, i, i, v;
		printf "{\"type\":\"evidence\",\"id\":\"github:user:dev%d\",\"kind\":\"profile\",\"source\":\"github\",\"person\":{\"login\":\"dev%d\"},\"url\":\"https://github.com/dev%d\",\"at\":\"2020-01-01T00:00:00Z\",\"repo\":null,\"upstream\":null,\"profile\":{\"login\":\"dev%d\"},\"authorship\":{\"verdict\":\"unverified\",\"why\":\"a profile: says who, proves no work\"}}]}\n", i, i, i, i;
	}
}' >"$tmp/in.ndjson"
}
gen


best () {
	b=
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		"$@" <"$tmp/in.ndjson" >/dev/null
		t1=$(date +%s%N)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}

run () {	# run LABEL: measure the three on $tmp/in.ndjson
	kh-score <"$tmp/in.ndjson" | head -1 | jq -e '.score.total > 0' >/dev/null
	c=$(best cat)
	base=$(best jq -c '.score = {total: ([.evidence[] | select(.authorship.verdict == "verified")] | length)}')
	kh=$(best kh-score)
	kb=$(($(wc -c <"$tmp/in.ndjson") / 1024))
	awk -v n="$n" -v c="$c" -v b="$base" -v k="$kh" -v kb="$kb" -v l="$1" 'BEGIN {
		printf "%s: %d candidates, %d KB\n", l, n, kb;
		printf "  cat                     %8.3fs  %9.0f candidates/s\n", c / 1e9, n / (c / 1e9);
		printf "  jq (count verified)     %8.3fs  %9.0f candidates/s\n", b / 1e9, n / (b / 1e9);
		printf "  kh-score                %8.3fs  %9.0f candidates/s  (target >= 50000)\n", k / 1e9, n / (k / 1e9);
		printf "  ratio jq/kh-score       %8.2fx  (kh-score is this many times faster than jq)\n", b / k;
	}'
}
run full
COMPACT=1 gen
run compact
