/* Register-blocked matmul without shared memory or barriers: AUTO's
 * kernel on mobile GPUs (Mali, Adreno, VideoCore), and on others for
 * products too small for the shared kernel. 8 x 8 invocations, each
 * keeping a 4 x 4 block of c in four vec4 registers: the shape the mobile
 * GEMM libraries use (4x4 to 4x8 results, 64 to 128 invocations, no shared
 * memory), which the Mali, Adreno and V3D compilers keep free of spills
 * (their statistics: docs/performance.md, "Mali, Adreno and VideoCore").
 *
 * Per 4 steps of K an invocation loads 4 quads of op(a) and 4 of op(b)
 * and makes 64 multiply-adds. A quad is 4 elements adjacent in the stored
 * matrix: along K where the operand is stored untransposed (a) or
 * transposed (b), across K otherwise, as in the shared kernel. Where a
 * view allows (GT_VEC4_A, _B: rows 16-byte aligned and no quad straddling
 * an edge of the view or of the K slice; the host checks) a quad is one
 * vec4 load, else 4 float loads; GT_VEC4_C writes c's rows of 4 results
 * as vec4s. Quads across K are the outer-product form and need the
 * fewest registers (a^T b: 4 + 4 values live per k); along K, the 4 x 4
 * values of a step are regrouped in registers, which costs nothing on the
 * scalar GPUs this is for.
 *
 * Rows of op(a) and columns of op(b) past the matrix are clamped for
 * loading, so the K loop has no guard; only the stores are guarded. K
 * runs 4 at a time, then one at a time for the last K % 4. GT_K1 runs
 * every k on its own, with quads only across K: 16 results and 8 values
 * live, within the 32 registers at which Mali Bifrost and Valhall keep
 * their full thread count (4 at a time holds 48).
 * GT_HALF_SUMS keeps them in mediump vec4s (half registers where the
 * compiler has them).
 * GT_QUANT sums 8-bit products in ivec4s (GT_SUM4) the same way; its
 * quads moving whole (GT_VEC4_A, _B) are one word of 4 bytes each, its
 * other quads across K a run of 4 bytes from two words (GT_RUN4).
 * GT_TILE = 4 x the group's side. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

/* op(a)[m][k] and op(b)[k][n] in their stored views. */
#ifdef GT_TRANS_A
#define A_AT(m, k) gt_index(0u, uvec2(k, m))
#else
#define A_AT(m, k) gt_index(0u, uvec2(m, k))
#endif
#ifdef GT_TRANS_B
#define B_AT(k, n) gt_index(1u, uvec2(n, k))
#else
#define B_AT(k, n) gt_index(1u, uvec2(k, n))
#endif

/* The preamble's derived choices (src/plan/matmul_derived.c): GT_K_WHOLE, an
 * operand moving as vec4s along K makes the K slice whole quads (the host
 * checks), so no K % 4 steps are left; GT_SUM_COLUMNS, 8-bit operands one
 * k a step with b stored transposed: b's 4 bytes of a k lie in 4 rows, 4
 * loads each with its own shift. The sums are then kept by column (c0
 * holds column 0 of the block), so each of b's bytes multiplies a's quad
 * as it arrives and b's 4 are never live together: the Mali-G57 runs 2
 * threads, not 1, where a's quads are whole words. Each result sees the
 * same operations in the same order as by rows. For halves it cost the
 * Adreno 660 waves (compiler statistics). */

/* One element of a or b, wherever the operand is declared as vec4s. */
#if defined(GT_VEC4_A) && !defined(GT_QUANT) && !defined(GT_HALF)
float a_one(uint i) { return a4[i >> 2u][i & 3u]; }
#else
GT_SUM a_one(uint i) { return a_elem(i); }
#endif
#if defined(GT_VEC4_B) && !defined(GT_QUANT) && !defined(GT_HALF)
float b_one(uint i) { return b4[i >> 2u][i & 3u]; }
#else
GT_SUM b_one(uint i) { return b_elem(i); }
#endif

/* Rows m.x..m.w, or columns n.x..n.w, from `first`, clamped into the
 * extent: loads need no guard. */
uvec4 clamped(uint first, uint extent) { return min(uvec4(first) + uvec4(0u, 1u, 2u, 3u), uvec4(extent - 1u)); }

/* op(a)[m][k] for the 4 rows m at one k, and op(b)[k][n] for the 4
 * columns n: one vec4 where that is a quad moving as a vec4 (a stored
 * transposed, b not), else 4 elements. As a vec4 the quad starts at m.x
 * (n.x): where the first row lies past the matrix, the clamped index
 * rounds down to the last quad, which is whole (the host checks). */
