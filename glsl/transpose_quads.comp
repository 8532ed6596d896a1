/* AUTO's transpose where accesses cost more than cache lines (llvmpipe,
 * whose every storage access is a gather or scatter): each invocation
 * moves a 4x4 block through registers, a quad (4 elements of a row) at a
 * time. Where both views' rows start 16-byte aligned a quad is one uvec4,
 * so the block takes four uvec4 loads and four uvec4 stores, as many
 * accesses as a uvec4 copy of the same bytes, where SIMPLE makes one
 * access per element.
 *
 * GT_ELEMENTS: rows at any alignment; a quad is 4 single elements. As many
 * accesses as SIMPLE, with a sixteenth of its invocations, which pays on
 * llvmpipe (docs/notes/2026-11-llvmpipe.md, "Rows at any alignment as
 * 4x4 blocks of single elements").
 *
 * Without GT_ELEMENTS the host passes views whose cols, offset and pitch
 * count uvec4s (each a multiple of 4 elements); with it, elements. Rows
 * count elements, a multiple of 4, and so do cols with GT_ELEMENTS. The
 * grid is rounded up to whole groups, hence the guard. */
#ifdef GT_ELEMENTS
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { uint dst[]; };

const uint QUAD = 4u; /* view units a quad spans */
uvec4 load_quad(uint at) { return uvec4(src[at], src[at + 1u], src[at + 2u], src[at + 3u]); }
void store_quad(uint to, uvec4 v) {
  dst[to] = v.x;
  dst[to + 1u] = v.y;
  dst[to + 2u] = v.z;
  dst[to + 3u] = v.w;
}
#else
layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { uvec4 dst[]; };

const uint QUAD = 1u;
uvec4 load_quad(uint at) { return src[at]; }
void store_quad(uint to, uvec4 v) { dst[to] = v; }
#endif

void main() {
  uvec2 q = gt_global(); /* (block row, quad column) of the source */
  uvec4 s = gt_views[0], d = gt_views[1];
  if (q.x * 4u < s.x && q.y * QUAD < s.y) {
    uint at = s.z + q.x * 4u * s.w + q.y * QUAD;
    uvec4 a0 = load_quad(at), a1 = load_quad(at + s.w), a2 = load_quad(at + 2u * s.w),
          a3 = load_quad(at + 3u * s.w);
    /* Source columns 4 q.y + j are destination rows; source rows
     * 4 q.x .. 4 q.x + 3 are those rows' quad q.x. */
    uint to = d.z + q.y * 4u * d.w + q.x * QUAD;
    store_quad(to, uvec4(a0.x, a1.x, a2.x, a3.x));
    store_quad(to + d.w, uvec4(a0.y, a1.y, a2.y, a3.y));
    store_quad(to + 2u * d.w, uvec4(a0.z, a1.z, a2.z, a3.z));
    store_quad(to + 3u * d.w, uvec4(a0.w, a1.w, a2.w, a3.w));
  }
}
