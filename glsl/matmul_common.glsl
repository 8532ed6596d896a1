/* Shared by the matmul kernels (source string 3): the operands, the
 * scaling, K-range and epilogue uniforms, op(a) / op(b) addressing and
 * the stores of c. The texels kernel (GT_KERNEL_MATMUL_TEXELS) reads a
 * and b as texels of its own and takes only c's part.
 *
 * Slots: 0 = a, 1 = b, 2 = c, each as the caller's view (a is K x M when
 * GT_TRANS_A, b is N x K when GT_TRANS_B), 3 = the bias. */
/* GT_VEC4_A, _B, _C (the shared kernel): that operand is read or written
 * as vec4s; its rows start 16-byte aligned and no vec4 straddles an edge
 * of the view or of the K slice (the host checks). With GT_HALF, a's or
 * b's quads across K are read as uvec2s (a_pairs, b_pairs): 4 halves, rows
 * starting 8-byte aligned; along K (b transposed) as words of 2 k. */
/* GT_HALF (SIMPLE, tiled, registers and shared kernels): a and b hold IEEE
 * half-precision elements, two to a 32-bit word, the first in the low
 * half; a_elem / b_elem widen them with unpackHalf2x16 and the sums run in
 * float. GT_HALF_C: c too; each result is rounded to half (overflow to
 * infinity, as IEEE rounding gives) and written into its half of the word
 * with atomics where the word's other half is another invocation's. */
/* GT_QUANT (SIMPLE and registers kernels): a and b hold 8-bit integers, four
 * to a word, the first in the lowest byte (GT_SIGNED: GT_I8, else GT_U8);
 * a_elem / b_elem give each minus its zero point, and the sums run in int
 * (GT_SUM): exact, since the host keeps K where no sum can overflow. c is
 * GT_I32, or with GT_QUANT_C 8-bit of the operands' signedness, written
 * requantised into its byte of the word with atomics. */
/* GT_HALF_SUMS (with GT_HALF; SIMPLE and registers kernels): every
 * float below is mediump, so a compiler with half arithmetic runs the
 * products, sums, scaling and epilogue in it (gt_precision).
 * GT_HALF_ROUNDED instead, where half is not faster: floats stay highp
 * and each sum is rounded to half explicitly (GT_ADD_PRODUCT), so every
 * such device computes the same bits, whether its mediump is f32 or half
 * (llvmpipe's is, rounding products apart from sums). GT_HALF_SCALED
 * (with it) rounds by scaling rather than on the bits (gt_half_rounded). */
#ifdef GT_MEDIUMP
precision mediump float;
#endif
#ifdef GT_QUANT
#define GT_SUM int
#define GT_SUM4 ivec4
#else
#define GT_SUM float
#define GT_SUM4 vec4
#endif
/* The preamble says what each program derives from its flags
 * (src/plan/matmul_derived.c): GT_MEDIUMP above; GT_A_PAIRS, GT_B_PAIRS: that
 * operand's halves are read as uvec2s, their quads across K (GT_VEC4_x
 * along K gives whole words: the shared kernel's GT_WORD_STEPS); GT_C_PAIRS:
 * a half c's quads written as uvec2s. */
/* GT_HALF_STORAGE (the shared and bands kernels where the context has
 * GL_NV_gpu_shader5, whose 16-bit types the preamble enables in storage
 * blocks): a half c not written as uvec2s is written one half at a time,
 * with no atomics (GT_C_HALVES); in the shared kernel an operand across K
 * not read as uvec2s is read one half at a time (GT_x_HALVES), so is b
 * along K where a is transposed, and so are a and b along K into such a
 * c (GT_HALVES_ALONG_K: a b^T where they are not words, 8 k a step); in
 * the bands kernel a and b are. Where a row starts inside a word, a half
 * otherwise comes from the words holding it (the host's
 * gt__shared_half_storage and gt__bands_half_storage say where 16-bit
 * storage is taken). */
