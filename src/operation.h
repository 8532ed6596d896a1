/* What every operation shares: its first and last steps (operation.c),
 * and the layers below it. */
#ifndef GT_OPERATION_H
#define GT_OPERATION_H

#include "blocking.h"
#include "context.h"
#include "dispatch.h"
#include "plan.h"
#include "view.h"

/* The strategies an operation offers, as a mask of GT__STRATEGY(s). */
#define GT__STRATEGY(s) (1u << (unsigned)(s))
#define GT__STRATEGIES_TILED                                                                                 \
  (GT__STRATEGY(GT_STRATEGY_AUTO) | GT__STRATEGY(GT_STRATEGY_SIMPLE) |                                       \
   GT__STRATEGY(GT_STRATEGY_TILED_EVEN) | GT__STRATEGY(GT_STRATEGY_TILED_PAD))

/* What buffer-writing operations end with: later dispatches and transfers
 * see their writes, texel fetches from texture buffers over them too (the
 * texels kernel's and the half texels' reads of a and b). */
#define GT__BUFFER_WRITE_BARRIERS                                                                            \
  (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT)

/* true for the tiles a desc may ask: 0 (the default), 8, 16, 32. */
bool gt__tile_valid(uint32_t tile);

/* A description's strategy (one of the mask `strategies`) and tile. */
gt_status gt__desc_check(gt_strategy strategy, uint32_t tile, uint32_t strategies);

/* An operation's first checks: the context (gt__context_check), then
 * gt__desc_check. */
gt_status gt__operation_begin(gt_context *ctx, gt_strategy strategy, uint32_t tile, uint32_t strategies);

/* An operation's last step: glMemoryBarrier(barriers), then the GL status.
 * Returns status when it is an error (the first error wins), else the GL
 * status. */
gt_status gt__operation_end(gt_context *ctx, gt_status status, GLbitfield barriers, const char *what);

/* One dispatch of a copy program (key) over s into t (copy.c; transfers
 * stage 2- and 1-byte views with the scalar one). */
gt_status gt__copy_run(gt_context *ctx, const gt_program_key *key, gt_bound_view s, gt_bound_view t);

/* The program gt_write of dst (host rows host_pitch elements apart, 0 =
 * cols) runs: the scalar copy of dst's element size where the rows do
 * not start and end on whole words, staged; else none (group_cols 0),
 * for glBufferSubData. */
gt_program_key gt__write_program(gt_view dst, size_t host_pitch);

/* Waits up to timeout_ns for fence: GT_OK once signalled, GT_ERR_TIMEOUT
 * before, or the GL status of a failed wait. */
gt_status gt__fence_wait(GLsync fence, gt_context *ctx, uint64_t timeout_ns);

/* In-place transpose of the square view v (validated and bound) with the
 * planned strategy (not AUTO) and its programs (the aliased variants:
 * SIMPLE, the tiled kernel, or both for TRUNCATE_B). */
gt_status gt__transpose_inplace(gt_context *ctx, const gt_bound_view *v, gt_strategy strategy,
                                const gt_program_key *simple, const gt_program_key *tiled);

/* Whether gt_egl_open asks for a referenced display where EGL offers
 * EGL_KHR_display_reference (the default); false makes it count displays
 * itself, as on EGLs without the extension, so tests reach that path. Not
 * thread-safe: set it while no gt_egl_open runs. */
void gt__egl_use_display_references(bool use);

#endif
