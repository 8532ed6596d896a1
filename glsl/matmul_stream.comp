/* AUTO's product where c has at most GT_TILE rows: a batch of 1 to 8
 * inputs through a layer's weights, b. Such a product is one pass over
 * b: every element of b is read once, each quad of b multiplies all of
 * op(a)'s few rows while it is in registers, and the sums of a long K are
 * split over several invocations, which the group adds in shared memory
 * at the end. The registers kernel's 32-row tiles would compute 32 rows
 * for the one of a batch of 1.
 *
 * b^T (GT_TRANS_B, b stored N x K: each column of op(b) is a row of b),
 * the inference layout: gl_WorkGroupSize.y columns a group; the
 * gl_WorkGroupSize.x invocations of a column sum every x-th quad of K
 * along its row, so neighbouring invocations read neighbouring quads.
 * b (stored K x N): gl_WorkGroupSize.x quads of columns a group; the
 * gl_WorkGroupSize.y invocations of a quad sum every y-th k, one quad of
 * a row of b a load, beside the neighbouring quads.
 *
 * GT_VEC4_B: b's quads are single loads (a vec4, or 4 halves as a
 * uvec2; the host checks that rows and the K slice, or N, allow them),
 * else 4 elements. GT_VEC4_A (a untransposed, and b^T's quads single
 * loads too, or b untransposed for one row): a's quads along K likewise,
 * and b (not transposed) then steps 4 k at a time, one quad of a for 4
 * of b. Rows past op(a) and
 * columns past op(b) are clamped for loading and never stored, so the K
 * loop has no guard. The group count and shape are the host's
 * (dispatch_product, matmul.c; GT_MATMUL_STREAM_* in program.h). */
#ifndef GT_TILE
#error "GT_TILE (rows of c a group makes) must be defined"
#endif
#define ROWS uint(GT_TILE)

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

#ifdef GT_QUANT
#error "the stream kernel sums floats"
#endif

/* The first row of c this group makes, and row r of its rows clamped
 * into op(a). */
uint first_row() { return gt_tile().x * ROWS; }
uint row_at(uint r) { return min(first_row() + r, gt_rows_m() - 1u); }

#ifdef GT_TRANS_B
#define LANES gl_WorkGroupSize.x   /* invocations along one row of b */
#define COLUMNS gl_WorkGroupSize.y /* columns of c a group makes */

/* Each invocation's sums: [row][column][lane]. */
shared GT_SUM partial[ROWS][COLUMNS][LANES];

/* op(a)[m][k .. k + 3]. */
GT_SUM4 a_quad_at(uint m, uint k) {
#ifdef GT_VEC4_A
  return a_quad(A_AT(m, k));
#else
  return GT_SUM4(a_elem(A_AT(m, k)), a_elem(A_AT(m, k + 1u)), a_elem(A_AT(m, k + 2u)), a_elem(A_AT(m, k + 3u)));
#endif
}

/* op(b)[k .. k + 3][n]: 4 neighbours in row n of b. */
GT_SUM4 b_quad_at(uint n, uint k) {
#ifdef GT_VEC4_B
  return b_quad(B_AT(k, n));
#else
  uint at = B_AT(k, n);
  return GT_SUM4(b_elem(at), b_elem(at + 1u), b_elem(at + 2u), b_elem(at + 3u));
#endif
}