#ifdef GT_HALF_TEXELS
/* The registers kernel's half a and b through texture buffers on units 0
 * and 1, one half a texel (R16F), widened by the texture unit: on the
 * Adreno 660 the compiler widens a half from a word in integer operations
 * and a register more (docs/notes/2026-11-mobile-compilers.md, "Halves
 * as texels on Adreno"). The host binds each operand's range in that
 * format. */
layout(binding = 0) uniform highp samplerBuffer a_texels;
layout(binding = 1) uniform highp samplerBuffer b_texels;
#elif !defined(GT_KERNEL_MATMUL_TEXELS)
/* a's and b's storage blocks, by one rule for both (the preamble's
 * GT_A_BLOCK and GT_B_BLOCK, matmul_derived.c): a_pairs / b_pairs
 * (uvec2) where GT_x_PAIRS, a_halves / b_halves (float16_t) where
 * GT_x_HALVES, a_words / b_words (uint) for half and 8-bit operands, a4 /
 * b4 (vec4) where GT_VEC4_x, else a_data / b_data (float). The registers
 * kernel's interior declares its floats with neither readonly nor
 * restrict: with them the Adreno 630's compiler (Mesa 25.0.7) reads them
 * through the texture unit, one element a fetch (compiler statistics:
 * docs/notes/2026-12-mobile-k-steps.md). */
layout(std430, binding = 0) GT_A_BLOCK;
layout(std430, binding = 1) GT_B_BLOCK;
#endif
#ifdef GT_C_PAIRS
/* A half c's quads whole on 8 bytes (the shared kernel; the host checks). */
layout(std430, binding = 2) GT_RESTRICT buffer C2 { uvec2 c_pairs[]; };
#elif defined(GT_VEC4_C)
layout(std430, binding = 2) GT_RESTRICT buffer C { vec4 c4[]; };
#elif defined(GT_C_HALVES)
layout(std430, binding = 2) GT_RESTRICT buffer C1 { uint16_t c_halves[]; };
#elif defined(GT_HALF_C) || defined(GT_QUANT_C)
layout(std430, binding = 2) GT_RESTRICT buffer C { uint c_words[]; };
#elif defined(GT_QUANT)
layout(std430, binding = 2) GT_RESTRICT buffer C { int c_data[]; };
#else
layout(std430, binding = 2) GT_RESTRICT buffer C { float c_data[]; };
#endif

/* The least float that rounds to a half's infinity: the largest half,
 * 65504, plus half its last place (32), a tie that rounds to even, up. */
#define GT_HALF_OVERFLOW 65520.0

/* Half i of a run of words, widened. */
#define GT_HALF_AT(words, i) (((i) & 1u) != 0u ? unpackHalf2x16(words[(i) >> 1u]).y : unpackHalf2x16(words[(i) >> 1u]).x)

#ifdef GT_HALF_C
/* The half nearest v, its bits: packHalf2x16 where v is in range; past the
 * largest half (65504, rounding up from 65520) infinity of v's sign, as
 * IEEE rounding gives, which the GLSL ES conversion leaves undefined. */
uint half_bits(highp float v) {
  if (isnan(v)) return 0x7E00u;
  if (abs(v) >= GT_HALF_OVERFLOW) return v < 0.0 ? 0xFC00u : 0x7C00u;
  return packHalf2x16(vec2(v, 0.0)) & 0xFFFFu;
}

/* Whether each of v converts to a half as it is: below 65520 (where
 * rounding reaches infinity) and not NaN, so that packHalf2x16 alone is
 * exact. */
bool ordinary_halves(vec4 v) { return all(lessThan(abs(v), vec4(GT_HALF_OVERFLOW))) && !any(isnan(v)); }

/* Two results in one word, the first in the low half, as half_bits gives
 * each: one packHalf2x16 where both are ordinary halves (the common case,
 * one conversion for the pair), else each through half_bits. */
