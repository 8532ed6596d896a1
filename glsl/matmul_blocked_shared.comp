/* Register-blocked matmul staged through shared memory: AUTO's kernel on
 * GPUs with dedicated shared memory. A group of 16 x 16 invocations
 * computes a 128 x 128 block of c; each invocation keeps 8 x 8 results in
 * sixteen vec4 registers. For every 8-wide step of K the group stores a
 * 128 x 8 slice of op(a) and an 8 x 128 slice of op(b) in shared memory
 * (4 + 4 elements per invocation), waits, and each invocation then
 * reads 2 + 2 vec4s per k for 64 multiply-adds: 8 times the arithmetic
 * per shared read of the tiled kernel, 16 times per global load.
 *
 * Every layout runs this one kernel, with one inner loop: a or b
 * transposed, any offset and pitch, any extent. Each invocation loads
 * the next step's 4 + 4 elements halfway through this step's
 * multiply-adds, so they are in flight while it computes the rest, and
 * loads them without a branch (edges are clamped, see struct quad).
 * Where a view allows (GT_VEC4_A, _B, _C: rows 16-byte aligned, and no
 * vec4 straddling an edge of the view; the host checks), a quad of an
 * operand stored across K is one vec4 load, and c's row of 4 results one
 * vec4 store; elsewhere 4 float loads and guarded float stores. Halves
 * (GT_HALF) across K load a quad as one uvec2 where the view allows
 * (rows 8-byte aligned), else as the 2 or 3 words holding it, and a half
 * c's row of 4 results starting on a word is 2 plain word stores; where
 * the context has 16-bit storage (GT_HALF_STORAGE, see matmul_common),
 * halves that are not uvec2s or words go one at a time. Halves
 * with b transposed, and halves into a half c with neither transposed,
 * the operands along K aligned, step 16 k at a time from whole words
 * (GT_WORD_STEPS). (Why each form: at its code below; the trials in
 * docs/notes/2026-11-nvidia-matmul-f16.md and
 * docs/notes/2026-12-nvidia-matmul-f16.md.)
 *
 * Not double-buffered in shared memory: two shared buffers double the
 * shared memory for a gain at some sizes and a loss at others
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "Shared matmul, second
 * version").
 *
 * The invocation at (tx, ty) owns rows 4 ty .. 4 ty + 3 and 64 + 4 ty ..,
 * and columns 4 tx .. and 64 + 4 tx ..: its vec4 reads of a row of the
 * shared slices are then either broadcast (a) or 16 distinct vec4s of
 * one row, consecutive ones (b). The K loop has uniform bounds, so both
 * barriers are reached by the whole group. Needs a 16 x 16 group (256
 * invocations) and 8,448 bytes of shared memory (16,384 for GT_WORD_STEPS,
 * below). */
#define BM 128u
/* GT_WORD_STEPS (the preamble's, as each choice below: the host derives
 * them from the flags, src/plan/matmul_derived.c): halves with b stored
 * transposed (along K), or a b into a half c, both operands' rows on 8
 * bytes (GT_VEC4_A and _B) or only those along K (GT_WORDS_UNALIGNED),
 * step 16 k at a time from whole words, see below; every other program
 * 8 k. Where b runs across K it pays only for a b into a half c: a b into
 * a float c and a^T b ran at best as fast, the reason not found
 * (docs/notes/2026-11-nvidia-matmul-f16.md, "Halves 16 k a step from
 * whole words"; docs/notes/2026-12-nvidia-matmul-f16.md, "Half c stores
 * and 16 k a step for a b into a half c"). */
#ifdef GT_WORD_STEPS
#define BK 16u
#else
#define BK 8u
#endif
/* GT_WORDS_UNALIGNED: GT_WORD_STEPS where the operand across K has rows
 * not on 8 bytes (its GT_VEC4_x absent); those along K must be (see
 * WORDS_ACROSS_ANY). Words of 2 k from rows along K at any alignment
 * (the high half of one word and the low half of the next) were tried
 * and were slower than 8 k a step of single halves
 * (docs/notes/2026-12-nvidia-matmul-f16.md, "Words of 2 k where rows
 * start inside a word"). The kernel moves quads along K as vec4s only as
 * such words, and a half c's quads as uvec2s only where results are not
 * 32 columns apart: the host names no other program. */