void main() {
  uint lane = gl_LocalInvocationID.x, column = gl_LocalInvocationID.y;
  uint n = gt_tile().y * COLUMNS + column, n_loaded = min(n, gt_cols_n() - 1u);
  GT_SUM sums[ROWS];
  for (uint r = 0u; r < ROWS; r++)
    sums[r] = GT_SUM(0);
  /* Whole quads of K, every LANES-th one from this lane's, then the last
   * K % 4 one k at a time (none where the quads are single loads: the
   * host keeps the slice whole quads then). */
  uint whole = gt_k_range.x + ((gt_k_range.y - gt_k_range.x) & ~3u);
  for (uint k = gt_k_range.x + 4u * lane; k < whole; k += 4u * LANES) {
    GT_SUM4 b = b_quad_at(n_loaded, k);
    for (uint r = 0u; r < ROWS; r++)
      sums[r] += dot(a_quad_at(row_at(r), k), b);
  }
#ifndef GT_VEC4_B
  for (uint k = whole + lane; k < gt_k_range.y; k += LANES) {
    GT_SUM b = b_elem(B_AT(k, n_loaded));
    for (uint r = 0u; r < ROWS; r++)
      GT_ADD_PRODUCT(sums[r], a_elem(A_AT(row_at(r), k)), b);
  }
#endif
  for (uint r = 0u; r < ROWS; r++)
    partial[r][column][lane] = sums[r];
  memoryBarrierShared();
  barrier();
  /* Lane r adds row r's sums of the column in lane order. */
  if (lane < ROWS && first_row() + lane < gt_rows_m() && n < gt_cols_n()) {
    GT_SUM sum = partial[lane][column][0];
    for (uint s = 1u; s < LANES; s++)
      sum += partial[lane][column][s];
    store_c(first_row() + lane, n, sum);
  }
}
#else
#define QUADS gl_WorkGroupSize.x  /* quads of columns of c a group makes */
#define SLICES gl_WorkGroupSize.y /* invocations along K for one quad */

/* Each invocation's sums: [slice][row][quad]. */
shared GT_SUM4 partial[SLICES][ROWS][QUADS];

/* op(b)[k][n .. n + 3]; under GT_VEC4_B N is whole quads (the host
 * checks), so the last quad is whole. */
GT_SUM4 b_quad_at(uint k, uint n) {
#ifdef GT_VEC4_B
  return b_quad(B_AT(k, min(n, gt_cols_n() - 4u)));
#else
  uvec4 at = min(uvec4(n) + uvec4(0u, 1u, 2u, 3u), uvec4(gt_cols_n() - 1u));
  return GT_SUM4(b_elem(B_AT(k, at.x)), b_elem(B_AT(k, at.y)), b_elem(B_AT(k, at.z)), b_elem(B_AT(k, at.w)));
#endif
}

void main() {
  uint quad = gl_LocalInvocationID.x, slice = gl_LocalInvocationID.y;
  uint n = (gt_tile().y * QUADS + quad) * 4u;
  GT_SUM4 sums[ROWS];
  for (uint r = 0u; r < ROWS; r++)
    sums[r] = GT_SUM4(0);
#ifdef GT_VEC4_A
  /* 4 k a step: each row's quad of a along K is one load for 4 of b's
   * (the host keeps the slice whole quads). */
  for (uint k = gt_k_range.x + 4u * slice; k < gt_k_range.y; k += 4u * SLICES) {
    GT_SUM4 b0 = b_quad_at(k, n), b1 = b_quad_at(k + 1u, n), b2 = b_quad_at(k + 2u, n), b3 = b_quad_at(k + 3u, n);
    for (uint r = 0u; r < ROWS; r++) {
      GT_SUM4 a = a_quad(A_AT(row_at(r), k));
      sums[r] += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
    }
  }
#else
  for (uint k = gt_k_range.x + slice; k < gt_k_range.y; k += SLICES) {
    GT_SUM4 b = b_quad_at(k, n);
    for (uint r = 0u; r < ROWS; r++)
      GT_ADD_PRODUCT(sums[r], GT_SUM4(a_elem(A_AT(row_at(r), k))), b);
  }
#endif
  for (uint r = 0u; r < ROWS; r++)
    partial[slice][r][quad] = sums[r];
  memoryBarrierShared();
  barrier();
  /* Slice r adds row r's sums of the quad in slice order (SLICES >= ROWS). */
  uint m = first_row() + slice;
  if (slice < ROWS && m < gt_rows_m()) {
    GT_SUM4 sum = partial[0][slice][quad];
    for (uint s = 1u; s < SLICES; s++)
      sum += partial[s][slice][quad];
    for (uint j = 0u; j < 4u; j++)
      if (n + j < gt_cols_n()) store_c(m, n + j, sum[j]);
  }
}
#endif