uint half_pair(vec2 v) {
  if (ordinary_halves(v.xyxy)) return packHalf2x16(v);
  return half_bits(v.x) | (half_bits(v.y) << 16u);
}

/* half_pair with no branch: one packHalf2x16, its halves then replaced by
 * selects where a result is NaN or past 65520. The NVIDIA compiler makes
 * the two forms differently, and each is faster in one place: this one
 * where a quad's 4 halves are stored as a uvec2, half_pair where a quad's
 * words are stored one by one beside the atomics for the quads not on a
 * word (docs/notes/2026-12-nvidia-matmul-f16.md, "Half c stores and 16 k
 * a step for a b into a half c"). The uvec2 stores now take it only
 * where one of the 4 is not an ordinary half. */
uint half_pair_selected(vec2 v) {
  uint p = packHalf2x16(v);
  uvec2 h = uvec2(p & 0xFFFFu, p >> 16u);
  uvec2 inf = mix(uvec2(0x7C00u), uvec2(0xFC00u), lessThan(v, vec2(0.0)));
  h = mix(h, inf, greaterThanEqual(abs(v), vec2(GT_HALF_OVERFLOW)));
  h = mix(h, uvec2(0x7E00u), isnan(v));
  return h.x | (h.y << 16u);
}
#endif

/* sum += x * y, the step of every kernel's sums; under GT_HALF_ROUNDED
 * rounded to half after it (the product of two halves is exact in f32,
 * so fused or not the step gives the same f32, then the same half). */
#ifdef GT_HALF_ROUNDED
#ifdef GT_HALF_SCALED
/* v rounded to the nearest half, ties to even, by scaling (GT_HALF_SCALED,
 * where the device table says so): v times a power of two that makes
 * the half's last significant bit the units, 2^(10 - e) for |v| in
 * [2^e, 2^(e+1)) and 2^24 below 2^-14 (the half denormals, whole numbers
 * of 2^-24), roundEven there, and the inverse power back. Each step is
 * exact: the scaled value keeps v's 24 significant bits, and both powers
 * are built from v's exponent bits (the scale's biased exponent 264 - e,
 * at most 151; the inverse's 254 minus the scale's). What rounds past
 * 65504 (from 65520 on) is v times infinity: infinite with v's sign; an
 * infinity stays infinite and a NaN NaN, whichever way the compare is
 * compiled. It holds 3 constants where the integer rounding below holds
 * 8 through the K loop: the Mali-G52's and G57's rounded programs run 2
 * threads, not 1. llvmpipe in a 32-bit ARM process computes roundEven
 * and floor wrongly, and V3D's compiler ran these programs at 2 threads,
 * not 4: their entries keep the integer rounding. */
highp float gt_half_rounded(highp float v) {
  uint scale = 0x84000000u - max(floatBitsToUint(v) & 0x7F800000u, 0x38800000u);
  highp float rounded = roundEven(v * uintBitsToFloat(scale)) * uintBitsToFloat(0x7F000000u - scale);
  return abs(v) < GT_HALF_OVERFLOW ? rounded : v * uintBitsToFloat(0x7F800000u);
}
#else
/* v rounded to the nearest half, ties to even, in integer operations on
 * its bits rather than packHalf2x16, whose rounding GLSL ES leaves to
 * the device (and which llvmpipe gets wrong in a 32-bit ARM process),
 * and without isnan or isinf, which a compiler may assume false. On |v|'s
 * bits a:
 * - from 2^-14 on, the 13 bits below a half's 11 significant bits go,
 *   ties to even; a carry may move the exponent up, still exact. a is
 *   first capped below the largest NaN, so no carry reaches the sign.
 *   Infinities stay infinite, what rounds past 65504 (from 65520 on)
 *   becomes infinite, and NaNs stay NaNs: every NaN a sum can hold has
 *   a payload bit above the 13 (a half's widened, or a default NaN with
 *   its quiet bit);
 * - below 2^-14 (half denormals) to a whole number n of 2^-24: the
 *   24-bit significand shifted right by 126 - exponent (14 or more),
 *   ties to even; n <= 1024, so n 2^-24 is exact. The one branch left is
 *   this rare one: the Mesa compilers flatten it, NVIDIA's skips it,
 *   faster than with the checks branching first
 *   (docs/notes/2026-11-matmul-8bit-and-half-sums.md, "Half sums rounded
 *   in integer operations"). */
