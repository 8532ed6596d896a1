/* The group order of the tiled transposes (out of place, in place, images).
 *
 * Groups are taken in stripes of gt_stripe_tiles tile rows: down a
 * stripe's column of tiles, then the next column (1 = plain row order).
 * In plain order the groups running together touch destination rows a
 * tile row apart each, spread over the whole destination when its rows
 * are long, and each long row is a page of its own; down a stripe they
 * fill the same few destination rows. The host sizes the stripes
 * (docs/performance.md, "What to do and avoid on NVIDIA"). A bijection
 * within each dispatch, so grids split by the group-count limit stay
 * whole. */
uniform uint gt_stripe_tiles;

uvec2 striped_tile() {
  /* Plain order without the arithmetic (a uniform branch). */
  if (gt_stripe_tiles <= 1u) return gt_tile();
  uint stripe_rows = gt_stripe_tiles;
  uvec2 groups = gl_NumWorkGroups.xy;
  uint linear = gl_WorkGroupID.y * groups.x + gl_WorkGroupID.x;
  uint stripe = linear / (stripe_rows * groups.x);
  uint first_row = stripe * stripe_rows;
  uint rows = min(stripe_rows, groups.y - first_row);
  uint within = linear - stripe * stripe_rows * groups.x;
  uvec2 tile_in_dispatch = uvec2(first_row + within % rows, within / rows);
  return tile_in_dispatch + uvec2(gt_group_base.y, gt_group_base.x);
}