/* NVIDIA's compiler unrolls every loop where asked, which pays there
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "The shared matmul with vec4
 * loads"); others ignore a pragma they do not know (GLSL ES 3.10, 3.4). */
#pragma optionNV(unroll all)

/* Each step the group stores an 8 x 128 slice of op(a) and one of op(b)
 * in shared memory in the order the inner loop reads them, whatever the
 * layout: [k][m / 4] and [k][n / 4], a vec4 holding 4 rows of op(a) (4
 * columns of op(b)) at one k. Each invocation loads one such quad of
 * each operand and stores it as one vec4:
 * - across K (a transposed, b untransposed) its 4 elements are adjacent
 *   in the stored matrix: step row t / 32, quad t % 32; one vec4 load
 *   where the view allows (GT_VEC4_A, GT_VEC4_B), else 4 float loads,
 *   which take 4 elements 32 apart (GT_STRIDED_A, below);
 * - along K (a untransposed, b transposed) they lie in 4 stored rows,
 *   one pitch apart: step row t % 8, quad t / 8; 4 float loads, which
 *   the 8 invocations of a quad make into 32 contiguous bytes of each row.
 * Before, a's slice was kept row-major along K and read 4 k at a time
 * (2-way bank conflicts), and b transposed was stored element by element
 * into a float array (4 float reads for each quad), and a b and a b^T
 * ran well behind a^T b, already in this order
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "Every layout through one
 * inner loop").
 *
 * The 8 invocations of a quad along K store into 8 rows of the slice,
 * 512 bytes apart: one bank. Two ways spread them: a row of 33 vec4s,
 * one unused, or quad q of row k stored at q ^ k (GT_SWIZZLE_A), where each
 * read then computes its address. Slices of quads across K are stored
 * in rows, as they come. Neither way wins in every layout: a b of floats
 * takes the XOR on a, the other float programs the padding
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "Every layout through one
 * inner loop"); halves the other way round, a b the padding and a b^T
 * the XOR (docs/notes/2026-11-nvidia-matmul-f16.md, "Half precision at
 * f32's speed"). */
/* [k][m / 4], component m % 4 (m / 4 ^ k under GT_SWIZZLE_A); GT_WORD_STEPS
 * stores without conflicts unpadded (see quad_along), in 16,384 bytes
 * for both slices, the ES 3.1 minimum. */
#ifdef GT_PAD_A_SLICE
shared vec4 a_slice[BK][BM / 4u + 1u];
#else
shared vec4 a_slice[BK][BM / 4u];
#endif
#ifdef GT_SWIZZLE_A
uint slot_a(uint k, uint q) { return q ^ k; }
#else
uint slot_a(uint k, uint q) { return q; }
#endif
/* [k][n / 4], component n % 4 */
#ifdef GT_PAD_B_SLICE
shared vec4 b_slice[BK][BM / 4u + 1u];
#else
shared vec4 b_slice[BK][BM / 4u];
#endif

/* Invocation t's quad of one operand. Every load is unconditional and
 * inside the view: a row (column) of op(a) (op(b)) past the matrix is
 * read as the last one, which only feeds results that are never stored,
 * and a k past the slice as its last k, the quad then set to zero. The
 * K loop then has no branch around its loads: the guards were what held
 * a b behind a^T b (docs/notes/2026-11-nvidia-matmul-f32.md, "Loads
 * without branches, halfway through the step").
 *
 * at: the index of its first element at k = 0; k then adds k times the
 * pitch (across K) or k (along K). last: its last element inside the
 * matrix (0 .. 3), which the elements after it repeat. row_k: its k
 * within the step; q: its place in the slice's row (see GT_STRIDED_A).
 * One number, not the 4 elements' offsets, so that it costs one
 * register: with the offsets held the compiler moved more of them to
 * memory, and a b ran slower (the same note and section). */
struct quad {
  uint at, last, row_k, q;
};

/* v: the view's (rows, cols, offset, pitch); first: the block's first
 * row of op(a) (column of op(b)); the quad's first element lies
 * `apart` from the next one in the stored matrix. */
quad quad_at(uvec4 v, uint kr, uint q, uint first, uint extent, uint apart) {
  uint first_in = min(first + 4u * q, extent - 1u);
  return quad(v.z + first_in * apart, min(extent - 1u - first_in, 3u), kr, q);
}