highp float gt_half_rounded(highp float v) {
  uint bits = floatBitsToUint(v), sign = bits & 0x80000000u, a = bits ^ sign;
  uint rounded = min(a, 0x7FFFE000u);
  rounded = (rounded + 0xFFFu + ((rounded >> 13u) & 1u)) & ~0x1FFFu;
  /* from 65536 to infinity, unsigned wrapping makes it one compare */
  if (rounded - 0x47800000u <= 0x7F800000u - 0x47800000u) rounded = 0x7F800000u;
  if (a < 0x38800000u) {
    uint shift = min(126u - (a >> 23u), 31u), significand = (a & 0x7FFFFFu) | 0x800000u;
    uint n = (significand + (1u << (shift - 1u)) - 1u + ((significand >> shift) & 1u)) >> shift;
    rounded = floatBitsToUint(float(n) * 5.9604644775390625e-8);
  }
  return uintBitsToFloat(rounded | sign);
}
#endif
highp vec4 gt_half_rounded(highp vec4 v) {
  return vec4(gt_half_rounded(v.x), gt_half_rounded(v.y), gt_half_rounded(v.z), gt_half_rounded(v.w));
}
#define GT_ADD_PRODUCT(sum, x, y) sum = gt_half_rounded(sum + (x) * (y))
#else
#define GT_ADD_PRODUCT(sum, x, y) sum += (x) * (y)
#endif
#ifdef GT_QUANT
/* The zero points of a and b. */
uniform ivec2 gt_zero_points;

/* Byte i of a run of words, sign-extended for GT_I8. */
#ifdef GT_SIGNED
#define GT_BYTE_AT(words, i) bitfieldExtract(int(words[(i) >> 2u]), int(((i) & 3u) * 8u), 8)
#else
#define GT_BYTE_AT(words, i) int(bitfieldExtract(words[(i) >> 2u], int(((i) & 3u) * 8u), 8))
#endif
int a_elem(uint i) { return GT_BYTE_AT(a_words, i) - gt_zero_points.x; }
int b_elem(uint i) { return GT_BYTE_AT(b_words, i) - gt_zero_points.y; }

/* The 4 bytes of word w, sign-extended for GT_I8. */
#ifdef GT_SIGNED
#define GT_BYTES4(w) ((ivec4(int(w)) << ivec4(24, 16, 8, 0)) >> 24)
#else
#define GT_BYTES4(w) ivec4((uvec4(w) >> uvec4(0u, 8u, 16u, 24u)) & 0xFFu)
#endif
/* The quad of elements i..i + 3, i a multiple of 4: one word (GT_VEC4_A,
 * _B say the operand's quads are whole words). */
ivec4 a_quad(uint i) { return GT_BYTES4(a_words[i >> 2u]) - gt_zero_points.x; }
ivec4 b_quad(uint i) { return GT_BYTES4(b_words[i >> 2u]) - gt_zero_points.y; }
/* The 4 consecutive bytes from element i on as one word, where the run
 * may end early at element `last` (>= i, the last one inside the view):
 * the word holding i shifted down, the rest from the word holding `last`
 * (the same word where the 4 do not cross one; the double shift makes a
 * shift by 32 give 0). Bytes past `last` are whatever the word holds.
 * Two loads and fixed byte positions, not 4 loads each with its own
 * shift, which cost the Mali-G57 a thread. */
#define GT_RUN4(words, i, last) \
  ((words[(i) >> 2u] >> (((i) & 3u) * 8u)) | ((words[(last) >> 2u] << 1u) << (31u - ((i) & 3u) * 8u)))
