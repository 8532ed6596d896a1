/* Register-blocked matmul, AUTO's kernel: each invocation keeps a 4 x 4
 * block of c in four vec4 registers and, for every k, loads 4 values of
 * op(a) and 4 of op(b) to make 16 multiply-adds: four times the work per
 * load of SIMPLE, with no shared memory and no barrier (which cost most
 * where shared memory is plain memory, as on llvmpipe and Mali).
 *
 * The grid is padded to whole blocks. Rows and columns past the matrix
 * are clamped for loading, so the K loop needs no guard, and only the
 * stores are guarded. GT_TILE = 4 x the group's side. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

void main() {
  uvec2 first = gt_tile_origin() + gt_local() * 4u;
  uvec4 m = min(uvec4(first.x) + uvec4(0u, 1u, 2u, 3u), uvec4(gt_rows_m() - 1u));
  uvec4 n = min(uvec4(first.y) + uvec4(0u, 1u, 2u, 3u), uvec4(gt_cols_n() - 1u));

  /* Index of op(a)[m][k] and op(b)[k][n] at k = 0, and their step per k. */
  uint k0 = gt_k_range.x;
  uvec4 a_from = uvec4(a_index(m.x, k0), a_index(m.y, k0), a_index(m.z, k0), a_index(m.w, k0));
  uvec4 b_from = uvec4(b_index(k0, n.x), b_index(k0, n.y), b_index(k0, n.z), b_index(k0, n.w));
#ifdef GT_TRANS_A
  uint a_step = gt_views[0].w;
#else
  uint a_step = 1u;
#endif
#ifdef GT_TRANS_B
  uint b_step = 1u;
#else
  uint b_step = gt_views[1].w;
#endif

  vec4 c0 = vec4(0.0), c1 = vec4(0.0), c2 = vec4(0.0), c3 = vec4(0.0);
  for (uint k = k0; k < gt_k_range.y; k++) {
    vec4 a = vec4(a_elem(a_from.x), a_elem(a_from.y), a_elem(a_from.z), a_elem(a_from.w));
    vec4 b = vec4(b_elem(b_from.x), b_elem(b_from.y), b_elem(b_from.z), b_elem(b_from.w));
    c0 += a.x * b;
    c1 += a.y * b;
    c2 += a.z * b;
    c3 += a.w * b;
    a_from += a_step;
    b_from += b_step;
  }
  vec4 rows[4] = vec4[4](c0, c1, c2, c3);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      store_c_guarded(first.x + uint(i), first.y + uint(j), rows[i][j]);
    }
  }
}
