/* One kernel launch over bound views, split to the device's limits, and
 * the tiled kernels' group shapes and order (dispatch.c). */
#ifndef GT_DISPATCH_H
#define GT_DISPATCH_H

#include "program.h"
#include "program_work.h"
#include "view.h"

/* One dispatch over views[0..count): binds each view's range to binding
 * slot i (the generic GL_SHADER_STORAGE_BUFFER binding is restored), sets
 * the view uniforms, and dispatches groups (cols, rows), split into
 * several dispatches with a group base when a count exceeds the device
 * limit or, when group_bytes is not 0, when a dispatch would move more
 * than gt_limits.max_dispatch_bytes (a mobile watchdog ends long ones). */
gt_status gt__dispatch(gt_context *ctx, const gt_program *prog, const gt_bound_view *views, uint32_t count,
                       uint32_t groups_cols, uint32_t groups_rows, uint64_t group_bytes);

/* The grid part of a dispatch: binds prog, sets gt_views[0..count) from
 * view_uniforms (4 words each) and dispatches, split as gt__dispatch. */
gt_status gt__dispatch_grid(gt_context *ctx, const gt_program *prog, const GLuint *view_uniforms,
                            uint32_t count, uint32_t groups_cols, uint32_t groups_rows, uint64_t group_bytes);

/* gt__dispatch with `layers` layers of groups (gl_WorkGroupID.z), at most
 * gt_limits.max_group_count[2]: the caller splits longer ones. */
gt_status gt__dispatch_layers(gt_context *ctx, const gt_program *prog, const gt_bound_view *views,
                              uint32_t count, uint32_t groups_cols, uint32_t groups_rows, uint32_t layers);

/* Bytes a group moves that reads and writes `elements` 4-byte elements
 * once each: the measure of gt_limits.max_dispatch_bytes. */
static inline uint64_t gt__moved_bytes(uint64_t elements) { return elements * 8; }

/* gt__moved_bytes of the elements one group of key's program moves. */
static inline uint64_t gt__group_moved_bytes(const gt_program_key *key) {
  return gt__moved_bytes((uint64_t)key->group_cols * key->group_rows * gt__program_elements(key));
}

/* Rows of invocations in a group that moves a tile x tile block with
 * shared_bytes of shared memory: the tile's rows when the device allows
 * tile x tile invocations, else fewer (a power of two), each handling
 * several rows. 0 when the tile does not fit the device at all. */
uint32_t gt__tiled_group_rows(const gt_context *ctx, uint32_t tile, uint32_t shared_bytes);

/* Tile rows per stripe of the tiled transposes' group order
 * (transpose_order.glsl): the source rows that span 2^stripe_bytes_log2
 * bytes of the device table. Going down a stripe's column of tiles, the
 * groups running together touch few enough pages of both matrices
 * (docs/performance.md, "What to do and avoid on NVIDIA"); 1 is plain row
 * order. */
uint32_t gt__stripe_tiles(const gt_context *ctx, uint64_t src_row_bytes, uint32_t tile);

#endif
