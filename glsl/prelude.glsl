/* Shared by every kernel: the view uniforms, the tiled index of C++ AMP,
 * and guarded access against a view's extent.
 *
 * Expects from the library's preamble: GT_ELEM (element type), GT_VIEWS
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

/* Out-of-extent reads give zero and out-of-extent writes do nothing, so
 * padding invocations have no effect (seed 001). ?: evaluates only the
 * chosen operand, so the buffer is never indexed out of range. */
#define guarded_read(data, v, idx) (gt_contains(v, idx) ? data[gt_index(v, idx)] : GT_ELEM(0))
#define guarded_write(data, v, idx, value) \
  if (gt_contains(v, idx)) { data[gt_index(v, idx)] = (value); }
