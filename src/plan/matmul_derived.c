/* What a matmul program derives from its variant flags, written once:
 * the preamble defines each derived choice (gt__matmul_derived_defines),
 * the kernels only test the defines, and the planner asks the same
 * functions which vec4 bits a program may carry and where 16-bit storage
 * changes it. Why each choice is made is said where the kernel uses it
 * (matmul_common.glsl, matmul_blocked.comp, matmul_blocked_shared.comp). */
#include "plan/matmul_derived.h"

#include <stdio.h>
#include <string.h>

static bool has(uint32_t variant, uint32_t flag) { return (variant & flag) != 0; }

uint32_t gt__vec4_along_k(uint32_t variant) {
  return (has(variant, GT_VARIANT_TRANS_A) ? 0u : GT_VARIANT_VEC4_A) |
         (has(variant, GT_VARIANT_TRANS_B) ? GT_VARIANT_VEC4_B : 0u);
}

bool gt__shared_words_along_k(uint32_t variant) {
  return has(variant, GT_VARIANT_HALF) &&
         (has(variant, GT_VARIANT_TRANS_B) || (has(variant, GT_VARIANT_HALF_C) && !has(variant, GT_VARIANT_TRANS_A)));
}

/* The shared kernel moves quads along K as vec4s only as words of 2 k:
 * where its layout takes words, both operands' rows on 8 bytes, or under
 * GT_VARIANT_WORDS_UNALIGNED those along K on 8 bytes and the one across
 * K not (one operand's bit alone would change nothing but the name). */
bool gt__shared_along_k_fits(uint32_t variant) {
  uint32_t both = GT_VARIANT_VEC4_A | GT_VARIANT_VEC4_B, along = gt__vec4_along_k(variant);
  if (has(variant, GT_VARIANT_WORDS_UNALIGNED))
    return gt__shared_words_along_k(variant) && (variant & along) == along && (variant & both) != both;
  return (variant & along) == 0 || (gt__shared_words_along_k(variant) && (variant & both) == both);
}

/* The choices every matmul kernel's shared part (matmul_common.glsl)
 * makes. */
static uint32_t common_choices(gt_kernel kernel, uint32_t v) {
  bool ta = has(v, GT_VARIANT_TRANS_A), tb = has(v, GT_VARIANT_TRANS_B), half = has(v, GT_VARIANT_HALF);
  bool va = has(v, GT_VARIANT_VEC4_A), vb = has(v, GT_VARIANT_VEC4_B), vc = has(v, GT_VARIANT_VEC4_C);
  bool half_c = has(v, GT_VARIANT_HALF_C), storage = has(v, GT_VARIANT_HALF_STORAGE);
  bool bands = kernel == GT_KERNEL_MATMUL_BANDS;
  uint32_t d = 0;
  if (has(v, GT_VARIANT_HALF_SUMS) && !has(v, GT_VARIANT_HALF_ROUNDED)) d |= GT_DERIVED_MEDIUMP;
  if (half && va && ta) d |= GT_DERIVED_A_PAIRS;
  if (half && vb && !tb) d |= GT_DERIVED_B_PAIRS;
  if (vc && half_c) d |= GT_DERIVED_C_PAIRS;
  bool c_halves = storage && half_c && !vc;
  bool halves_along_k = c_halves && !ta && tb && !va;
  if (c_halves) d |= GT_DERIVED_C_HALVES;
  if (halves_along_k) d |= GT_DERIVED_HALVES_ALONG_K;
  if (storage && (bands || halves_along_k || (!va && ta))) d |= GT_DERIVED_A_HALVES;
  if (storage && (bands || halves_along_k || (!vb && (!tb || ta)))) d |= GT_DERIVED_B_HALVES;
  return d;
}

/* The registers kernel's: false where one k a step would move a quad
 * along K. */
static bool registers_choices(uint32_t v, uint32_t *d) {
  bool k_whole = (has(v, GT_VARIANT_VEC4_A) && !has(v, GT_VARIANT_TRANS_A)) ||
                 (has(v, GT_VARIANT_VEC4_B) && has(v, GT_VARIANT_TRANS_B));
  bool k1 = has(v, GT_VARIANT_K1);
  if (k1 && k_whole) return false;
  if (k_whole) *d |= GT_DERIVED_K_WHOLE;
  if (k1 && has(v, GT_VARIANT_TRANS_B) && has(v, GT_VARIANT_QUANT)) *d |= GT_DERIVED_SUM_COLUMNS;
  if (has(v, GT_VARIANT_INTERIOR) && has(v, GT_VARIANT_HALF) && !has(v, GT_VARIANT_EPILOGUE))
    *d |= GT_DERIVED_STORE_FROM_INDEX;
  return true;
}