#elif defined(GT_KERNEL_MATMUL_TEXELS)
#elif defined(GT_HALF_TEXELS)
float a_elem(uint i) { return texelFetch(a_texels, int(i)).x; }
float b_elem(uint i) { return texelFetch(b_texels, int(i)).x; }
#elif defined(GT_HALF)
#ifdef GT_A_PAIRS
float a_elem(uint i) { return unpackHalf2x16(a_pairs[i >> 2u][(i >> 1u) & 1u])[i & 1u]; }
/* The quad of halves i..i + 3, i a multiple of 4: one uvec2. */
vec4 a_quad(uint i) {
  uvec2 words = a_pairs[i >> 2u];
  return vec4(unpackHalf2x16(words.x), unpackHalf2x16(words.y));
}
#elif defined(GT_A_HALVES)
float a_elem(uint i) { return float(a_halves[i]); }
#else
float a_elem(uint i) { return GT_HALF_AT(a_words, i); }
#endif
#ifdef GT_B_PAIRS
float b_elem(uint i) { return unpackHalf2x16(b_pairs[i >> 2u][(i >> 1u) & 1u])[i & 1u]; }
/* The quad of halves i..i + 3, i a multiple of 4: one uvec2. */
vec4 b_quad(uint i) {
  uvec2 words = b_pairs[i >> 2u];
  return vec4(unpackHalf2x16(words.x), unpackHalf2x16(words.y));
}
#elif defined(GT_B_HALVES)
float b_elem(uint i) { return float(b_halves[i]); }
#else
float b_elem(uint i) { return GT_HALF_AT(b_words, i); }
#endif
/* The 4 consecutive halves from element i on, where the run may end
 * early at element `last` (>= i, the last one inside the view), as
 * GT_RUN4 takes bytes: from the words holding i, i + 2 (or `last`, if
 * sooner) and `last`, shifted by a half where i is odd. Halves past
 * `last` are whatever the words hold. */
vec4 gt_halves_of(uint first, uint middle, uint end, uint odd) {
  uint shift = odd * 16u;
  return vec4(unpackHalf2x16((first >> shift) | ((middle << 1u) << (31u - shift))),
              unpackHalf2x16((middle >> shift) | ((end << 1u) << (31u - shift))));
}
#define GT_HALF_RUN4(words, i, last) \
  gt_halves_of(words[(i) >> 1u], words[min((i) + 2u, last) >> 1u], words[(last) >> 1u], (i) & 1u)
/* a_one / b_one (the shared and bands kernels; the registers kernel has
 * its own): element i from one load, the half picked after. a_elem picks
 * between two loads, which ran both kernels' halves slower
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "Every layout through one
 * inner loop" and "Thin bands beside the shared kernel's blocks"). The
 * registers kernel keeps a_elem: this form cost the Mali-G57's
 * half-precision programs half their threads there. */
#ifndef GT_KERNEL_MATMUL_BLOCKED
#ifdef GT_A_HALVES
#define a_one a_elem
#elif !defined(GT_A_PAIRS)
float a_one(uint i) { return unpackHalf2x16(a_words[i >> 1u])[i & 1u]; }
#endif
#ifdef GT_B_HALVES
#define b_one b_elem
#elif !defined(GT_B_PAIRS)
float b_one(uint i) { return unpackHalf2x16(b_words[i >> 1u])[i & 1u]; }
#endif
#endif
#else
#ifdef GT_VEC4_A
vec4 a_quad(uint i) { return a4[i >> 2u]; }
#else
float a_elem(uint i) { return a_data[i]; }
#endif
#ifdef GT_VEC4_B
vec4 b_quad(uint i) { return b4[i >> 2u]; }
#else
float b_elem(uint i) { return b_data[i]; }
#endif
/* As a_one / b_one above (the registers kernel has its own). */
#ifndef GT_KERNEL_MATMUL_BLOCKED
#define a_one a_elem
#define b_one b_elem
#endif
#endif