GT_SUM4 a_at_k(uvec4 m, uint k) {
#if defined(GT_TRANS_A) && defined(GT_VEC4_A)
  return a_quad(A_AT(m.x, k));
#elif defined(GT_TRANS_A) && defined(GT_QUANT)
  return GT_BYTES4(GT_RUN4(a_words, A_AT(m.x, k), A_AT(m.w, k))) - gt_zero_points.x;
#elif defined(GT_TRANS_A) && defined(GT_HALF) && !defined(GT_HALF_TEXELS)
  return GT_HALF_RUN4(a_words, A_AT(m.x, k), A_AT(m.w, k));
#else
  return GT_SUM4(a_one(A_AT(m.x, k)), a_one(A_AT(m.y, k)), a_one(A_AT(m.z, k)), a_one(A_AT(m.w, k)));
#endif
}
GT_SUM4 b_at_k(uvec4 n, uint k) {
#if !defined(GT_TRANS_B) && defined(GT_VEC4_B)
  return b_quad(B_AT(k, n.x));
#elif !defined(GT_TRANS_B) && defined(GT_QUANT)
  return GT_BYTES4(GT_RUN4(b_words, B_AT(k, n.x), B_AT(k, n.w))) - gt_zero_points.y;
#elif !defined(GT_TRANS_B) && defined(GT_HALF) && !defined(GT_HALF_TEXELS)
  return GT_HALF_RUN4(b_words, B_AT(k, n.x), B_AT(k, n.w));
#else
  return GT_SUM4(b_one(B_AT(k, n.x)), b_one(B_AT(k, n.y)), b_one(B_AT(k, n.z)), b_one(B_AT(k, n.w)));
#endif
}

/* The step's values at k, regrouped per k: a_k[j] = op(a)[m][k + j] for
 * the 4 rows m, b_k[j] = op(b)[k + j][n] for the 4 columns n. Across K a
 * quad is already one k's 4 rows (columns); along K it is one row's
 * (column's) 4 k. */
void load_a(uvec4 m, uint k, out GT_SUM4 a_k[4]) {
#ifdef GT_TRANS_A
  for (uint j = 0u; j < 4u; j++) a_k[j] = a_at_k(m, k + j);
#else
  GT_SUM4 r[4];
  for (uint i = 0u; i < 4u; i++) {
    uint at = A_AT(m[i], k);
#ifdef GT_VEC4_A
    r[i] = a_quad(at);
#else
    r[i] = GT_SUM4(a_elem(at), a_elem(at + 1u), a_elem(at + 2u), a_elem(at + 3u));
#endif
  }
  for (uint j = 0u; j < 4u; j++) a_k[j] = GT_SUM4(r[0][j], r[1][j], r[2][j], r[3][j]);
#endif
}
void load_b(uvec4 n, uint k, out GT_SUM4 b_k[4]) {
#ifndef GT_TRANS_B
  for (uint j = 0u; j < 4u; j++) b_k[j] = b_at_k(n, k + j);
#else
  GT_SUM4 s[4];
  for (uint i = 0u; i < 4u; i++) {
    uint at = B_AT(k, n[i]);
#ifdef GT_VEC4_B
    s[i] = b_quad(at);
#else
    s[i] = GT_SUM4(b_elem(at), b_elem(at + 1u), b_elem(at + 2u), b_elem(at + 3u));
#endif
  }
  for (uint j = 0u; j < 4u; j++) b_k[j] = GT_SUM4(s[0][j], s[1][j], s[2][j], s[3][j]);
#endif
}

/* The invocation's 4 x 4 block of sums, row i in ci (GT_SUM_COLUMNS:
 * column i). The steps add into these, not into inout parameters: with
 * those, the Mali-G57's compiler (Mesa 22.3.6) ran 10 of the 8-bit
 * programs summing by columns at 1 thread, not 2 (compiler statistics). */
GT_SUM4 c0, c1, c2, c3;

/* Four k from k (the quads' step): 64 multiply-adds into the block. */
void step4(uvec4 m, uvec4 n, uint k) {
  GT_SUM4 a_k[4], b_k[4];
  load_a(m, k, a_k);
  load_b(n, k, b_k);
  for (uint j = 0u; j < 4u; j++) {
    GT_ADD_PRODUCT(c0, a_k[j].x, b_k[j]);
    GT_ADD_PRODUCT(c1, a_k[j].y, b_k[j]);
    GT_ADD_PRODUCT(c2, a_k[j].z, b_k[j]);
    GT_ADD_PRODUCT(c3, a_k[j].w, b_k[j]);
  }
}

/* One k: 16 multiply-adds into the block; a quad across K is one vec4
 * here too. The clamped rows and columns are computed again here, inside
 * the loop: kept from before it they held 5 more registers through it
 * (Mali-G52: 35, one thread). */
