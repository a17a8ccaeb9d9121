/*
 * signals.c: hardware evidence read from the code itself.
 *
 * The caller feeds the added lines of a patch, file by file. Only source
 * files are read (CUDA/HIP/C/C++/PTX/MLIR and Python). A small lexer drops
 * comments and string literals, so "tcgen05 not wired here yet" in a
 * comment proves nothing; the strings of an inline-assembly statement
 * (asm volatile("wgmma...")), Triton's inline_asm_elementwise) are code and
 * are read. What is left is matched, lowercased, against the table below:
 * instruction-level terms, architecture guards, kernel stacks, data types.
 */
#include <stdlib.h>
#include <string.h>

#include "kh.h"

enum lang { L_NONE, L_C, L_PY };

/* Lexer states that carry over from one line to the next. */
enum state { S_CODE, S_BLOCK, S_PY3D, S_PY3S };

/* Architectures and data types: bits, in output order. */
static const char *const arch_names[] = {
	"ampere", "ada", "hopper", "blackwell", "cdna", "cdna2", "cdna3",
	"cdna4"
};
enum { A_AMPERE = 1, A_ADA = 2, A_HOPPER = 4, A_BLACKWELL = 8, A_CDNA = 16,
	A_CDNA2 = 32, A_CDNA3 = 64, A_CDNA4 = 128 };
static const char *const dtype_names[] = {
	"fp8", "mxfp8", "fp4", "nvfp4", "mxfp4"
};
enum { D_FP8 = 1, D_MXFP8 = 2, D_FP4 = 4, D_NVFP4 = 8, D_MXFP4 = 16 };

/* The instruction names, in output order. */
enum insn {
	I_NONE = -1, I_ASM, I_MMA_SYNC, I_LDMATRIX, I_CP_ASYNC, I_WGMMA,
	I_TMA, I_SETMAXNREG, I_MBARRIER, I_TCGEN05, I_TMEM, I_MFMA,
	I_WARP, I_SM80, I_SM89, I_SM90, I_SM100, I_GFX, I_CUTE, I_CUTLASS,
	I_CUTE_DSL, I_TRITON, I_GLUON, NINSN
};
static const char *const insn_names[NINSN] = {
	"inline_asm", "mma.sync", "ldmatrix", "cp.async", "wgmma", "tma",
	"setmaxnreg", "mbarrier", "tcgen05", "tmem", "mfma",
	"warp_primitives", "sm_80", "sm_89", "sm_90", "sm_100", "gfx",
	"cute", "cutlass", "cute_dsl", "triton", "gluon"
};

/* Boundary rules around a match: no identifier character (LW: letter or
 * digit) on that side. */
enum { BL = 1, BR = 2, LW = 4, RD = 8 /* right: no digit */ };

struct pat {
	const char *s;	/* lowercase */
	int insn, arch, dtype, flags;
};

