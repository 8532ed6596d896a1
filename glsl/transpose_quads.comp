/* AUTO's transpose where accesses cost more than cache lines (llvmpipe,
 * whose every storage access is a gather or scatter) and on the mobile
 * GPUs: each invocation moves a 4x4 block through registers, a quad (4
 * elements of a row) at a time, with no shared memory and no barrier.
 * Where both views' rows start 16-byte aligned a quad is one uvec4, so the
 * block takes four uvec4 loads and four uvec4 stores, as many accesses as
 * a uvec4 copy of the same bytes, where SIMPLE makes one access per
 * element.
 *
 * GT_ELEMENTS: rows at any alignment; a quad is 4 single elements. As many
 * accesses as SIMPLE, with a sixteenth of its invocations, which pays on
 * llvmpipe (docs/notes/2026-11-llvmpipe.md, "Rows at any alignment as
 * 4x4 blocks of single elements"); Adreno's compiler merges the four loads
 * of a quad into one.
 *
 * GT_PAIRS: two blocks an invocation, the second below the first, so the
 * index arithmetic, the guard and the program's fixed cost serve 32
 * elements, not 16 (docs/notes/2026-12-mobile-transposes.md).
 *
 * Without GT_ELEMENTS the host passes views whose cols, offset and pitch
 * count uvec4s (each a multiple of 4 elements); with it, elements. Rows
 * count elements, a multiple of BLOCK_ROWS, and so do cols with
 * GT_ELEMENTS. The grid is rounded up to whole groups, hence the guard.
 *
 * With GT_PAIRS (the mobile entries' programs) the source block has neither
 * readonly nor restrict: with them, Mesa 25's ir3 fetches it through the
 * texture unit, one element a fetch on the Adreno 630 (four times the
 * memory instructions, 10 of 16 waves), and the Valhall compiler ran the
 * uvec4 pairs at 1 thread of 2; the other counts were the same either
 * way. */
#ifdef GT_PAIRS
#define SRC_ACCESS
#else
#define SRC_ACCESS readonly GT_RESTRICT
#endif
#ifdef GT_ELEMENTS
layout(std430, binding = 0) SRC_ACCESS buffer Src { uint src[]; };
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
layout(std430, binding = 0) SRC_ACCESS buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { uvec4 dst[]; };

const uint QUAD = 1u;
uvec4 load_quad(uint at) { return src[at]; }
void store_quad(uint to, uvec4 v) { dst[to] = v; }
#endif

#ifdef GT_PAIRS
const uint BLOCKS = 2u;
#else
const uint BLOCKS = 1u;
#endif
const uint BLOCK_ROWS = 4u * BLOCKS; /* source rows an invocation moves */

/* A 4x4 block: four quads of source rows a pitch apart, and out as four
 * quads of destination rows, source columns becoming destination rows. */
void load_block(uint at, uint pitch, out uvec4 a0, out uvec4 a1, out uvec4 a2, out uvec4 a3) {
  a0 = load_quad(at);
  a1 = load_quad(at + pitch);
  a2 = load_quad(at + 2u * pitch);
  a3 = load_quad(at + 3u * pitch);
}
void store_block(uint to, uint pitch, uvec4 a0, uvec4 a1, uvec4 a2, uvec4 a3) {
  store_quad(to, uvec4(a0.x, a1.x, a2.x, a3.x));
  store_quad(to + pitch, uvec4(a0.y, a1.y, a2.y, a3.y));
  store_quad(to + 2u * pitch, uvec4(a0.z, a1.z, a2.z, a3.z));
  store_quad(to + 3u * pitch, uvec4(a0.w, a1.w, a2.w, a3.w));
}

void main() {
  uvec2 q = gt_global(); /* (block row, quad column) of the source */
  uvec4 s = gt_views[0], d = gt_views[1];
  if (q.x * BLOCK_ROWS < s.x && q.y * QUAD < s.y) {
    uint at = s.z + q.x * BLOCK_ROWS * s.w + q.y * QUAD;
    uvec4 a0, a1, a2, a3;
    load_block(at, s.w, a0, a1, a2, a3);
    /* Source rows BLOCK_ROWS q.x on are destination row 4 q.y's quads
     * BLOCKS q.x on. */
    uint to = d.z + q.y * 4u * d.w + q.x * BLOCKS * QUAD;
    store_block(to, d.w, a0, a1, a2, a3);
#ifdef GT_PAIRS
    load_block(at + 4u * s.w, s.w, a0, a1, a2, a3);
    store_block(to + QUAD, d.w, a0, a1, a2, a3);
#endif
  }
}
