/* What every operation does on entry and on exit, in one place: the
 * context check and the strategy and tile checks first; the barriers later
 * work needs and the GL status last, where the first error wins. */
#include "operation.h"

bool gt__tile_valid(uint32_t tile) { return tile == 0 || tile == 8 || tile == 16 || tile == 32; }

gt_status gt__desc_check(gt_strategy strategy, uint32_t tile, uint32_t strategies) {
  GT__CHECK((unsigned)strategy < 32 && (strategies >> (unsigned)strategy & 1u), GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(gt__tile_valid(tile), GT_ERR_INVALID_ARGUMENT);
  return GT_OK;
}

gt_status gt__operation_begin(gt_context *ctx, gt_strategy strategy, uint32_t tile, uint32_t strategies) {
  GT__TRY(gt__context_check(ctx));
  return gt__desc_check(strategy, tile, strategies);
}

gt_status gt__operation_end(gt_context *ctx, gt_status status, GLbitfield barriers, const char *what) {
  /* ES 3.1, "Shader Memory Access Synchronization": later dispatches,
   * transfers or texture reads see these writes only after the barrier. */
  glMemoryBarrier(barriers);
  gt_status gl = gt__gl_status(ctx, what);
  return status != GT_OK ? status : gl;
}