static const struct pat pats[] = {
	/* inline assembly: PTX in CUDA, AMDGCN in HIP, Triton's inline asm */
	{ "asm", I_ASM, 0, 0, BL | BR },
	{ "__asm__", I_ASM, 0, 0, BL | BR },
	{ "inline_asm_elementwise", I_ASM, 0, 0, 0 },
	/* Ampere */
	{ "mma.sync", I_MMA_SYNC, A_AMPERE, 0, 0 },
	{ "ldmatrix", I_LDMATRIX, A_AMPERE, 0, 0 },
	{ "cp.async.", I_CP_ASYNC, A_AMPERE, 0, 0 },	/* not .bulk: see match */
	{ "sm80_cp_async", I_CP_ASYNC, A_AMPERE, 0, LW },
	{ "sm_80", I_SM80, A_AMPERE, 0, BL | RD },
	{ "sm80", I_SM80, A_AMPERE, 0, LW | RD },
	{ "sm_86", I_SM80, A_AMPERE, 0, BL | RD },
	{ "compute_80", I_SM80, A_AMPERE, 0, LW | RD },
	{ "sm_89", I_SM89, A_ADA, 0, BL | RD },
	{ "sm89", I_SM89, A_ADA, 0, LW | RD },
	/* Hopper */
	{ "wgmma", I_WGMMA, A_HOPPER, 0, LW },
	{ "gmma::", I_WGMMA, A_HOPPER, 0, LW },
	{ "cp.async.bulk", I_TMA, A_HOPPER, 0, 0 },
	{ "sm90_tma", I_TMA, A_HOPPER, 0, LW },
	{ "make_tma_copy", I_TMA, A_HOPPER, 0, LW },
	{ "make_tensor_descriptor", I_TMA, A_HOPPER, 0, LW },
	{ "tensordescriptor", I_TMA, A_HOPPER, 0, LW },
	{ "async_tma", I_TMA, A_HOPPER, 0, LW },
	{ "setmaxnreg", I_SETMAXNREG, A_HOPPER, 0, 0 },
	{ "mbarrier", I_MBARRIER, 0, 0, LW },
	{ "sm_90", I_SM90, A_HOPPER, 0, BL | RD },
	{ "sm90", I_SM90, A_HOPPER, 0, LW | RD },
	{ "compute_90", I_SM90, A_HOPPER, 0, LW | RD },
	/* Blackwell */
	{ "tcgen05", I_TCGEN05, A_BLACKWELL, 0, LW },
	{ "tmem", I_TMEM, A_BLACKWELL, 0, LW },
	{ "umma", I_TCGEN05, A_BLACKWELL, 0, LW },
	{ "sm_100", I_SM100, A_BLACKWELL, 0, BL | RD },
	{ "sm100", I_SM100, A_BLACKWELL, 0, LW | RD },
	{ "sm_103", I_SM100, A_BLACKWELL, 0, BL | RD },
	{ "sm_120", I_SM100, A_BLACKWELL, 0, BL | RD },
	{ "sm120", I_SM100, A_BLACKWELL, 0, LW | RD },
	{ "compute_100", I_SM100, A_BLACKWELL, 0, LW | RD },
	/* AMD CDNA */
	{ "mfma", I_MFMA, A_CDNA, 0, LW },
	{ "gfx90a", I_GFX, A_CDNA2, 0, LW },
	{ "gfx942", I_GFX, A_CDNA3, 0, LW },
	{ "gfx950", I_GFX, A_CDNA4, 0, LW },
	/* warp-level primitives */
	{ "__shfl_", I_WARP, 0, 0, BL },
	{ "__ballot_sync", I_WARP, 0, 0, BL },
	{ "__any_sync", I_WARP, 0, 0, BL },
	{ "__all_sync", I_WARP, 0, 0, BL },
	{ "__match_any_sync", I_WARP, 0, 0, BL },
	{ "__reduce_add_sync", I_WARP, 0, 0, BL },
	{ "__syncwarp", I_WARP, 0, 0, BL },
	{ "__activemask", I_WARP, 0, 0, BL },
	{ "shfl.sync", I_WARP, 0, 0, 0 },
	{ "__builtin_amdgcn_ds_swizzle", I_WARP, 0, 0, BL },
	{ "__builtin_amdgcn_mov_dpp", I_WARP, 0, 0, BL },
	/* kernel stacks */
	{ "cute::", I_CUTE, 0, 0, LW },
	{ "cute/", I_CUTE, 0, 0, LW },
	{ "cutlass::", I_CUTLASS, 0, 0, LW },
	{ "cutlass/", I_CUTLASS, 0, 0, LW },
	{ "cutlass.cute", I_CUTE_DSL, 0, 0, LW },
	{ "@cute.kernel", I_CUTE_DSL, 0, 0, 0 },
	{ "@cute.jit", I_CUTE_DSL, 0, 0, 0 },
	{ "triton.jit", I_TRITON, 0, 0, LW },
	{ "tl.dot", I_TRITON, 0, 0, LW },
	{ "triton.language", I_TRITON, 0, 0, LW },
	{ "gluon.jit", I_GLUON, 0, 0, LW },
	{ "experimental.gluon", I_GLUON, 0, 0, 0 },
	{ "ttgl.", I_GLUON, 0, 0, LW },
	/* data types */
	{ "fp8", I_NONE, 0, D_FP8, 0 },
	{ "float8", I_NONE, 0, D_FP8, 0 },
	{ "e4m3", I_NONE, 0, D_FP8, 0 },
	{ "e5m2", I_NONE, 0, D_FP8, 0 },
	{ "mxfp8", I_NONE, 0, D_MXFP8 | D_FP8, 0 },
	{ "fp4", I_NONE, 0, D_FP4, 0 },
	{ "e2m1", I_NONE, 0, D_FP4, 0 },
	{ "nvfp4", I_NONE, 0, D_NVFP4 | D_FP4, 0 },
	{ "mxfp4", I_NONE, 0, D_MXFP4 | D_FP4, 0 },
};
#define NPATS (sizeof pats / sizeof pats[0])

struct kh_signals {
	enum lang lang;
	enum state state;
	int in_asm, asm_depth;	/* inside an asm statement, paren depth */
	long long count[NINSN];
	unsigned arch, dtype;
	struct kh_buf code;	/* this line's code, lowercased */
};

/* Patterns by first byte: an index built once. */
#define PER_BYTE 24
static signed char byfirst[256][PER_BYTE];
static int index_built;