/* The shared kernel's quads across K that come as 4 loads 32 apart:
 * floats, or halves read one at a time, that no vec4 or uvec2 loads. */
static bool strided_a(uint32_t v, uint32_t common) {
  return has(v, GT_VARIANT_TRANS_A) && !has(v, GT_VARIANT_VEC4_A) &&
         (!has(v, GT_VARIANT_HALF) || (common & GT_DERIVED_A_HALVES));
}
static bool strided_b(uint32_t v, uint32_t common) {
  return !has(v, GT_VARIANT_TRANS_B) && !has(v, GT_VARIANT_VEC4_B) &&
         (!has(v, GT_VARIANT_HALF) || (common & GT_DERIVED_B_HALVES));
}

/* The shared kernel's, beside the common ones in *d. */
static bool shared_choices(uint32_t v, uint32_t *d) {
  bool ta = has(v, GT_VARIANT_TRANS_A), tb = has(v, GT_VARIANT_TRANS_B), half = has(v, GT_VARIANT_HALF);
  bool va = has(v, GT_VARIANT_VEC4_A), vb = has(v, GT_VARIANT_VEC4_B), vc = has(v, GT_VARIANT_VEC4_C);
  bool half_c = has(v, GT_VARIANT_HALF_C), unaligned = has(v, GT_VARIANT_WORDS_UNALIGNED);
  bool words = gt__shared_words_along_k(v) && ((va && vb) || unaligned);
  bool swizzle = (!ta && !tb && !half) || (!ta && tb && half && !words);
  bool across_a = strided_a(v, *d), across_b = strided_b(v, *d);
  /* A uvec2 pack is for a half c's quads; results 32 columns apart are no
   * quads. */
  if (!gt__shared_along_k_fits(v) || (has(v, GT_VARIANT_PACK_HALF_IEEE) && !(half_c && vc)) || (across_b && vc))
    return false;
  if (words) *d |= GT_DERIVED_WORD_STEPS;
  if (swizzle) *d |= GT_DERIVED_SWIZZLE_A;
  if (!(ta || swizzle || words)) *d |= GT_DERIVED_PAD_A_SLICE;
  if (tb && !words) *d |= GT_DERIVED_PAD_B_SLICE;
  if (across_a) *d |= GT_DERIVED_STRIDED_A;
  if (across_b) *d |= GT_DERIVED_STRIDED_B;
  if (!(half && ta && !tb && va && vb)) *d |= GT_DERIVED_FENCE_SLICES;
  if ((!tb && (!vb || (ta && !va))) || (half_c && !vc && !ta && tb && !words)) *d |= GT_DERIVED_TWO_LOOPS;
  return true;
}

/* The stream kernel's: it reads every quad it moves whole as one load, a
 * half's as a uvec2 (along K or across); a's along K, beside b^T's only
 * where those are single loads too (else K may end in single k), beside
 * b untransposed only for one row: 8 rows' sums and 4 quads of b a step
 * spilled on the Mali-T860 (compiler statistics, docs/notes/2026-12-stream.md).
 * No 8-bit operands, half sums, vec4 c or 16-bit storage: no plan names
 * them. */
static bool stream_choices(uint32_t tile, uint32_t v, uint32_t *d) {
  bool ta = has(v, GT_VARIANT_TRANS_A), tb = has(v, GT_VARIANT_TRANS_B), half = has(v, GT_VARIANT_HALF);
  bool va = has(v, GT_VARIANT_VEC4_A), vb = has(v, GT_VARIANT_VEC4_B);
  uint32_t outside = GT_VARIANT_VEC4_C | GT_VARIANT_HALF_SUMS | GT_VARIANT_QUANT | GT_VARIANT_HALF_STORAGE | GT_VARIANT_HALF_TEXELS |
                     GT_VARIANT_K1 | GT_VARIANT_INTERIOR | GT_VARIANT_WORDS_UNALIGNED | GT_VARIANT_PACK_HALF_IEEE;
  if ((v & outside) || (va && (ta || (tb && !vb) || (!tb && tile > 1)))) return false;
  *d &= ~(GT_DERIVED_A_PAIRS | GT_DERIVED_B_PAIRS);
  if (half && va) *d |= GT_DERIVED_A_PAIRS;
  if (half && vb) *d |= GT_DERIVED_B_PAIRS;
  return true;
}

/* The one list of the matmul kernels: whether key names one, and its
 * derived choices; a variant whose choices contradict is refused. */
typedef enum { DERIVED_NOT_MATMUL, DERIVED_MATMUL, DERIVED_REFUSED } derived_kind;

