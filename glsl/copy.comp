/* Copy of a view into a view of the same extent. A group moves 4 runs of
 * gl_WorkGroupSize.x consecutive elements of one row; within each run the
 * invocations read and write neighbouring elements, so every access is
 * contiguous across the group. The bench uses it as the ceiling a
 * transpose is measured against: the same bytes read and written, in the
 * best order. */
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_ELEM src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { GT_ELEM dst[]; };

#define RUNS 4u

void main() {
  uvec2 tile = gt_tile();
  uint first = tile.y * RUNS * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  for (uint i = 0u; i < RUNS; i++) {
    uvec2 idx = uvec2(tile.x, first + i * gl_WorkGroupSize.x);
    if (gt_contains(0u, idx)) dst[gt_index(1u, idx)] = src[gt_index(0u, idx)];
  }
}