void step1(uvec2 first, uint rows_m, uint cols_n, uint k) {
  GT_SUM4 a = a_at_k(clamped(first.x, rows_m), k);
#ifdef GT_SUM_COLUMNS
  /* Each column clamped where its byte is loaded: as one uvec4 before
   * the loads, the 4 were live together and the Mali-G57 ran these
   * programs at 1 thread, not 2 (compiler statistics). */
  uint last = cols_n - 1u;
  GT_ADD_PRODUCT(c0, b_one(B_AT(k, min(first.y, last))), a);
  GT_ADD_PRODUCT(c1, b_one(B_AT(k, min(first.y + 1u, last))), a);
  GT_ADD_PRODUCT(c2, b_one(B_AT(k, min(first.y + 2u, last))), a);
  GT_ADD_PRODUCT(c3, b_one(B_AT(k, min(first.y + 3u, last))), a);
#else
  GT_SUM4 b = b_at_k(clamped(first.y, cols_n), k);
  GT_ADD_PRODUCT(c0, a.x, b);
  GT_ADD_PRODUCT(c1, a.y, b);
  GT_ADD_PRODUCT(c2, a.z, b);
  GT_ADD_PRODUCT(c3, a.w, b);
#endif
}

/* GT_MEASURE_STEP (set only by `gltile compile`, never by a plan; the
 * program is compiled, never run): a second copy of the main loop after
 * it, so the compiler's counts of this program less those of the same
 * program without it are one pass of the loop. In a loop of its own the
 * copy shares no loads or clamps with the first, as a second step
 * written in the same pass would. */

#ifdef GT_INTERIOR
/* GT_INTERIOR (with GT_K1; f32 a b, neither transposed): the program for
 * whole tiles of c only, the host sending the rows and columns past them
 * to the guarded program. Every row of a and column of b an invocation
 * reads is then inside the views, so nothing is clamped: one offset into
 * a and one into b, moved on each pass, a's 4 rows a pitch apart; and two
 * k a pass, whose two elements of a row of a the Adreno compilers load as
 * one (compiler statistics: docs/notes/2026-12-mobile-k-steps.md). The
 * sums take the products in the order step1 does.
 * With GT_HALF (and GT_VEC4_B: b's rows as uvec2s) the two k of a row of
 * a are one word and b's row of 4 one uvec2, loads the Mali compilers do
 * not merge from single elements: a's rows start on a word and b's on 8
 * bytes (the host checks). */
#ifdef GT_HALF
vec4 b_row(uint at) { return b_quad(at); }
vec2 a_pair(uint at) { return unpackHalf2x16(a_words[at >> 1u]); }
float a_first(uint at) { return a_pair(at).x; }
#else
vec4 b_row(uint at) { return vec4(b_data[at], b_data[at + 1u], b_data[at + 2u], b_data[at + 3u]); }
vec2 a_pair(uint at) { return vec2(a_data[at], a_data[at + 1u]); }
float a_first(uint at) { return a_data[at]; }
#endif

/* Two k into the block: a's rows at at_a (k, k + 1), b's rows at at_b. */
void pass2(uint at_a, uint at_b) {
  uint pitch_a = gt_views[0].w;
  vec4 b0 = b_row(at_b), b1 = b_row(at_b + gt_views[1].w);
  vec2 a0 = a_pair(at_a), a1 = a_pair(at_a + pitch_a), a2 = a_pair(at_a + 2u * pitch_a),
       a3 = a_pair(at_a + 3u * pitch_a);
  GT_ADD_PRODUCT(c0, a0.x, b0);
  GT_ADD_PRODUCT(c1, a1.x, b0);
  GT_ADD_PRODUCT(c2, a2.x, b0);
  GT_ADD_PRODUCT(c3, a3.x, b0);
  GT_ADD_PRODUCT(c0, a0.y, b1);
  GT_ADD_PRODUCT(c1, a1.y, b1);
  GT_ADD_PRODUCT(c2, a2.y, b1);
  GT_ADD_PRODUCT(c3, a3.y, b1);
}

/* The sums of k in [k, k_end) for the block at `first`. The passes count
 * down: no k is kept through the loop (on the Adreno 660, one register
 * fewer for the same waves). */