static derived_kind derive(const gt_program_key *key, uint32_t *out) {
  *out = 0;
  bool ok = true;
  switch (key->kernel) {
  case GT_KERNEL_MATMUL_SIMPLE:
  case GT_KERNEL_MATMUL_TILED:
  case GT_KERNEL_MATMUL_TEXELS:
  case GT_KERNEL_MATMUL_BANDS: *out = common_choices(key->kernel, key->variant); break;
  case GT_KERNEL_MATMUL_BLOCKED:
    *out = common_choices(key->kernel, key->variant);
    ok = registers_choices(key->variant, out);
    break;
  case GT_KERNEL_MATMUL_BLOCKED_SHARED:
    *out = common_choices(key->kernel, key->variant);
    ok = shared_choices(key->variant, out);
    break;
  case GT_KERNEL_MATMUL_STREAM:
    *out = common_choices(key->kernel, key->variant);
    ok = stream_choices(key->tile, key->variant, out);
    break;
  default: return DERIVED_NOT_MATMUL;
  }
  return ok ? DERIVED_MATMUL : DERIVED_REFUSED;
}

bool gt__matmul_derived(const gt_program_key *key, uint32_t *out) {
  return derive(key, out) != DERIVED_REFUSED;
}

bool gt__shared_vec4_c(uint32_t variant) {
  return !strided_b(variant, common_choices(GT_KERNEL_MATMUL_BLOCKED_SHARED, variant));
}

bool gt__shared_half_storage(uint32_t variant) {
  uint32_t half_c = GT_VARIANT_HALF_C, a_t = GT_VARIANT_TRANS_A, b_t = GT_VARIANT_TRANS_B;
  if (!has(variant, GT_VARIANT_HALF) || has(variant, GT_VARIANT_WORDS_UNALIGNED)) return false;
  if ((variant & (half_c | a_t | b_t)) == (half_c | a_t)) return false; /* a^T b into a half c: slower so */
  uint32_t halves = GT_DERIVED_A_HALVES | GT_DERIVED_B_HALVES | GT_DERIVED_C_HALVES;
  return (common_choices(GT_KERNEL_MATMUL_BLOCKED_SHARED, variant | GT_VARIANT_HALF_STORAGE) & halves) != 0;
}

bool gt__bands_half_storage(uint32_t variant) { return has(variant, GT_VARIANT_HALF); }

/* The storage block of operand x ('a' or 'b') as #define GT_X_BLOCK, one
 * rule for both: its halves' quads as uvec2 pairs, its halves one at a
 * time, half and 8-bit elements in words, vec4s, or floats. The
 * registers kernel's interior reads its floats with neither readonly nor
 * restrict (matmul_common.glsl says why). */
static size_t operand_block(char *buf, size_t size, char x, uint32_t v, bool pairs, bool halves, bool vec4) {
  char big = x == 'a' ? 'A' : 'B';
  const char *access = "readonly GT_RESTRICT ", *suffix = "", *type = "float", *array = "_data";
  if (pairs) suffix = "2", type = "uvec2", array = "_pairs";
  else if (halves) suffix = "1", type = "float16_t", array = "_halves";
  else if (has(v, GT_VARIANT_HALF) || has(v, GT_VARIANT_QUANT)) type = "uint", array = "_words";
  else if (vec4) suffix = "4", type = "vec4", array = "4";
  else if (has(v, GT_VARIANT_INTERIOR)) access = "";
  int n = snprintf(buf, size, "#define GT_%c_BLOCK %sbuffer %c%s { %s %c%s[]; }\n", big, access, big, suffix, type, x,
                   array);
  return n < 0 ? size : (size_t)n;
}

size_t gt__matmul_derived_defines(const gt_program_key *key, char *buf, size_t size, bool *ok) {
  uint32_t d;
  derived_kind kind = derive(key, &d);
  *ok = kind != DERIVED_REFUSED;
  if (size) buf[0] = '\0';
  if (!*ok) return 0;
  size_t used = 0;
#define GT__DEFINE_DERIVED(name, bit)                                                                        \
  if ((d & GT_DERIVED_##name) && used < size)                                                                \
    used += (size_t)snprintf(buf + used, size - used, "#define GT_" #name " 1\n");
  GT_EACH_MATMUL_DERIVED(GT__DEFINE_DERIVED)
  uint32_t v = key->variant;
  if (kind == DERIVED_MATMUL && used < size)
    used += operand_block(buf + used, size - used, 'a', v, d & GT_DERIVED_A_PAIRS, d & GT_DERIVED_A_HALVES,
                          has(v, GT_VARIANT_VEC4_A));
  if (kind == DERIVED_MATMUL && used < size)
    used += operand_block(buf + used, size - used, 'b', v, d & GT_DERIVED_B_PAIRS, d & GT_DERIVED_B_HALVES,
                          has(v, GT_VARIANT_VEC4_B));
  if (used >= size) {
    *ok = false;
    return 0;
  }
  return used;
}
