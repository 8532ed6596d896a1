/* Copy of a view into a view of the same extent. A group moves 4 runs of
 * gl_WorkGroupSize.x consecutive units of one row: elements, or with
 * packed elements (GT_PACK > 1) the destination words the row touches.
 * Within each run the invocations read and write neighbours, so every
 * access is contiguous across the group. The bench uses it as the ceiling
 * a transpose is measured against: the same bytes read and written, in
 * the best order. */
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_STORAGE src[]; };
layout(std430, binding = 1) GT_WRITEONLY GT_RESTRICT buffer Dst { GT_STORAGE dst[]; };

#define RUNS 4u

void main() {
  uvec2 tile = gt_tile();
  uint first = tile.y * RUNS * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
#if GT_PACK == 1
  for (uint i = 0u; i < RUNS; i++) {
    uvec2 idx = uvec2(tile.x, first + i * gl_WorkGroupSize.x);
    if (gt_contains(0u, idx)) dst[gt_index(1u, idx)] = src[gt_index(0u, idx)];
  }
#else
  /* The invocation owns words of the destination row: a whole word inside
   * the row is a plain store, the row's edge words are atomics on the
   * row's bits (transpose_tiled.comp's write_row_words, reading src). */
  uvec2 extent = gt_extent(0u);
  if (tile.x >= extent.x) return;
  uint row_first = gt_index(1u, uvec2(tile.x, 0u));
  for (uint i = 0u; i < RUNS; i++) {
    uint w = row_first / uint(GT_PACK) + first + i * gl_WorkGroupSize.x;
    uint word = 0u, mask = 0u;
    for (uint p = 0u; p < uint(GT_PACK); p++) {
      uint col = w * uint(GT_PACK) + p - row_first; /* wraps past extent.y before the row */
      if (col < extent.y) {
        word |= gt_load(src, gt_index(0u, uvec2(tile.x, col))) << (p * GT_BITS);
        mask |= GT_MASK << (p * GT_BITS);
      }
    }
    gt_store_word(dst, w, word, mask);
  }
#endif
}
