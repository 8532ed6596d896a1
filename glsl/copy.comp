/* Copy of a view into a view of the same extent: each invocation moves 4
 * consecutive elements of a row, reads and writes both contiguous across
 * the group. The bench uses it as the ceiling a transpose is measured
 * against: the same bytes read and written, in the best order. */
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_ELEM src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { GT_ELEM dst[]; };

void main() {
  uvec2 idx = gt_global() * uvec2(1u, 4u);
  uvec2 extent = gt_extent(0u);
  if (idx.x < extent.x) {
    uint from = gt_index(0u, idx), to = gt_index(1u, idx);
    uint count = min(4u, extent.y - min(idx.y, extent.y));
    for (uint i = 0u; i < count; i++) dst[to + i] = src[from + i];
  }
}
