/* Copy of a run of whole uvec4s: the bulk of a copy between two views
 * without gaps whose starts are 16-byte aligned within their bindings.
 * Each invocation moves 4 uvec4s gl_WorkGroupSize.x apart, so the group's
 * accesses are contiguous. gt_views[v].y counts uvec4s here and the
 * offsets are in uvec4s too. */
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { uvec4 dst[]; };

#define RUNS 4u

void main() {
  uint first = gt_tile().y * RUNS * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  uint count = gt_extent(0u).y;
  for (uint i = 0u; i < RUNS; i++) {
    uint at = first + i * gl_WorkGroupSize.x;
    if (at < count) dst[gt_views[1].z + at] = src[gt_views[0].z + at];
  }
}
