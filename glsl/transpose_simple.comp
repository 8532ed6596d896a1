/* SIMPLE transpose (seed 003, transpose_simple): one invocation per
 * element. The grid is rounded up to whole groups, so the read is guarded
 * against the source's extent; the destination element then exists too. */
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_ELEM src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { GT_ELEM dst[]; };

void main() {
  uvec2 idx = gt_global();
  if (gt_contains(0u, idx)) {
    dst[gt_index(1u, idx.yx)] = src[gt_index(0u, idx)];
  }
}
