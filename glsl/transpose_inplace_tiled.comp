/* Tiled in-place transpose of a square view: the aliased variant, with no
 * restrict and one read-write block (see transpose_inplace_simple.comp). The grid has a group per tile; the group
 * on tile (i, j) with i <= j loads tiles (i, j) and (j, i) into shared
 * memory and, after the barrier, writes each transposed into the other's
 * place. Groups below the diagonal own nothing, but reach the barrier like
 * everyone else (no early return). Each tile pair belongs to one group, so
 * groups never touch each other's elements.
 *
 * GT_GUARDED (TILED_PAD): partial tiles at the edge, guarded accesses.
 * GT_TRUNCATE_A: the grid covers the truncated main square M only; then,
 * as seed 000's option A, the invocations on M's last column swap their
 * rows of the right band with the matching columns of the bottom band, and
 * the one on M's last row and column transposes the corner. Tile (i, j)
 * is the group's in the group order, for the leftovers too. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

layout(std430, binding = 0) GT_RESTRICT buffer Data { GT_STORAGE data[]; };

shared GT_ELEM upper[GT_TILE][GT_TILE + 1]; /* tile (i, j) */
shared GT_ELEM lower[GT_TILE][GT_TILE + 1]; /* tile (j, i) */

#ifdef GT_GUARDED
#define LOAD(idx) guarded_read(data, 0u, idx)
#define STORE(idx, value) guarded_write(data, 0u, idx, value)
#else
#define LOAD(idx) gt_load(data, gt_index(0u, idx))
#define STORE(idx, value) gt_store(data, gt_index(0u, idx), value)
#endif

void swap_pair(uvec2 idx) {
  uint p = gt_index(0u, idx), q = gt_index(0u, idx.yx);
  GT_ELEM upper = gt_load(data, p);
  gt_store(data, p, gt_load(data, q));
  gt_store(data, q, upper);
}

void main() {
  uvec2 tile_ij = striped_tile(); /* the group order: transpose_order.glsl */
  bool owner = tile_ij.x <= tile_ij.y; /* the same for the whole group */
  uvec2 upper_origin = tile_ij * uint(GT_TILE);
  uvec2 lower_origin = tile_ij.yx * uint(GT_TILE);
  uvec2 local = gt_local();
  if (owner) {
    for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
      uvec2 at = uvec2(local.x + k, local.y);
      upper[at.x][at.y] = LOAD(upper_origin + at);
      lower[at.x][at.y] = LOAD(lower_origin + at);
    }
  }
  memoryBarrierShared();
  barrier();
  if (owner) {
    for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
      uvec2 at = uvec2(local.x + k, local.y);
      STORE(lower_origin + at, upper[at.y][at.x]);
      if (tile_ij.x != tile_ij.y) {
        STORE(upper_origin + at, lower[at.y][at.x]);
      }
    }
  }

#ifdef GT_TRUNCATE_A
  uint n = gt_extent(0u).x;
  uint m = n / uint(GT_TILE) * uint(GT_TILE);
  uvec2 first = upper_origin + local; /* this invocation's first row, and its column */
  uint last_row = first.x + uint(GT_TILE - GT_GROUP_ROWS);
  if (first.y == m - 1u) {
    /* Right band row r <-> bottom band column r. */
    for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
      for (uint col = m; col < n; col++) swap_pair(uvec2(first.x + k, col));
    }
    if (last_row == m - 1u) {
      for (uint row = m; row < n; row++) {
        for (uint col = row + 1u; col < n; col++) swap_pair(uvec2(row, col));
      }
    }
  }
#endif
}