/* Floats across K that no vec4 can load come as 4 float loads. Taken as
 * the 4 adjacent elements of a quad, each of those loads touches 512
 * bytes across a subgroup of 32 (one float in 4). Under GT_STRIDED_x
 * invocation t % 32 of a step row takes elements t % 32, + 32, + 64 and
 * + 96 of it instead, so that each load is 128 contiguous bytes, and
 * stores them as one vec4 at t % 32: the slice's vec4 s then holds rows
 * (columns) s, s + 32, s + 64 and s + 96 of the block, and an
 * invocation's results are those rows (columns); see ROW and SIDE.
 * Halves read one at a time (GT_A_HALVES, GT_B_HALVES: 16-bit storage)
 * come the same way, faster than from the 2 or 3 words holding each quad
 * (docs/notes/2026-12-nvidia-matmul-f16.md, "Halves across K by pairs,
 * tried; halves 16 bits at a time"). */
quad quad_across(uvec4 v, uint t, uint first, uint extent) {
  return quad_at(v, t / 32u, t % 32u, first, extent, 1u);
}
quad quad_along(uvec4 v, uint t, uint first, uint extent) {
#ifdef GT_WORD_STEPS
  /* 2 k (one word) of 4 rows: k 2 j and 2 j + 1 of quad q, t's bits
   * being, low to high, 3 of q, 2 of j, 2 of q and 1 of j. A 16-byte
   * store goes through the banks 8 invocations at a time: 8 adjacent
   * ones store 8 adjacent quads of one slice row, no two on a bank, with
   * no padding. (2 quads of 4 rows each, 4 to a bank group, ran slower:
   * docs/notes/2026-11-nvidia-matmul-f16.md, "Halves 16 k a step from
   * whole words".) A subgroup's load reads 16 bytes of each of 8 rows. */
  uint j = (t / 8u) % 4u + 4u * (t / 128u), q = t % 8u + 8u * ((t / 32u) % 4u);
  return quad_at(v, 2u * j, q, first, extent, v.w);
#else
  return quad_at(v, t % 8u, t / 8u, first, extent, v.w);
#endif
}
/* Under GT_STRIDED_x: last counts elements 32 apart. */
quad quad_strided(uvec4 v, uint t, uint first, uint extent) {
  uint first_in = min(first + t % 32u, extent - 1u);
  return quad(v.z + first_in, min((extent - 1u - first_in) / 32u, 3u), t / 32u, t % 32u);
}

/* The quad's k in the step at k0, kept inside the K slice. */
uint quad_k(quad q, uint k0) { return min(k0 + q.row_k, max(gt_k_range.y, gt_k_range.x + 1u) - 1u); }
/* Whether the quad's k in the step at k0 lies inside the K slice. */
bool k_inside(quad q, uint k0) { return k0 + q.row_k < gt_k_range.y; }
/* The quad as loaded, or zero where its k lies past the K slice. */
vec4 inside_k(quad q, uint k0, vec4 loaded) { return k_inside(q, k0) ? loaded : vec4(0.0); }

/* The quad's elements from index i of its first (one function per
 * operand: GLSL cannot pass a storage block to a function). Across K:
 * one vec4 under GT_VEC4_x (the host keeps the quads whole there), else
 * 4 floats; along K, 4 floats a pitch apart. Unaligned quads once came
 * from two vec4 loads and a shuffle, slower than the plain floats
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "Unaligned whole quads as 4
 * unguarded float loads"). */
#define SPREAD(elem, i, last, apart)                                                               \
  vec4(elem(i), elem((i) + min(1u, last) * (apart)), elem((i) + min(2u, last) * (apart)),           \
       elem((i) + min(3u, last) * (apart)))
/* Halves in words: the 4 from the one at an odd or even place of word
 * w0 on, held in w0 .. w2, as 2 words: the high half of one word and the
 * low half of the next shifted together where the first is odd. */
uint funnel(uint lo, uint hi) { return (lo >> 16u) | (hi << 16u); }
vec4 halves4(uvec2 w) { return vec4(unpackHalf2x16(w.x), unpackHalf2x16(w.y)); }
uvec2 quad_words(bool odd, uint w0, uint w1, uint w2) {
  return odd ? uvec2(funnel(w0, w1), funnel(w1, w2)) : uvec2(w0, w1);
}

