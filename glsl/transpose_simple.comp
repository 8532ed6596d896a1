/* SIMPLE transpose (seed 003, transpose_simple): one invocation per
 * element. The grid is rounded up to whole groups, so the read is guarded
 * against the source's extent; the destination element then exists too. */
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_STORAGE src[]; };
layout(std430, binding = 1) GT_WRITEONLY GT_RESTRICT buffer Dst { GT_STORAGE dst[]; };

void main() {
  uvec2 idx = gt_global();
  if (gt_contains(0u, idx)) {
    gt_store(dst, gt_index(1u, idx.yx), gt_load(src, gt_index(0u, idx)));
  }
}