/* (alpha, beta): c = alpha * sum + beta * c, and c is not read when beta
 * is 0 (it may hold anything, NaN included). */
uniform vec2 gt_scale;

/* The slice [x, y) of K this dispatch sums: long K runs as several
 * dispatches so no invocation loops past Mesa's 65,535-iteration cap. */
uniform uvec2 gt_k_range;

uint gt_rows_m() { return gt_views[2].x; }
uint gt_cols_n() { return gt_views[2].y; }

/* Element index of op(a)[m][k] and op(b)[k][n], and the element itself,
 * zero outside op(a)'s rows, op(b)'s columns or the K slice (padded
 * tiles). */
#ifndef GT_KERNEL_MATMUL_TEXELS
/* The element index of op(x)[row][col] = at in view x, which holds x
 * itself: op(x)'s transpose where `transposed`, a constant at each call,
 * so the compiler keeps one of the two orders. */
uint op_index(uint view, bool transposed, uvec2 at) { return gt_index(view, transposed ? at.yx : at); }
#ifdef GT_TRANS_A
#define GT_A_TRANSPOSED true
#else
#define GT_A_TRANSPOSED false
#endif
#ifdef GT_TRANS_B
#define GT_B_TRANSPOSED true
#else
#define GT_B_TRANSPOSED false
#endif
#if !defined(GT_VEC4_A) || defined(GT_QUANT)
uint a_index(uint m, uint k) { return op_index(0u, GT_A_TRANSPOSED, uvec2(m, k)); }
GT_SUM a_guarded(uint m, uint k) {
  return (m < gt_rows_m() && k < gt_k_range.y) ? a_elem(a_index(m, k)) : GT_SUM(0);
}
#endif
#if !defined(GT_VEC4_B) || defined(GT_QUANT)
uint b_index(uint k, uint n) { return op_index(1u, GT_B_TRANSPOSED, uvec2(k, n)); }
GT_SUM b_guarded(uint k, uint n) {
  return (k < gt_k_range.y && n < gt_cols_n()) ? b_elem(b_index(k, n)) : GT_SUM(0);
}
#endif
#endif

#if defined(GT_EPILOGUE) && defined(GT_QUANT)
/* The epilogue of an 8-bit product, in integers: gt_epilogue as below;
 * the bias is GT_I32, added to the sum (wrapping, as 32-bit integers do)
 * before any requantisation; the activation clamps c's value, the stored
 * integer, to gt_clamp_int (RELU: from 0, or from zero_c in an 8-bit c). */
uniform uvec2 gt_epilogue;
uniform ivec2 gt_clamp_int;
layout(std430, binding = 3) readonly GT_RESTRICT buffer Bias { int bias_data[]; };

int gt_add_bias(uint m, uint n, int v) {
  uvec4 view = gt_views[3];
  if (gt_epilogue.x == 1u) v += bias_data[view.z + m * view.w];
  else if (gt_epilogue.x == 2u) v += bias_data[view.z + n];
  return v;
}
int gt_activate_int(int v) { return gt_epilogue.y == 0u ? v : clamp(v, gt_clamp_int.x, gt_clamp_int.y); }
#elif defined(GT_QUANT)
#define gt_add_bias(m, n, v) (v)
#define gt_activate_int(v) (v)
#endif

#if defined(GT_EPILOGUE) && !defined(GT_QUANT)
/* The epilogue (gt_matmul_desc's bias and act), which only the dispatch
 * writing c's final values runs (the last slice of K): gt_epilogue.x is
 * the bias, 0 none, 1 one value per row of c (slot 3 is M x 1), 2 one per
 * column (1 x N); .y the activation, gt_activation's value; gt_clamp the
 * bounds it clamps to ((0, +inf) for RELU). Uniforms, so every branch on
 * them is uniform. Every product of a batch adds the same bias: slot 3
 * does not move by layer. A variant, so products without an epilogue
 * carry none of its code. */