void interior_sums(uvec2 first, uint k, uint k_end) {
  uint at_a = A_AT(first.x, k), at_b = B_AT(k, first.y), step_b = 2u * gt_views[1].w;
  for (uint passes = (k_end - k) >> 1u; passes != 0u; passes--) {
    pass2(at_a, at_b);
    at_a += 2u;
    at_b += step_b;
  }
#ifdef GT_MEASURE_STEP
  uint again_a = A_AT(first.x, k), again_b = B_AT(k, first.y);
  for (uint passes = (k_end - k) >> 1u; passes != 0u; passes--) {
    pass2(again_a, again_b);
    again_a += 2u;
    again_b += step_b;
  }
#endif
  /* An odd K's last k. Its parity from the uniforms again, as an XOR: the
   * difference would be the one taken before the loop, a register held
   * through it (the Mali-G57's compiler, Mesa 25.0.7: 33 registers, 1
   * thread, with halves). */
  if (((gt_k_range.x ^ gt_k_range.y) & 1u) != 0u) {
    vec4 b = b_row(at_b);
    uint pitch_a = gt_views[0].w;
    GT_ADD_PRODUCT(c0, a_first(at_a), b);
    GT_ADD_PRODUCT(c1, a_first(at_a + pitch_a), b);
    GT_ADD_PRODUCT(c2, a_first(at_a + 2u * pitch_a), b);
    GT_ADD_PRODUCT(c3, a_first(at_a + 3u * pitch_a), b);
  }
}
#endif

#ifdef GT_VEC4_C
/* c's row of 4 at vec4 `at` (element (row, col)): scaled, then finished. */
void store_quad_c(uint at, uint row, uint col, vec4 sums) {
  vec4 value = gt_scale.x * sums;
  if (gt_scale.y != 0.0) value += gt_scale.y * c4[at];
  c4[at] = gt_finish4(row, col, value);
}
#endif

void main() {
  uvec2 first = gt_tile_origin() + gt_local() * 4u;
  uint rows_m = gt_rows_m(), cols_n = gt_cols_n();
  /* The rows of op(a) and columns of op(b) this invocation loads. */
  uvec4 m = clamped(first.x, rows_m), n = clamped(first.y, cols_n);

  c0 = c1 = c2 = c3 = GT_SUM4(0);
#ifdef GT_INTERIOR
#ifdef GT_STORE_FROM_INDEX
  /* Derived (src/plan/matmul_derived.c) for interior halves with no epilogue.
   * The block lies inside c, so the stores of halves' sums need no guard,
   * only c's index at its first element: one value kept through the
   * loop, not its row, column and layer (the Mali-G57's compiler, Mesa
   * 25.0.7, ran the batched halves at 1 thread, not 2). The epilogue needs
   * the row and column anyway: with the index too, 1 thread. Floats keep
   * the guarded stores: so stored, ir3 (Mesa 22.3.6) scheduled the Adreno
   * 630's loop 5 instructions a k longer (compiler statistics). */
  uint at_c = gt_index(2u, first);
#endif
  interior_sums(first, gt_k_range.x, gt_k_range.y);
#else
  uint k = gt_k_range.x, k_end = gt_k_range.y;
#ifndef GT_K1
  for (; k + 4u <= k_end; k += 4u) step4(m, n, k);
#ifdef GT_MEASURE_STEP
  for (uint again = gt_k_range.x; again + 4u <= k_end; again += 4u) step4(m, n, again);
#endif
#endif
#ifndef GT_K_WHOLE
  /* The last K % 4 steps (under GT_K1 every step), one k at a time. */
  for (; k < k_end; k++) step1(first, rows_m, cols_n, k);
#if defined(GT_MEASURE_STEP) && defined(GT_K1)
  for (uint again = gt_k_range.x; again < k_end; again++) step1(first, rows_m, cols_n, again);
#endif
#endif
#endif

#ifdef GT_SUM_COLUMNS
  GT_SUM4 rows[4] = GT_SUM4[4](GT_SUM4(c0.x, c1.x, c2.x, c3.x), GT_SUM4(c0.y, c1.y, c2.y, c3.y),
                               GT_SUM4(c0.z, c1.z, c2.z, c3.z), GT_SUM4(c0.w, c1.w, c2.w, c3.w));
#else
  GT_SUM4 rows[4] = GT_SUM4[4](c0, c1, c2, c3);
#endif
  for (uint i = 0u; i < 4u; i++) {
    uint row = first.x + i;
#ifdef GT_STORE_FROM_INDEX
    store_quad_c((at_c + i * gt_views[2].w) >> 2u, row, first.y, rows[i]);
#elif defined(GT_VEC4_C)
    /* N is whole quads, so a row's 4 results lie wholly inside or outside. */
    if (row < rows_m && first.y < cols_n) store_quad_c(gt_index(2u, uvec2(row, first.y)) >> 2u, row, first.y, rows[i]);
#else
    for (uint j = 0u; j < 4u; j++) store_c_guarded(row, first.y + j, rows[i][j]);
#endif
  }
}