#ifdef GT_HALF
/* A quad of halves across K from the words holding it: 2 where it
 * starts on a word, else 3. A word past the one holding its last element
 * inside the matrix (end) is read as that one: the halves it gives only
 * feed results never stored, and every load stays inside the view with
 * no branch (a branch between this and 4 single halves, and one around
 * the third word, cost f16 > f32 time:
 * docs/notes/2026-11-nvidia-matmul-f32.md, "Loads without branches,
 * halfway through the step"). */
vec4 half_quad(bool odd, uint w0, uint w1, uint w2) {
  vec2 lo = unpackHalf2x16(w0), mid = unpackHalf2x16(w1);
  return odd ? vec4(lo.y, mid, unpackHalf2x16(w2).x) : vec4(lo, mid);
}
#define ACROSS(elem, words, i, last)                                                              \
  half_quad(((i)&1u) != 0u, words[(i) >> 1u], words[min(((i) >> 1u) + 1u, ((i) + (last)) >> 1u)], \
            words[min(((i) >> 1u) + 2u, ((i) + (last)) >> 1u)])
/* A quad of halves across K on 8 bytes: one uvec2 load, which brings
 * f16 > f32 to f32's time where both operands run across K
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "Loads without branches,
 * halfway through the step"). */
#define A4(i) halves4(a_pairs[i])
#define B4(i) halves4(b_pairs[i])
#else
#define A4(i) a4[i]
#define B4(i) b4[i]
#endif
vec4 load_a(quad q, uint k0, uint last) {
  uint k = quad_k(q, k0);
#ifndef GT_TRANS_A
  vec4 v = SPREAD(a_one, q.at + k, last, gt_views[0].w);
#elif defined(GT_STRIDED_A)
  /* 4 elements 32 apart */
  vec4 v = SPREAD(a_elem, q.at + k * gt_views[0].w, last, 32u);
#elif defined(GT_VEC4_A)
  vec4 v = A4((q.at + k * gt_views[0].w) >> 2u);
#else
  vec4 v = ACROSS(a_elem, a_words, q.at + k * gt_views[0].w, last);
#endif
  return inside_k(q, k0, v);
}
vec4 load_b(quad q, uint k0, uint last) {
  uint k = quad_k(q, k0);
#ifdef GT_TRANS_B
  vec4 v = SPREAD(b_one, q.at + k, last, gt_views[1].w);
#elif defined(GT_STRIDED_B)
  /* 4 elements 32 apart */
  vec4 v = SPREAD(b_elem, q.at + k * gt_views[1].w, last, 32u);
#elif defined(GT_VEC4_B)
  vec4 v = B4((q.at + k * gt_views[1].w) >> 2u);
#else
  vec4 v = ACROSS(b_elem, b_words, q.at + k * gt_views[1].w, last);
#endif
  return inside_k(q, k0, v);
}

#ifdef GT_WORD_STEPS
/* An invocation's share of each slice under GT_WORD_STEPS: 2 quads, held
 * from their loads to their stores (through half a step) as the 4 words
 * that hold them, as many registers as the one quad of floats per 8 k
 * elsewhere, and widened as they are stored:
 * - across K, the quads at step rows row_k and row_k + 8, a uvec2 each;
 * - along K, one word of each of the quad's 4 rows: k and k + 1 (rows,
 *   the view and the K slice on whole words: the host checks).
 * Words past the K slice are zero (0.0); rows and k past the matrix are
 * read as its last, as above. A half is widened once, where the group
 * stores it; the loads and barriers per k are halved. */
uint pair_k(quad q, uint k0) { return min(k0 + q.row_k, max(gt_k_range.y, gt_k_range.x + 2u) - 2u); }
uvec2 inside_k(quad q, uint k0, uvec2 w) { return k_inside(q, k0) ? w : uvec2(0u); }
uvec4 inside_k(quad q, uint k0, uvec4 w) { return k_inside(q, k0) ? w : uvec4(0u); }
#define WORDS_ACROSS(pairs, q, k0, pitch)                                                          \
  uvec4(inside_k(q, k0, pairs[((q).at + quad_k(q, k0) * (pitch)) >> 2u]),                          \
        inside_k(q, (k0) + 8u, pairs[((q).at + quad_k(q, (k0) + 8u) * (pitch)) >> 2u]))
