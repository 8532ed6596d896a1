/* TILED_EVEN and TILED_PAD transpose (seeds 001, 003). A group moves one
 * GT_TILE x GT_TILE tile through shared memory, so both the read of the
 * source rows and the write of the destination rows are contiguous.
 * A group has GT_TILE x GT_GROUP_ROWS invocations; each moves every
 * GT_GROUP_ROWS-th row of the tile, so a 32-tile fits 128 invocations.
 *
 * GT_GUARDED (TILED_PAD): the grid is padded to whole tiles and every
 * global access is guarded; the barrier stays in uniform control flow. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_ELEM src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { GT_ELEM dst[]; };

/* One spare column: reading a column of the tile then touches GT_TILE
 * different banks instead of one. */
shared GT_ELEM tile[GT_TILE][GT_TILE + 1];

/* Groups are taken in stripes of gt_stripe_tiles tile rows: down a
 * stripe's column of tiles, then the next column (1 = plain row order).
 * In plain order the groups running together write destination rows a
 * tile row apart each, spread over the whole destination when its rows
 * are long; down a stripe they fill the same few destination rows (the
 * figures behind the library's choice: docs/performance.md). A bijection
 * within each dispatch, so grids split by the group-count limit stay
 * whole. */
uniform uint gt_stripe_tiles;

uvec2 striped_tile() {
  uint stripe_rows = max(gt_stripe_tiles, 1u);
  uvec2 groups = gl_NumWorkGroups.xy;
  uint linear = gl_WorkGroupID.y * groups.x + gl_WorkGroupID.x;
  uint stripe = linear / (stripe_rows * groups.x);
  uint first_row = stripe * stripe_rows;
  uint rows = min(stripe_rows, groups.y - first_row);
  uint within = linear - stripe * stripe_rows * groups.x;
  uvec2 tile_in_dispatch = uvec2(first_row + within % rows, within / rows);
  return tile_in_dispatch + uvec2(gt_group_base.y, gt_group_base.x);
}

void main() {
  uvec2 origin = striped_tile() * uvec2(GT_TILE_ROWS, GT_TILE_COLS);
  uvec2 local = gt_local();
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    uvec2 idx = origin + uvec2(local.x + k, local.y);
#ifdef GT_GUARDED
    tile[local.x + k][local.y] = guarded_read(src, 0u, idx);
#else
    tile[local.x + k][local.y] = src[gt_index(0u, idx)];
#endif
  }
  memoryBarrierShared();
  barrier();
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    /* Destination row = source column: the tile's origin swaps. */
    uvec2 idx = origin.yx + uvec2(local.x + k, local.y);
    GT_ELEM value = tile[local.y][local.x + k];
#ifdef GT_GUARDED
    guarded_write(dst, 1u, idx, value);
#else
    dst[gt_index(1u, idx)] = value;
#endif
  }
}
