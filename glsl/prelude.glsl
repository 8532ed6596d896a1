/* Shared by every kernel: the view uniforms, the tiled index of C++ AMP,
 * and guarded access against a view's extent.
 *
 * Expects from the library's preamble: GT_ELEM (element type), GT_PACK
 * (elements per 32-bit word of storage), GT_VIEWS
 * (view slots), GT_TILE_ROWS and GT_TILE_COLS (elements per tile), and
 * the layout(local_size_x, local_size_y). GT_ALIASED drops restrict. */
#ifndef GT_ELEM
#error "GT_ELEM must be defined"
#endif
#ifndef GT_VIEWS
#error "GT_VIEWS must be defined"
#endif
#if !defined(GT_TILE_ROWS) || !defined(GT_TILE_COLS)
#error "GT_TILE_ROWS and GT_TILE_COLS must be defined"
#endif

precision highp float;
precision highp int;

/* Storage blocks are restrict only when the library knows no written
 * view overlaps another (seed 004: one shader per aliasing case). */
#ifdef GT_ALIASED
#define GT_RESTRICT
#else
#define GT_RESTRICT restrict
#endif

/* gt_views[v] = (rows, cols, offset, pitch) of view slot v, in elements;
 * offset counts from the start of the bound range. */
uniform uvec4 gt_views[GT_VIEWS];

/* Group of the first work group of this dispatch (x = col, y = row), for
 * grids split over several dispatches by the group-count limit. */
uniform uvec2 gt_group_base;

/* The tiled index, as (row, col) pairs like C++ AMP's index<2>. A tile
 * covers GT_TILE_ROWS x GT_TILE_COLS elements; when a group has fewer
 * rows of invocations than the tile has rows, each invocation handles
 * every gl_WorkGroupSize.y-th row from gt_global(). */
uvec2 gt_tile() {
  return uvec2(gl_WorkGroupID.y + gt_group_base.y, gl_WorkGroupID.x + gt_group_base.x);
}
uvec2 gt_local() { return uvec2(gl_LocalInvocationID.y, gl_LocalInvocationID.x); }
uvec2 gt_tile_origin() { return gt_tile() * uvec2(GT_TILE_ROWS, GT_TILE_COLS); }
uvec2 gt_global() { return gt_tile_origin() + gt_local(); }

#ifdef GT_BATCHED
/* Batched matmul: one product per layer of groups (gl_WorkGroupID.z).
 * x, y, z: elements between one layer's views in slots 0, 1, 2 and the
 * next's; w: the layer of this dispatch's first groups (the host splits
 * the layers at the group-count and work limits). */
uniform uvec4 gt_batch;
#endif

/* gt_views[v] as this invocation's product sees it: its layer's offset
 * where the dispatch is batched. */
uvec4 gt_layer_view(uint v) {
#ifdef GT_BATCHED
  return gt_views[v] + uvec4(0u, 0u, (gl_WorkGroupID.z + gt_batch.w) * gt_batch[v], 0u);
#else
  return gt_views[v];
#endif
}

uvec2 gt_extent(uint v) { return gt_views[v].xy; }
bool gt_contains(uint v, uvec2 idx) { return all(lessThan(idx, gt_views[v].xy)); }
uint gt_index(uint v, uvec2 idx) { return gt_layer_view(v).z + idx.x * gt_views[v].w + idx.y; }

/* Element access. GT_PACK elements share a 32-bit word: 1 for 4-byte
 * types; 2 or 4 for the 2- and 1-byte types, which GLSL ES 3.10 cannot
 * store on their own, so their storage blocks are uint arrays and element
 * i is bits (i % GT_PACK) * GT_BITS on of word i / GT_PACK. gt_load gives
 * an element (its bits where packed). gt_store writes one: where packed,
 * other invocations may be writing the word's other elements, so it
 * clears and sets only its own bits, with atomics. gt_store_word writes
 * the bits of `mask` in word w: a plain store where the invocation owns
 * the whole word, atomics where it owns a part. Storage declared
 * GT_STORAGE, destinations GT_WRITEONLY (atomics also read). With GT_PACK
 * 1 these are the plain accesses, and 4-byte kernels are unchanged. */
#if GT_PACK == 1
#define GT_STORAGE GT_ELEM
#define GT_WRITEONLY writeonly
#define gt_load(data, i) data[i]
#define gt_store(data, i, value) data[i] = (value)
#else
#define GT_STORAGE uint
#define GT_WRITEONLY
const uint GT_BITS = 32u / uint(GT_PACK);
const uint GT_MASK = (1u << GT_BITS) - 1u;
uint gt_shift(uint i) { return i % uint(GT_PACK) * GT_BITS; }
#define gt_load(data, i) ((data[(i) / uint(GT_PACK)] >> gt_shift(i)) & GT_MASK)
#define gt_store_word(data, w, word, mask) \
  do { \
    if ((mask) == 0xffffffffu) { \
      data[w] = (word); \
    } else if ((mask) != 0u) { \
      atomicAnd(data[w], ~(mask)); \
      atomicOr(data[w], (word)); \
    } \
  } while (false)
#define gt_store(data, i, value) \
  gt_store_word(data, (i) / uint(GT_PACK), ((value) & GT_MASK) << gt_shift(i), GT_MASK << gt_shift(i))
#endif

/* Out-of-extent reads give zero and out-of-extent writes do nothing, so
 * padding invocations have no effect (seed 001). ?: evaluates only the
 * chosen operand, so the buffer is never indexed out of range. */
#define guarded_read(data, v, idx) (gt_contains(v, idx) ? gt_load(data, gt_index(v, idx)) : GT_ELEM(0))
#define guarded_write(data, v, idx, value) \
  if (gt_contains(v, idx)) { gt_store(data, gt_index(v, idx), value); }
