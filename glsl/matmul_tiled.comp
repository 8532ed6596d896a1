/* TILED_EVEN and TILED_PAD matmul (seed 002's tiled multiply). A group
 * computes a GT_TILE x GT_TILE block of c: for each GT_TILE-wide step of
 * K it stages a tile of op(a) and one of op(b) in shared memory, waits,
 * and accumulates from there, so each global element is read once per
 * group instead of once per invocation. The group has GT_GROUP_ROWS rows
 * of invocations; each owns every GT_GROUP_ROWS-th row of the block.
 *
 * GT_GUARDED (TILED_PAD): loads outside the matrices give zero and stores
 * are guarded; the K loop bounds are uniform, so every barrier is reached
 * by the whole group. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif
#define ROWS_PER_INVOCATION (GT_TILE / GT_GROUP_ROWS)

/* No spare column (unlike the transpose's tile): both tiles are written
 * along their rows and read along their rows (a_tile one element for a
 * whole row of invocations, b_tile neighbouring elements), never down a
 * column, so there is no bank conflict for one to avoid. */
shared GT_SUM a_tile[GT_TILE][GT_TILE]; /* [m][k] */
shared GT_SUM b_tile[GT_TILE][GT_TILE]; /* [k][n] */

void main() {
  uvec2 origin = gt_tile_origin();
  uvec2 local = gt_local();
  GT_SUM sum[ROWS_PER_INVOCATION];
  for (int j = 0; j < ROWS_PER_INVOCATION; j++) sum[j] = GT_SUM(0);

  for (uint k0 = gt_k_range.x; k0 < gt_k_range.y; k0 += uint(GT_TILE)) {
    for (int j = 0; j < ROWS_PER_INVOCATION; j++) {
      uint r = local.x + uint(j * GT_GROUP_ROWS);
#ifdef GT_GUARDED
      a_tile[r][local.y] = a_guarded(origin.x + r, k0 + local.y);
      b_tile[r][local.y] = b_guarded(k0 + r, origin.y + local.y);
#else
      a_tile[r][local.y] = a_elem(a_index(origin.x + r, k0 + local.y));
      b_tile[r][local.y] = b_elem(b_index(k0 + r, origin.y + local.y));
#endif
    }
    memoryBarrierShared();
    barrier();
    for (int kk = 0; kk < GT_TILE; kk++) {
      GT_SUM b = b_tile[kk][local.y];
      for (int j = 0; j < ROWS_PER_INVOCATION; j++) {
        GT_ADD_PRODUCT(sum[j], a_tile[int(local.x) + j * GT_GROUP_ROWS][kk], b);
      }
    }
    /* The next step overwrites the tiles everyone is reading. */
    barrier();
  }
  for (int j = 0; j < ROWS_PER_INVOCATION; j++) {
    uint m = origin.x + local.x + uint(j * GT_GROUP_ROWS);
#ifdef GT_GUARDED
    store_c_guarded(m, origin.y + local.y, sum[j]);
#else
    store_c(m, origin.y + local.y, sum[j]);
#endif
  }
}