uniform uvec2 gt_epilogue;
uniform vec2 gt_clamp;
layout(std430, binding = 3) readonly GT_RESTRICT buffer Bias { float bias_data[]; };

/* Comparisons and selects rather than max() and clamp(), which leave NaN
 * undefined: a NaN stays NaN where the device keeps NaNs. RELU is CLAMP
 * to [0, +inf]; the host sets gt_clamp so. */
vec4 gt_activate(vec4 v) {
  if (gt_epilogue.y == 0u) return v;
  v = mix(v, vec4(gt_clamp.x), lessThan(v, vec4(gt_clamp.x)));
  return mix(v, vec4(gt_clamp.y), greaterThan(v, vec4(gt_clamp.y)));
}

/* Row m's final values at 4 columns from alpha * sum + beta * c, the 4
 * results at once. */
vec4 gt_finish_at(uint m, uvec4 n, vec4 v) {
  uvec4 view = gt_views[3];
  if (gt_epilogue.x == 1u) v += bias_data[view.z + m * view.w];
  else if (gt_epilogue.x == 2u) v += vec4(bias_data[view.z + n.x], bias_data[view.z + n.y],
                                         bias_data[view.z + n.z], bias_data[view.z + n.w]);
  return gt_activate(v);
}

/* c[m][n .. n + 3]'s (callers store a quad only where n + 3 < N). */
vec4 gt_finish4(uint m, uint n, vec4 v) { return gt_finish_at(m, uvec4(n) + uvec4(0u, 1u, 2u, 3u), v); }

/* The same for a quad that may end past N: those columns take column
 * N - 1's bias, so that every read stays inside the view, and their
 * results are never stored. Only where such quads are finished whole: a
 * clamp in every kernel's epilogue costs the Adreno compilers
 * instructions (docs/notes/2026-12-ci-and-layers.md, "The bias clamp at
 * the right depth"). */
vec4 gt_finish4_clamped(uint m, uint n, vec4 v) {
  return gt_finish_at(m, min(uvec4(n) + uvec4(0u, 1u, 2u, 3u), uvec4(gt_cols_n() - 1u)), v);
}

/* The same for c[m][n] alone. */
float gt_finish(uint m, uint n, float v) {
  uvec4 view = gt_views[3];
  if (gt_epilogue.x == 1u) v += bias_data[view.z + m * view.w];
  else if (gt_epilogue.x == 2u) v += bias_data[view.z + n];
  return gt_activate(vec4(v)).x;
}
#else
#define gt_finish(m, n, v) (v)
#define gt_finish4(m, n, v) (v)
#define gt_finish4_clamped(m, n, v) (v)
#endif

#ifdef GT_QUANT_C
/* (multiplier, shift, zero_c) of gt_quantization; GT_QUANT_COLUMNS takes
 * the multiplier and shift of column n from slots 4 and 5 instead. */
uniform ivec3 gt_requantize;
#ifdef GT_QUANT_COLUMNS
layout(std430, binding = 4) readonly GT_RESTRICT buffer Multipliers { int multiplier_data[]; };
layout(std430, binding = 5) readonly GT_RESTRICT buffer Shifts { int shift_data[]; };
#endif

/* round(a b / 2^31), halves away from zero, from the 64-bit product;
 * INT_MIN squared, the one product past int, saturates (gemmlowp's
 * SaturatingRoundingDoublingHighMul). */
int gt_high_mul(int a, int b) {
  const int int_min = int(0x80000000u);
  if (a == int_min && b == int_min) return 0x7FFFFFFF;
  int high, low;
  imulExtended(a, b, high, low);
  /* Add the nudge, 2^30 or 1 - 2^30 by the product's sign, as 64 bits. */
  bool negative = high < 0;
  uint carry, sum = uaddCarry(uint(low), negative ? 0xC0000001u : 0x40000000u, carry);
  high += int(carry) + (negative ? -1 : 0);
  /* Divide by 2^31 toward zero: the floor, then one up for a negative
   * quotient with a remainder. */
  int q = (high << 1) | int(sum >> 31u);
  return q + ((high < 0 && (sum & 0x7FFFFFFFu) != 0u) ? 1 : 0);
}

