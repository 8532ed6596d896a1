/* SIMPLE in-place transpose of a square view. src and dst are one view,
 * so this is the aliased variant: no restrict, and one read-write block,
 * since a compiler may move a load from a readonly block past a store to
 * another block (Mesa does). The invocation at (r, c) with r < c swaps
 * the pair, so every pair is swapped exactly once.
 * The grid can cover a part of the matrix: gt_grid_origin is the element
 * its first invocation stands on (TRUNCATE_B dispatches only the bands). */
layout(std430, binding = 0) GT_RESTRICT buffer Data { GT_STORAGE data[]; };

uniform uvec2 gt_grid_origin;

void main() {
  uvec2 idx = gt_global() + gt_grid_origin;
  if (idx.x < idx.y && idx.y < gt_extent(0u).y) {
    uint p = gt_index(0u, idx), q = gt_index(0u, idx.yx);
    GT_ELEM upper = gt_load(data, p);
    gt_store(data, p, gt_load(data, q));
    gt_store(data, q, upper);
  }
}