#define WORDS_ALONG(words, q, k0, last, pitch)                                                     \
  inside_k(q, k0,                                                                                  \
           uvec4(words[((q).at + pair_k(q, k0)) >> 1u],                                            \
                 words[((q).at + pair_k(q, k0) + min(1u, last) * (pitch)) >> 1u],                  \
                 words[((q).at + pair_k(q, k0) + min(2u, last) * (pitch)) >> 1u],                  \
                 words[((q).at + pair_k(q, k0) + min(3u, last) * (pitch)) >> 1u]))
#ifdef GT_WORDS_UNALIGNED
/* An operand across K whose rows are not on 8 bytes (GT_WORDS_UNALIGNED,
 * its GT_VEC4_x absent): a quad's 4 halves are the 2 or 3 words holding
 * it made into 2, the high half of one word and the low half of the next
 * shifted together where it starts inside a word (as ACROSS above, a word
 * past the last element inside the matrix read as that one's). */
#define QUAD_WORDS(words, i, last)                                                                 \
  quad_words(((i)&1u) != 0u, words[(i) >> 1u], words[min(((i) >> 1u) + 1u, ((i) + (last)) >> 1u)], \
             words[min(((i) >> 1u) + 2u, ((i) + (last)) >> 1u)])
#define WORDS_ACROSS_ANY(words, q, k0, last, pitch)                                                \
  uvec4(inside_k(q, k0, QUAD_WORDS(words, (q).at + quad_k(q, k0) * (pitch), last)),                \
        inside_k(q, (k0) + 8u, QUAD_WORDS(words, (q).at + quad_k(q, (k0) + 8u) * (pitch), last)))
#endif
uvec4 words_a(quad q, uint k0, uint last) {
#if defined(GT_TRANS_A) && defined(GT_VEC4_A)
  return WORDS_ACROSS(a_pairs, q, k0, gt_views[0].w);
#elif defined(GT_TRANS_A)
  return WORDS_ACROSS_ANY(a_words, q, k0, last, gt_views[0].w);
#else
  return WORDS_ALONG(a_words, q, k0, last, gt_views[0].w);
#endif
}
uvec4 words_b(quad q, uint k0, uint last) {
#ifdef GT_TRANS_B
  return WORDS_ALONG(b_words, q, k0, last, gt_views[1].w);
#elif defined(GT_VEC4_B)
  return WORDS_ACROSS(b_pairs, q, k0, gt_views[1].w);
#else
  return WORDS_ACROSS_ANY(b_words, q, k0, last, gt_views[1].w);
#endif
}
/* The words `held` of quad qd, widened into its 2 slice rows (macros:
 * GLSL cannot pass a shared array to a function). */
#define STASH_ACROSS(slice, qd, held)                                                              \
  slice[qd.row_k][qd.q] = halves4(held.xy), slice[qd.row_k + 8u][qd.q] = halves4(held.zw)
#define STASH_ALONG(slice, qd, held)                                                               \
  {                                                                                                \
    vec2 r0 = unpackHalf2x16(held.x), r1 = unpackHalf2x16(held.y), r2 = unpackHalf2x16(held.z),    \
         r3 = unpackHalf2x16(held.w);                                                              \
    slice[qd.row_k][qd.q] = vec4(r0.x, r1.x, r2.x, r3.x);                                          \
    slice[qd.row_k + 1u][qd.q] = vec4(r0.y, r1.y, r2.y, r3.y);                                     \
  }
void stash(quad qa, uvec4 wa, quad qb, uvec4 wb) {
#ifdef GT_TRANS_A
  STASH_ACROSS(a_slice, qa, wa);
#else
  STASH_ALONG(a_slice, qa, wa)
#endif
#ifdef GT_TRANS_B
  STASH_ALONG(b_slice, qb, wb)
#else
  STASH_ACROSS(b_slice, qb, wb);
#endif
}
#define HELD uvec4
#define LOAD_A words_a
#define LOAD_B words_b
#else
/* Elsewhere an invocation holds one quad of each operand, as loaded. */
void stash(quad qa, vec4 la, quad qb, vec4 lb) {
  a_slice[qa.row_k][slot_a(qa.row_k, qa.q)] = la;
  b_slice[qb.row_k][qb.q] = lb;
}
#define HELD vec4
#define LOAD_A load_a
#define LOAD_B load_b
#endif

