#!/bin/sh
# share/samples/make-repos.sh DIR: build the demo's git histories in DIR.
# Fictional people and repositories, with the traps real data has:
#   DIR/fa-labs/flashattn        an upstream kernel repository: squash-merged
#                                PRs (GitHub as committer), one person under
#                                three emails, a docs-only fix, dependabot,
#                                an AI-agent co-author, a release drop
#   DIR/forkonly/flashattn       a fork: its own commits plus a cherry-picked
#                                copy of upstream work
#   DIR/cuda100days/100-days-of-cuda   a learning-in-public repository
# Dates are fixed, so every run builds the same commits.
set -eu
dir=${1:?usage: make-repos.sh DIR}
mkdir -p "$dir"
cd "$dir"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null TZ=UTC
T=1735689600	# 2025-01-01T00:00:00Z; each commit a day later
n=0

# commit AUTHOR_NAME AUTHOR_EMAIL MESSAGE [COMMITTER_NAME COMMITTER_EMAIL]
commit () {
	n=$((n + 1))
	d="@$((T + n * 86400)) +0000"
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 GIT_AUTHOR_DATE=$d \
	GIT_COMMITTER_NAME=${4:-$1} GIT_COMMITTER_EMAIL=${5:-$2} \
	GIT_COMMITTER_DATE=$d git commit -q --allow-empty -m "$3"
}
gh () { commit "$1" "$2" "$3" GitHub noreply@github.com; }

mkdir -p fa-labs/flashattn && cd fa-labs/flashattn
git init -q -b main .
git remote add origin https://github.com/fa-labs/flashattn.git
mkdir -p csrc hopper blackwell amd docs .github/workflows
printf '# flashattn\nFast attention kernels.\n' > README.md
cat > csrc/fmha.cu <<'CU'
// Reference attention forward: one block per (batch, head).
__global__ void fmha_fwd_ref(const float *q, const float *k, const float *v,
                             float *o, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = q[i] * k[i] + v[i];
}
CU
git add -A && commit "Tomas Keller" "tomas@fa-labs.example" "Initial import of the attention library"

cat > hopper/fmha_fwd_sm90.cu <<'CU'
#include <cuda_fp8.h>
// Hopper forward pass: TMA loads Q/K/V tiles, wgmma computes S = QK^T.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ void load_tile(void *smem, const void *desc, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];" :: "r"(smem), "l"(desc), "r"(x), "r"(y), "r"(0));
}
__device__ void qk_gemm(float *acc, unsigned long long da, unsigned long long db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 "
               "{%0}, %1, %2, 1, 1, 1;" : "+f"(acc[0]) : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;");
}
#endif
CU
git add -A && gh "Mei Lin" "mei.lin@uni.example" "Add Hopper FMHA forward with wgmma and TMA (#12)

FP8 e4m3 inputs, fp32 accumulation. 1.6x faster than the sm80 path on H100 SXM at seqlen 8k."

cat > hopper/decode_splitkv.cu <<'CU'
// Split-KV decode: each CTA reduces a slice of the KV cache.
__global__ void decode_splitkv(const __nv_fp8_e4m3 *kv, float *out, int len) {
  float m = -1e30f;
  for (int off = 16; off > 0; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off));
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}
CU
git add -A && gh "Mei Lin" "12345+meilin-gpu@users.noreply.github.com" "Speed up paged KV decode with split-KV (#15)

Decode throughput 1.4x faster on H100 for batch 64, 32k context."

printf '# flashattn\nFast attention kernels for NVIDIA and AMD GPUs.\n' > README.md
git add -A && gh "Dee Oakes" "dee@docs.example" "Fix typo in README (#16)"

printf 'name: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n' > .github/workflows/ci.yml
git add -A && gh "dependabot[bot]" "49699333+dependabot[bot]@users.noreply.github.com" "Bump actions/checkout from 3 to 4 (#17)"
fork_point=$(git rev-parse HEAD)

cat > amd/fp8_gemm_gfx942.hip <<'CU'
#include <hip/hip_runtime.h>
// MI300X FP8 GEMM: 32x32x16 MFMA tiles, LDS double buffering.
#if defined(__gfx942__)
__global__ void fp8_gemm(const long *a, const long *b, float *c) {
  using f32x16 = __attribute__((__vector_size__(16 * sizeof(float)))) float;
  f32x16 acc = {0};
  acc = __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a[threadIdx.x], b[threadIdx.x], acc, 0, 0, 0);
  c[threadIdx.x] = acc[0];
}
#endif
CU
git add -A && gh "Ravi Raman" "ravi.raman@work.example" "Add FP8 GEMM for MI300X with MFMA (#18)

2.1x vs hipBLASLt on MI300X for M=N=K=8192.

Co-authored-by: Sofia Alvarez <sofia.alvarez@univ.example>
Co-authored-by: Claude <noreply@anthropic.com>"

cat > blackwell/fmha_fwd_sm100.cu <<'CU'
// Blackwell forward: tcgen05 MMA with accumulators in tensor memory.
// (a comment naming wgmma does not count as evidence)
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
__device__ void qk_mma(unsigned tmem, unsigned long long da, unsigned long long db) {
  asm volatile("tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, 0, 1;"
               :: "r"(tmem), "l"(da), "l"(db));
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%0];" :: "r"(0));
}
#endif
CU
git add -A && gh "meilin-gpu" "mei@lattice-old.example" "Blackwell: tcgen05 MMA path for FMHA forward (#20)

NVFP4 and FP8 inputs; from 610 to 820 TFLOPs on B200."

i=0
while [ $i -lt 400 ]; do
	printf 'static const float table_%d[4] = {%d.0f, 1.0f, 2.0f, 3.0f};\n' $i $i
	i=$((i + 1))
done > csrc/generated_tables.h
git add -A && commit "fa-labs release" "release@fa-labs.example" "Sync from internal repository (release 2.1)"
cd ../..

mkdir -p forkonly
git clone -q fa-labs/flashattn forkonly/flashattn
cd forkonly/flashattn
git reset -q --hard "$fork_point"
git remote set-url origin https://github.com/forkonly/flashattn.git
printf '// my experiment: unrolled loop\n__global__ void exp1(float *x) { x[threadIdx.x] *= 2.0f; }\n' > csrc/exp1.cu
git add -A && commit "Frank Fork" "frank@fork.example" "Try an unrolled variant of the reference kernel"
# A copy of upstream's MI300X work: author and author date are kept.
n=$((n + 1))
GIT_COMMITTER_NAME="Frank Fork" GIT_COMMITTER_EMAIL=frank@fork.example \
GIT_COMMITTER_DATE="@$((T + n * 86400)) +0000" \
	git cherry-pick "$(git -C ../../fa-labs/flashattn rev-parse HEAD~2)" >/dev/null
cd ../..

mkdir -p cuda100days/100-days-of-cuda && cd cuda100days/100-days-of-cuda
git init -q -b main .
git remote add origin https://github.com/cuda100days/100-days-of-cuda.git
day=1
while [ $day -le 30 ]; do
	printf '// Day %d of 100 days of CUDA\n__global__ void day%d(float *x, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = x[i] * %d.0f;\n}\n' $day $day $day > "day$day.cu"
	topic=$(sed -n "$(( (day - 1) % 12 + 1 ))p" <<'TOPICS'
vector add
matrix add
naive matmul
tiled matmul with shared memory
reduction
warp shuffle reduction
prefix sum
histogram
softmax
layernorm
transpose
convolution
TOPICS
)
	git add -A && commit "Casey Learner" "casey@learn.example" "Day $day: $topic"
	day=$((day + 1))
done
