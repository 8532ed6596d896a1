/* AUTO's transpose where accesses cost more than cache lines (llvmpipe,
 * whose every storage access is a gather or scatter): each invocation
 * moves a 4x4 block through registers with four uvec4 loads and four
 * uvec4 stores, as many accesses as a uvec4 copy of the same bytes, where
 * SIMPLE makes one access per element.
 *
 * The host passes views whose cols, offset and pitch count uvec4s (each a
 * multiple of 4 elements); rows count elements, a multiple of 4. The grid
 * is rounded up to whole groups, hence the guard. */
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { uvec4 dst[]; };

void main() {
  uvec2 q = gt_global(); /* (block row, uvec4 column) of the source */
  uvec4 s = gt_views[0], d = gt_views[1];
  if (q.x * 4u < s.x && q.y < s.y) {
    uint at = s.z + q.x * 4u * s.w + q.y;
    uvec4 a0 = src[at], a1 = src[at + s.w], a2 = src[at + 2u * s.w], a3 = src[at + 3u * s.w];
    /* Source columns 4 q.y + j are destination rows; source rows
     * 4 q.x .. 4 q.x + 3 are those rows' uvec4 q.x. */
    uint to = d.z + q.y * 4u * d.w + q.x;
    dst[to] = uvec4(a0.x, a1.x, a2.x, a3.x);
    dst[to + d.w] = uvec4(a0.y, a1.y, a2.y, a3.y);
    dst[to + 2u * d.w] = uvec4(a0.z, a1.z, a2.z, a3.z);
    dst[to + 3u * d.w] = uvec4(a0.w, a1.w, a2.w, a3.w);
  }
}