#ifndef GT_TRANS_A
#define A_QUAD quad_along
#elif defined(GT_STRIDED_A)
#define A_QUAD quad_strided
#else
#define A_QUAD quad_across
#endif
#ifdef GT_TRANS_B
#define B_QUAD quad_along
#elif defined(GT_STRIDED_B)
#define B_QUAD quad_strided
#else
#define B_QUAD quad_across
#endif

/* Where an invocation's results lie: its first row 4 ty (column 4 tx),
 * row r (0 .. 7) ROW(r) below it (a0 holds rows 0 .. 3, a1 rows 4 .. 7),
 * and b1's columns SIDE right of b0's. */
#ifdef GT_STRIDED_A
#define FIRST_ROW(ty) (ty)
#define ROW(r) (32u * ((r) % 4u) + 16u * ((r) / 4u))
#else
#define FIRST_ROW(ty) (4u * (ty))
#define ROW(r) ((r) % 4u + 64u * ((r) / 4u))
#endif
/* A result vec4's 4 columns lie COL_APART apart. */
#ifdef GT_STRIDED_B
#define FIRST_COL(tx) (tx)
#define SIDE 16u
#define COL_APART 32u
#else
#define FIRST_COL(tx) (4u * (tx))
#define SIDE 64u
#define COL_APART 1u
#endif

/* Stores columns n, n + COL_APART, n + 2 COL_APART and n + 3 COL_APART
 * of row m of c. */
void store_quad(uint m, uint n, vec4 sum) {
#ifdef GT_C_PAIRS
  /* 4 halves on 8 bytes, this invocation's alone: no atomics in the
   * program, since they cost by being in it, taken or not
   * (docs/notes/2026-11-nvidia-matmul-f16.md, "Half precision at f32's
   * speed"). */
  if (m >= gt_rows_m() || n >= gt_cols_n()) return;
  uint i = gt_index(2u, uvec2(m, n)) >> 2u;
  vec4 value = gt_scale.x * sum;
  if (gt_scale.y != 0.0) value += gt_scale.y * halves4(c_pairs[i]);
  value = gt_finish4(m, n, value);
#ifdef GT_PACK_HALF_IEEE
  /* The device's packHalf2x16 rounds past the largest half and keeps NaNs
   * as IEEE does (the device table's pack_half_ieee; `half` checks it
   * there): plain packs, no test, which pays most where K is short and
   * each result's conversion weighs
   * (docs/notes/2026-12-nvidia-matmul-f16.md, "A half c packed with no
   * test where the device rounds as IEEE"). */
  c_pairs[i] = uvec2(packHalf2x16(value.xy), packHalf2x16(value.zw));
#else
  /* One test for the 4 and plain packs where all are ordinary halves, the
   * selects only otherwise: the selects on every pair weigh where K is
   * short (docs/notes/2026-12-nvidia-matmul-f16.md, "A half c: one test a
   * quad, and rows through shared memory"). */
  if (ordinary_halves(value))
    c_pairs[i] = uvec2(packHalf2x16(value.xy), packHalf2x16(value.zw));
  else
    c_pairs[i] = uvec2(half_pair_selected(value.xy), half_pair_selected(value.zw));
#endif
#elif defined(GT_VEC4_C)
  if (m >= gt_rows_m() || n >= gt_cols_n()) return;
  uint i = gt_index(2u, uvec2(m, n)) >> 2u;
  vec4 value = gt_scale.x * sum;
  if (gt_scale.y != 0.0) value += gt_scale.y * c4[i];
  c4[i] = gt_finish4(m, n, value);
#else
#if defined(GT_HALF_C) && !defined(GT_C_HALVES) && !defined(GT_STRIDED_B)
  /* The quad's halves inside c lie in the 3 words from its first's (2
   * where it starts on a word). A word of two of them is stored plainly;
   * a word it shares with a neighbour's quad, or with what lies past c's
   * row, takes one atomicXor of its own halves' bits, read first: no
   * other invocation writes them, so the word as read holds them as they
   * are. Each quad takes the same code, whatever its place. Before, a
   * fast path for whole quads on a word and 4 halves each through c_set's
   * two atomics for the rest, every access repeated for each of the 16
   * quads, made most of the program for llvmpipe's and Adreno's compilers
   * and its longest compile on llvmpipe (docs/notes/2026-12-ci-and-layers.md,
   * "Half c quads through words").
   * (Under GT_C_HALVES each half is one 16-bit store.) */
  if (m >= gt_rows_m() || n >= gt_cols_n()) return;
  uint i = gt_index(2u, uvec2(m, n)), w = i >> 1u, inside = min(gt_cols_n() - n, 4u);
  bool odd = (i & 1u) != 0u;
  /* The quad's halves inside c as masks of 2 words, then of the 3 */
  uvec2 quad = uvec2(inside > 1u ? ~0u : 0xFFFFu, inside > 3u ? ~0u : (inside > 2u ? 0xFFFFu : 0u));
  uvec3 mask = odd ? uvec3(quad.x << 16u, funnel(quad.x, quad.y), quad.y >> 16u) : uvec3(quad, 0u);
  bool reads = gt_scale.y != 0.0;
  uvec3 old = uvec3(0u);
  if (reads || mask.x != ~0u) old.x = c_words[w];
  if (mask.y != 0u && (reads || mask.y != ~0u)) old.y = c_words[w + 1u];
  if (mask.z != 0u) old.z = c_words[w + 2u];
  vec4 value = gt_scale.x * sum;
  if (reads) value += gt_scale.y * halves4(quad_words(odd, old.x, old.y, old.z));
  value = gt_finish4_clamped(m, n, value);
  uvec2 pair = uvec2(half_pair(value.xy), half_pair(value.zw));
  uvec3 bits = odd ? uvec3(pair.x << 16u, funnel(pair.x, pair.y), pair.y >> 16u) : uvec3(pair, 0u);
#define SET_WORD(w, bits, mask, old)                                                               \
  if ((mask) == ~0u)                                                                               \
    c_words[w] = (bits);                                                                           \
  else if ((mask) != 0u)                                                                           \
    atomicXor(c_words[w], ((old) ^ (bits)) & (mask));
  SET_WORD(w, bits.x, mask.x, old.x)
  SET_WORD(w + 1u, bits.y, mask.y, old.y)
  SET_WORD(w + 2u, bits.z, mask.z, old.z)
#undef SET_WORD
  return;
#endif
  store_c_guarded(m, n, sum.x);
  store_c_guarded(m, n + COL_APART, sum.y);
  store_c_guarded(m, n + 2u * COL_APART, sum.z);
  store_c_guarded(m, n + 3u * COL_APART, sum.w);
#endif
}