/* x / 2^e rounded to nearest, halves away from zero (RoundingDivideByPOT). */
int gt_divide_pot(int x, int e) {
  int mask = (1 << e) - 1, remainder = x & mask;
  int threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}

/* The requantised byte of column n's sum, in c's range (clamped before
 * the zero point is added, which then cannot overflow), activated. */
uint gt_requantized(uint n, int sum) {
#ifdef GT_QUANT_COLUMNS
  int multiplier = multiplier_data[gt_views[4].z + n], shift = clamp(shift_data[gt_views[5].z + n], -31, 30);
#else
  int multiplier = gt_requantize.x, shift = gt_requantize.y;
#endif
  int zero = gt_requantize.z;
  int v = gt_divide_pot(gt_high_mul(sum << max(shift, 0), multiplier), max(-shift, 0));
#ifdef GT_SIGNED
  return uint(gt_activate_int(clamp(v, -128 - zero, 127 - zero) + zero)) & 0xFFu;
#else
  return uint(gt_activate_int(clamp(v, -zero, 255 - zero) + zero));
#endif
}

void c_set_byte(uint i, uint byte) {
  uint shift = (i & 3u) * 8u;
  atomicAnd(c_words[i >> 2u], ~(0xFFu << shift));
  atomicOr(c_words[i >> 2u], byte << shift);
}
#elif defined(GT_C_HALVES)
float c_elem(uint i) { return unpackHalf2x16(uint(c_halves[i])).x; }
void c_set(uint i, float value) { c_halves[i] = uint16_t(half_bits(value)); }
#elif defined(GT_HALF_C) && !defined(GT_VEC4_C)
float c_elem(uint i) { return GT_HALF_AT(c_words, i); }
void c_set(uint i, float value) {
  uint shift = (i & 1u) * 16u;
  atomicAnd(c_words[i >> 1u], ~(0xFFFFu << shift));
  atomicOr(c_words[i >> 1u], half_bits(value) << shift);
}
#elif !defined(GT_VEC4_C) && !defined(GT_QUANT)
float c_elem(uint i) { return c_data[i]; }
void c_set(uint i, float value) { c_data[i] = value; }
#endif

#ifdef GT_QUANT
/* Stores one sum: a GT_I32 c takes it, plus what c holds after the
 * first slice of K (gt_scale.y is 1 then, else 0); an 8-bit c runs K in
 * one slice and takes it requantised; with the epilogue on the last
 * slice. */
void store_c(uint m, uint n, int sum) {
  uint i = gt_index(2u, uvec2(m, n));
#ifdef GT_QUANT_C
  c_set_byte(i, gt_requantized(n, gt_add_bias(m, n, sum)));
#else
  if (gt_scale.y != 0.0) sum += c_data[i];
  c_data[i] = gt_activate_int(gt_add_bias(m, n, sum));
#endif
}

void store_c_guarded(uint m, uint n, int sum) {
  if (m < gt_rows_m() && n < gt_cols_n()) store_c(m, n, sum);
}
#elif !defined(GT_VEC4_C)
/* Stores one result. gt_scale is uniform, so the branch is too. */
void store_c(uint m, uint n, float sum) {
  uint i = gt_index(2u, uvec2(m, n));
  float value = gt_scale.x * sum;
  if (gt_scale.y != 0.0) value += gt_scale.y * c_elem(i);
  c_set(i, gt_finish(m, n, value));
}

void store_c_guarded(uint m, uint n, float sum) {
  if (m < gt_rows_m() && n < gt_cols_n()) store_c(m, n, sum);
}
#endif
