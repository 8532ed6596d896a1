/* Status codes and strategy names as text. */
#include "plan/gt_internal.h"

const char *gt_status_string(gt_status s) {
  switch (s) {
  case GT_OK: return "GT_OK: success";
  case GT_ERR_INVALID_ARGUMENT:
    return "GT_ERR_INVALID_ARGUMENT: NULL, zero extent, unknown enum or pitch < cols";
  case GT_ERR_SHAPE_MISMATCH: return "GT_ERR_SHAPE_MISMATCH: extents or types disagree";
  case GT_ERR_OUT_OF_RANGE: return "GT_ERR_OUT_OF_RANGE: view reaches past its buffer, or a size overflows";
  case GT_ERR_ALIASED: return "GT_ERR_ALIASED: a written view overlaps another view";
  case GT_ERR_UNSUPPORTED: return "GT_ERR_UNSUPPORTED: the device or context lacks what is needed";
  case GT_ERR_NO_CONTEXT: return "GT_ERR_NO_CONTEXT: no current OpenGL ES 3.1 context";
  case GT_ERR_SHADER_BUILD: return "GT_ERR_SHADER_BUILD: shader compile or link failed";
  case GT_ERR_GL: return "GT_ERR_GL: unexpected GL error";
  case GT_ERR_OUT_OF_MEMORY: return "GT_ERR_OUT_OF_MEMORY: out of memory";
  case GT_ERR_CONTEXT_LOST: return "GT_ERR_CONTEXT_LOST: the GL context was lost";
  case GT_ERR_TIMEOUT: return "GT_ERR_TIMEOUT: the fence had not signalled when the wait ended";
  case GT_ERR_BUSY: return "GT_ERR_BUSY: a pending read-back holds the staging buffer";
  case GT_ERR_BAD_CACHE: return "GT_ERR_BAD_CACHE: not a program cache, or a damaged one";
  }
  return "unknown status";
}

const char *gt_strategy_name(gt_strategy s) {
  switch (s) {
  case GT_STRATEGY_AUTO: return "auto";
  case GT_STRATEGY_SIMPLE: return "simple";
  case GT_STRATEGY_TILED_EVEN: return "tiled_even";
  case GT_STRATEGY_TILED_PAD: return "tiled_pad";
  case GT_STRATEGY_TRUNCATE_A: return "truncate_a";
  case GT_STRATEGY_TRUNCATE_B: return "truncate_b";
  }
  return "unknown";
}
