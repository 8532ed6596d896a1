/* Extents tiled as in C++ AMP: tiled_extent::pad and ::truncate. */
#include "plan/gt_internal.h"

static uint32_t round_up(uint32_t n, uint32_t tile) {
  if (tile == 0) return n;
  uint64_t up = ((uint64_t)n + tile - 1) / tile * tile;
  /* Saturate at the largest multiple of the tile that fits 32 bits. */
  return up > UINT32_MAX ? UINT32_MAX / tile * tile : (uint32_t)up;
}

static uint32_t round_down(uint32_t n, uint32_t tile) { return tile == 0 ? n : n / tile * tile; }

gt_extent gt_extent_pad(gt_extent e, uint32_t tile_rows, uint32_t tile_cols) {
  gt_extent r = {round_up(e.rows, tile_rows), round_up(e.cols, tile_cols)};
  return r;
}

gt_extent gt_extent_truncate(gt_extent e, uint32_t tile_rows, uint32_t tile_cols) {
  gt_extent r = {round_down(e.rows, tile_rows), round_down(e.cols, tile_cols)};
  return r;
}