static void
build_index(void)
{
	memset(byfirst, -1, sizeof byfirst);
	for (size_t i = 0; i < NPATS; i++) {
		unsigned char c = (unsigned char)pats[i].s[0];
		int k = 0;

		while (k < PER_BYTE - 1 && byfirst[c][k] >= 0)
			k++;
		byfirst[c][k] = (signed char)i;	/* the table stays small */
	}
	index_built = 1;
}

static int
identc(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
	    (c >= 'A' && c <= 'Z');
}

static int
alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	    (c >= 'A' && c <= 'Z');
}

static const char *
ext_of(const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');

	if (dot == NULL || (slash && dot < slash))
		return "";
	return dot + 1;
}

/* Which lexer reads a file; L_NONE for files that are not source code. */
static enum lang
lang_of(const char *path)
{
	static const char *const c_exts[] = {
		"cu", "cuh", "ptx", "hip", "h", "hh", "hpp", "hxx", "inl",
		"ipp", "c", "cc", "cpp", "cxx", "cl", "metal", "mlir", "s",
		"S", "asm", "cuf", NULL
	};
	const char *e;

	if (path == NULL)
		return L_C;
	e = ext_of(path);
	if (strcmp(e, "py") == 0 || strcmp(e, "pyi") == 0)
		return L_PY;
	for (int i = 0; c_exts[i]; i++)
		if (strcmp(e, c_exts[i]) == 0)
			return L_C;
	return L_NONE;
}

int
kh_signals_code_file(const char *path)
{
	return path != NULL && lang_of(path) != L_NONE;
}

struct kh_signals *
kh_signals_new(void)
{
	struct kh_signals *s = kh_calloc(1, sizeof *s);

	if (!index_built)
		build_index();
	s->lang = L_C;
	s->code.max = 0;
	return s;
}

void
kh_signals_file(struct kh_signals *s, const char *path)
{
	s->lang = lang_of(path);
	s->state = S_CODE;
	s->in_asm = 0;
	s->asm_depth = 0;
}

/* Append code bytes, lowercased; notice asm statements and parentheses. */
static void
add_code(struct kh_signals *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)p[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (s->in_asm) {
			if (c == '(')
				s->asm_depth++;
			else if (c == ')' && s->asm_depth > 0 &&
			    --s->asm_depth == 0)
				s->in_asm = 0;
			else if (c == ';')
				s->in_asm = 0, s->asm_depth = 0;
		}
		kh_buf_addc(&s->code, c);
		/* "asm" or "inline_asm..." just completed as a word */
		if (!s->in_asm && c == 'm' && s->code.len >= 3 &&
		    memcmp(s->code.p + s->code.len - 3, "asm", 3) == 0) {
			size_t at = s->code.len - 3;
			int before = at > 0 ? (unsigned char)s->code.p[at - 1] : ' ';
			int after = i + 1 < n ? (unsigned char)p[i + 1] : ' ';

			if ((!alnum(before) || before == '_') &&
			    (!identc(after) || after == '_'))
				s->in_asm = 1, s->asm_depth = 0;
		}
	}
}

static void
match_line(struct kh_signals *s)
{
	const unsigned char *b = (const unsigned char *)s->code.p;
	size_t n = s->code.len;

	for (size_t i = 0; i < n; i++) {
		const signed char *cand = byfirst[b[i]];

		for (int k = 0; k < PER_BYTE && cand[k] >= 0; k++) {
			const struct pat *pt = &pats[cand[k]];
			size_t m = strlen(pt->s);
			int l = i > 0 ? b[i - 1] : ' ';
			int r = i + m < n ? b[i + m] : ' ';

			if (i + m > n || memcmp(b + i, pt->s, m) != 0)
				continue;
			if ((pt->flags & BL) && identc(l))
				continue;
			if ((pt->flags & LW) && alnum(l))
				continue;
			if ((pt->flags & BR) && identc(r))
				continue;
			if ((pt->flags & RD) && r >= '0' && r <= '9')
				continue;
			/* cp.async.bulk is TMA, counted by its own pattern */
			if (pt->insn == I_CP_ASYNC && m == 9 &&
			    n - i >= 13 && memcmp(b + i + 9, "bulk", 4) == 0)
				continue;
			if (pt->insn != I_NONE)
				s->count[pt->insn]++;
			s->arch |= (unsigned)pt->arch;
			s->dtype |= (unsigned)pt->dtype;
		}
	}
}

/*
 * A string literal opened by quote q at p[open]: returns the index after
 * it (n when it runs to the end of the line) and its content length.
 */
static size_t
skip_string(const char *p, size_t open, size_t n, int q, size_t *content)
{
	size_t i = open + 1;

	while (i < n && p[i] != q) {
		if (p[i] == '\\' && i + 1 < n)
			i++;
		i++;
	}
	if (i >= n) {
		*content = n - open - 1;
		return n;
	}
	*content = i - open - 1;
	return i + 1;
}

