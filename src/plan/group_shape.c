/* The tiled kernels' group shapes and the order they take their groups
 * in, from the context's limits and device entry. */
#include "plan/group_shape.h"
#include "plan/context.h"

uint32_t gt__tiled_group_rows(const gt_context *ctx, uint32_t tile, uint32_t shared_bytes) {
  const gt_limits *l = &ctx->limits;
  if (tile > l->max_group_size[0] || shared_bytes > l->max_shared_bytes) return 0;
  /* At most 256 invocations even where more are allowed: each then moves
   * several rows, which keeps more loads in flight per invocation (the
   * usual 32 x 8 shape for a 32-tile); fewer where the device table says
   * large groups with barriers fail (Adreno). */
  uint32_t budget = l->max_invocations < 256 ? l->max_invocations : 256;
  if (ctx->device->barrier_invocations && ctx->device->barrier_invocations < budget)
    budget = ctx->device->barrier_invocations;
  uint32_t rows = tile;
  while (rows > 1 && (tile * rows > budget || rows > l->max_group_size[1]))
    rows /= 2;
  return tile * rows <= budget ? rows : 0;
}

uint32_t gt__stripe_tiles(const gt_context *ctx, uint64_t src_row_bytes, uint32_t tile) {
  uint64_t tiles = ((uint64_t)1 << ctx->device->stripe_bytes_log2) / src_row_bytes / tile;
  return tiles < 1 ? 1 : tiles > UINT32_MAX ? UINT32_MAX : (uint32_t)tiles;
}
