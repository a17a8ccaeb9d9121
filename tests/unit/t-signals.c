/* t-signals: the hardware scanner reads code, not comments or strings */
#include <stdlib.h>
#include <string.h>

#include "kh.h"
#include "tap.h"

/* Scan lines (separated by '\n') of one file; the signals as JSON text. */
static char *
scan(const char *path, const char *text)
{
	struct kh_signals *s = kh_signals_new();
	const char *p = text;
	cJSON *j;
	char *out;

	kh_signals_file(s, path);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		kh_signals_line(s, p, n);
		p += n + (nl ? 1 : 0);
	}
	j = kh_signals_json(s);
	out = j ? kh_json_print(j) : kh_strdup("null");
	cJSON_Delete(j);
	kh_signals_free(s);
	return out;
}

static const struct {
	const char *name, *path, *text, *want;
} cases[] = {
	{ "comment-only tcgen05 proves nothing", "k.cu",
	  "// tcgen05 not wired here yet\nint x = 0; /* TMEM later */\n",
	  "null" },
	{ "block comment over lines", "k.cu",
	  "/* wgmma\n   setmaxnreg tcgen05\n*/ int y;\n", "null" },
	{ "a string is not code", "k.cu",
	  "printf(\"wgmma mfma fp8\\n\");\n", "null" },
	{ "inline PTX in an asm statement is code", "k.cu",
	  "asm volatile(\"wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16"
	  ".bf16 {%0}, %1, %2;\" : \"+f\"(d) : \"l\"(a), \"l\"(b));\n",
	  "{\"instructions\":{\"inline_asm\":1,\"wgmma\":1},"
	  "\"arch\":[\"hopper\"],\"dtypes\":[]}" },
	{ "multi-line asm with TMA", "tma.cuh",
	  "asm volatile(\n"
	  "  \"cp.async.bulk.tensor.2d.shared::cluster.global.tile\"\n"
	  "  \" [%0], [%1, {%2, %3}], [%4];\"\n"
	  "  :: \"r\"(smem), \"l\"(desc) : \"memory\");\n"
	  "printf(\"cp.async.bulk.tensor\");\n",
	  "{\"instructions\":{\"inline_asm\":1,\"tma\":1},"
	  "\"arch\":[\"hopper\"],\"dtypes\":[]}" },
	{ "Ampere mma.sync and ldmatrix", "mma.cu",
	  "asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\" : \"=r\"(r0) : \"r\"(a));\n"
	  "asm(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 ...\");\n"
	  "asm(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(s), \"l\"(g));\n",
	  "{\"instructions\":{\"inline_asm\":3,\"mma.sync\":1,\"ldmatrix\":1,"
	  "\"cp.async\":1},\"arch\":[\"ampere\"],\"dtypes\":[]}" },
	{ "Blackwell tcgen05 and TMEM, sm_100a guard", "b.cu",
	  "#if defined(__CUDA_ARCH_FEAT_SM100_ALL)\n"
	  "uint32_t tmem_addr = tmem_alloc(128);\n"
	  "asm volatile(\"tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3;\" :: \"r\"(t));\n"
	  "#endif\n",
	  "{\"instructions\":{\"inline_asm\":1,\"tcgen05\":1,\"tmem\":2,"
	  "\"sm_100\":1},\"arch\":[\"blackwell\"],\"dtypes\":[]}" },
	{ "AMD MFMA and gfx942 with FP8", "gemm.hip",
	  "#if defined(__gfx942__)\n"
	  "acc = __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, acc, 0, 0, 0);\n"
	  "#endif\n",
	  "{\"instructions\":{\"mfma\":1,\"gfx\":1},"
	  "\"arch\":[\"cdna\",\"cdna3\"],\"dtypes\":[\"fp8\"]}" },
	{ "warp shuffles and CuTe", "r.cuh",
	  "#include \"cute/tensor.hpp\"\n"
	  "v += __shfl_xor_sync(0xffffffff, v, 16);\n"
	  "using namespace cute; auto t = cute::make_tensor(p, l);\n",
	  "{\"instructions\":{\"warp_primitives\":1,\"cute\":2},"
	  "\"arch\":[],\"dtypes\":[]}" },
	{ "Triton kernel with FP8, docstring skipped", "k.py",
	  "@triton.jit\n"
	  "def k(a_ptr):\n"
	  "    \"\"\"wgmma tcgen05 in a docstring\n"
	  "    still docstring: mfma\"\"\"\n"
	  "    a = tl.load(a_ptr).to(tl.float8e4nv)  # nvfp4 later\n"
	  "    c = tl.dot(a, b)\n",
	  "{\"instructions\":{\"triton\":2},\"arch\":[],"
	  "\"dtypes\":[\"fp8\"]}" },
	{ "Gluon and NVFP4", "g.py",
	  "from triton.experimental import gluon\n"
	  "@gluon.jit\n"
	  "def f(x): y = ttgl.load(x); scale_nvfp4(y)\n",
	  "{\"instructions\":{\"gluon\":2},\"arch\":[],"
	  "\"dtypes\":[\"fp4\",\"nvfp4\"]}" },
	{ "Triton inline asm strings are code", "i.py",
	  "y = tl.inline_asm_elementwise(\n"
	  "    asm=\"cvt.rn.satfinite.e4m3x2.f32 $0, $2, $1;\",\n"
	  "    args=[x])\n"
	  "z = 'mma.sync'\n",
	  "{\"instructions\":{\"inline_asm\":2},\"arch\":[],"
	  "\"dtypes\":[\"fp8\"]}" },
	{ "documentation is not read", "README.md",
	  "We use wgmma and tcgen05 on sm_100a.\n", "null" },
	{ "arch guards need a word boundary", "a.cu",
	  "int prism_900 = 1; int sm_900x; int xsm90 = 2;\n", "null" },
	{ "sm_90a guard and CuTe atoms", "h.cuh",
	  "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
	  "using Atom = SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>;\n",
	  "{\"instructions\":{\"wgmma\":1,\"sm_90\":2},"
	  "\"arch\":[\"hopper\"],\"dtypes\":[]}" },
};

int
main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = scan(cases[i].path, cases[i].text);

		is_str(got, cases[i].want, cases[i].name);
		free(got);
	}

	/* State resets at the next file: an unclosed comment ends there. */
	{
		struct kh_signals *s = kh_signals_new();
		cJSON *j;
		char *got;

		kh_signals_file(s, "a.cu");
		kh_signals_line(s, "/* open comment", 15);
		kh_signals_file(s, "b.cu");
		kh_signals_line(s, "setmaxnreg", 10);
		kh_signals_file(s, NULL);	/* NULL: read as C */
		kh_signals_line(s, "x = fp8", 7);
		j = kh_signals_json(s);
		got = kh_json_print(j);
		is_str(got, "{\"instructions\":{\"setmaxnreg\":1},"
		    "\"arch\":[\"hopper\"],\"dtypes\":[\"fp8\"]}",
		    "state resets per file, counts add up over files");
		free(got);
		cJSON_Delete(j);
		kh_signals_free(s);
	}
	ok(kh_signals_code_file("csrc/flash.cu"), "a .cu file is code");
	ok(kh_signals_code_file("python/k.py"), "a .py file is code");
	ok(!kh_signals_code_file("docs/index.md"), "markdown is not code");
	ok(!kh_signals_code_file("Makefile"), "no extension is not code");
	ok(!kh_signals_code_file(NULL), "no path is not a code file");
	kh_signals_free(NULL);
	return done_testing();
}