/* A string is skipped unless it is the text of an asm statement. */
static void
add_string(struct kh_signals *s, const char *p, size_t n)
{
	kh_buf_addc(&s->code, ' ');
	if (s->in_asm) {
		int keep = s->asm_depth;

		add_code(s, p, n);
		s->in_asm = 1, s->asm_depth = keep;	/* ';' in asm text */
	}
	kh_buf_addc(&s->code, ' ');
}

static int
include_line(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (i == n || p[i] != '#')
		return 0;
	for (i++; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	return n - i >= 7 && memcmp(p + i, "include", 7) == 0;
}

static void
lex_c(struct kh_signals *s, const char *p, size_t n)
{
	size_t i = 0, start = 0, len;

	if (s->state == S_CODE && include_line(p, n)) {
		add_code(s, p, n);	/* #include "cute/tensor.hpp" */
		return;
	}
	while (i < n) {
		if (s->state == S_BLOCK) {
			while (i + 1 < n && !(p[i] == '*' && p[i + 1] == '/'))
				i++;
			if (i + 1 >= n)
				return;
			i = start = i + 2;
			s->state = S_CODE;
			kh_buf_addc(&s->code, ' ');
			continue;
		}
		if (p[i] == '/' && i + 1 < n && (p[i + 1] == '/' ||
		    p[i + 1] == '*')) {
			add_code(s, p + start, i - start);
			if (p[i + 1] == '/')
				return;
			s->state = S_BLOCK;
			i += 2;
			continue;
		}
		if (p[i] == '"' || p[i] == '\'') {
			size_t end = skip_string(p, i, n, p[i], &len);

			add_code(s, p + start, i - start);
			if (p[i] == '"')
				add_string(s, p + i + 1, len);
			i = start = end;
			continue;
		}
		i++;
	}
	add_code(s, p + start, n - start);
}

static void
lex_py(struct kh_signals *s, const char *p, size_t n)
{
	size_t i = 0, start = 0, len;

	while (i < n) {
		if (s->state == S_PY3D || s->state == S_PY3S) {
			const char *q = s->state == S_PY3D ? "\"\"\"" : "\'\'\'";
			size_t from = i;

			while (i + 3 <= n && memcmp(p + i, q, 3) != 0)
				i++;
			if (i + 3 > n) {
				add_string(s, p + from, n - from);
				return;
			}
			add_string(s, p + from, i - from);
			i = start = i + 3;
			s->state = S_CODE;
			continue;
		}
		if (p[i] == '#') {
			add_code(s, p + start, i - start);
			return;
		}
		if (p[i] == '"' || p[i] == '\'') {
			add_code(s, p + start, i - start);
			if (i + 2 < n && p[i + 1] == p[i] && p[i + 2] == p[i]) {
				s->state = p[i] == '"' ? S_PY3D : S_PY3S;
				i = start = i + 3;
				continue;
			}
			{
				size_t open = i;

				i = start = skip_string(p, open, n, p[open],
				    &len);
				add_string(s, p + open + 1, len);
			}
			continue;
		}
		i++;
	}
	add_code(s, p + start, n - start);
}

void
kh_signals_line(struct kh_signals *s, const char *line, size_t len)
{
	if (s->lang == L_NONE)
		return;
	kh_buf_reset(&s->code);
	kh_buf_addc(&s->code, ' ');
	if (s->lang == L_PY)
		lex_py(s, line, len);
	else
		lex_c(s, line, len);
	match_line(s);
}

cJSON *
kh_signals_json(const struct kh_signals *s)
{
	cJSON *j, *ins, *arch, *dt;
	int any = 0;

	for (int i = 0; i < NINSN; i++)
		any |= s->count[i] > 0;
	if (!any && !s->arch && !s->dtype)
		return NULL;
	j = cJSON_CreateObject();
	ins = cJSON_AddObjectToObject(j, "instructions");
	for (int i = 0; i < NINSN; i++)
		if (s->count[i] > 0)
			kh_add_int(ins, insn_names[i], s->count[i]);
	arch = cJSON_AddArrayToObject(j, "arch");
	for (size_t i = 0; i < sizeof arch_names / sizeof arch_names[0]; i++)
		if (s->arch & (1u << i))
			cJSON_AddItemToArray(arch,
			    cJSON_CreateString(arch_names[i]));
	dt = cJSON_AddArrayToObject(j, "dtypes");
	for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
		if (s->dtype & (1u << i))
			cJSON_AddItemToArray(dt,
			    cJSON_CreateString(dtype_names[i]));
	return j;
}

void
kh_signals_free(struct kh_signals *s)
{
	if (s == NULL)
		return;
	kh_buf_free(&s->code);
	free(s);
}
