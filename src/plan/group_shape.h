/* What a group of a kernel moves, and the tiled kernels' group shapes and
 * order (group_shape.c). No GL. */
#ifndef GT_GROUP_SHAPE_H
#define GT_GROUP_SHAPE_H

#include "plan/program.h"
#include "plan/program_work.h"

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