/* acc[2 r + side] holds row ROW(r) of the invocation's results, columns
 * side * SIDE on (see store_quad): without GT_STRIDED_x rows 4 ty + r (r <
 * 4) or 64 + 4 ty + r - 4, and columns 4 tx .. + 3 or 64 + 4 tx .. + 3.
 * It is indexed by constants only: an index the compiler cannot resolve
 * moves the array to local memory. */
vec4 acc[16];

/* One k of the step: a0 and a1 hold op(a) at the invocation's rows 0 ..
 * 3 and 4 .. 7, b0 and b1 op(b) at its columns (see ROW, SIDE). */
void multiply(vec4 a0, vec4 a1, vec4 b0, vec4 b1) {
  acc[0] += a0.x * b0, acc[1] += a0.x * b1, acc[2] += a0.y * b0, acc[3] += a0.y * b1;
  acc[4] += a0.z * b0, acc[5] += a0.z * b1, acc[6] += a0.w * b0, acc[7] += a0.w * b1;
  acc[8] += a1.x * b0, acc[9] += a1.x * b1, acc[10] += a1.y * b0, acc[11] += a1.y * b1;
  acc[12] += a1.z * b0, acc[13] += a1.z * b1, acc[14] += a1.w * b0, acc[15] += a1.w * b1;
}

/* barrier() alone makes the slices' stores visible to the whole group
 * (the ES 3.1 reference page of barrier()); memoryBarrierShared() before
 * it only changes how NVIDIA's compiler schedules the loop: without it
 * a b of floats ran slower and a^T b's halves from words too, a^T b's
 * halves as uvec2s faster. So kept but in a^T b's halves as uvec2s
 * (docs/notes/2026-12-nvidia-matmul-f16.md, "The fence before each
 * step's barrier"). */
#ifdef GT_FENCE_SLICES
#define FENCE_SLICES() memoryBarrierShared()
#else
#define FENCE_SLICES()
#endif

/* The K loop, with the last element inside the matrix of a's and b's
 * quads (a macro: some programs run two copies of it, see main). */
#define STEPS(last_a, last_b)                                                                      \
  uint k0 = gt_k_range.x;                                                                          \
  HELD la = LOAD_A(qa, k0, last_a), lb = LOAD_B(qb, k0, last_b);                                   \
  for (; k0 < gt_k_range.y; k0 += BK) {                                                            \
    stash(qa, la, qb, lb);                                                                         \
    FENCE_SLICES();                                                                                \
    barrier();                                                                                     \
    for (uint kk = 0u; kk < BK / 2u; kk++)                                                         \
      multiply(a_slice[kk][slot_a(kk, ty)], a_slice[kk][slot_a(kk, ty + 16u)], b_slice[kk][tx],     \
               b_slice[kk][tx + 16u]);                                                             \
    la = LOAD_A(qa, k0 + BK, last_a);                                                              \
    lb = LOAD_B(qb, k0 + BK, last_b);                                                              \
    for (uint kk = BK / 2u; kk < BK; kk++)                                                         \
      multiply(a_slice[kk][slot_a(kk, ty)], a_slice[kk][slot_a(kk, ty + 16u)], b_slice[kk][tx],     \
               b_slice[kk][tx + 16u]);                                                             \
    barrier();                                                                                     \
  }
/* In STEPS: the next step's loads come halfway through this step's
 * arithmetic, in flight during the rest of it. Written before it,
 * NVIDIA's compiler put them after all of it in some layouts, their
 * latency then exposed (docs/notes/2026-11-nvidia-matmul-f32.md, "Loads
 * without branches, halfway through the step"). The second barrier:
 * the next step overwrites the slices everyone is reading. */

void main() {
  uvec2 block = gt_tile() * BM; /* first row and column of c */
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint t = ty * 16u + tx;
  quad qa = A_QUAD(gt_layer_view(0u), t, block.x, gt_rows_m());
  quad qb = B_QUAD(gt_layer_view(1u), t, block.y, gt_cols_n());
  for (int i = 0; i < 16; i++)
    acc[i] = vec4(0.0);
#ifdef GT_TWO_LOOPS
  /* Where an operand across K loads no vec4s, a second copy of the K loop
   * for blocks inside c loads every quad whole, at constant offsets
   * (uniform in the group: both copies reach the barriers whole). For
   * floats it pays where b runs across K, not where b runs along K
   * (docs/notes/2026-11-nvidia-matmul-f32.md, "Unaligned floats across
   * K"). Halves along K in both operands differ, by the compiler's
   * choices more than the loop's work: the copy pays into a half c, not
   * into a float c, nor into a half c's uvec2s; into a half c written 16
   * bits at a time (GT_C_HALVES), a and b read so too
   * (GT_HALVES_ALONG_K), it still pays
   * (docs/notes/2026-12-nvidia-matmul-f16.md: "One K slice for the
   * shared kernel", "The second K loop into a half c's uvec2s; words for
   * a^T b, tried" and "The half bands 16 bits at a time; a b^T's halves
   * along K into a half c"). A quad read whole at a block's edge would
   * only feed results never stored, but could read past the view: the
   * tests cannot see that, so the test of the block stays exact. */
  if (block.x + BM <= gt_rows_m() && block.y + BM <= gt_cols_n()) {
    STEPS(3u, 3u)
  } else {
    STEPS(qa.last, qb.last)
  }
#else
  STEPS(qa.last, qb.last)
#endif
  uint m = block.x + FIRST_ROW(ty), n = block.y + FIRST_COL(tx);
  store_quad(m, n, acc[0]), store_quad(m, n + SIDE, acc[1]);
  store_quad(m + ROW(1u), n, acc[2]), store_quad(m + ROW(1u), n + SIDE, acc[3]);
  store_quad(m + ROW(2u), n, acc[4]), store_quad(m + ROW(2u), n + SIDE, acc[5]);
  store_quad(m + ROW(3u), n, acc[6]), store_quad(m + ROW(3u), n + SIDE, acc[7]);
  store_quad(m + ROW(4u), n, acc[8]), store_quad(m + ROW(4u), n + SIDE, acc[9]);
  store_quad(m + ROW(5u), n, acc[10]), store_quad(m + ROW(5u), n + SIDE, acc[11]);
  store_quad(m + ROW(6u), n, acc[12]), store_quad(m + ROW(6u), n + SIDE, acc[13]);
  store_quad(m + ROW(7u), n, acc[14]), store_quad(m + ROW(7u), n + SIDE, acc[15]);
}
