/* What every operation shares: its first and last steps (operation.c),
 * and the layers below it. */
#ifndef GT_OPERATION_H
#define GT_OPERATION_H

#include "gl/buffer_check.h"
#include "gl/dispatch.h"
#include "gl/fence.h"
#include "gl/program_table.h"
#include "plan/blocking.h"
#include "plan/context.h"
#include "plan/plan.h"
#include "plan/view.h"

/* What buffer-writing operations end with: later dispatches and transfers
 * see their writes, texel fetches from texture buffers over them too (the
 * texels kernel's and the half texels' reads of a and b). */
#define GT__BUFFER_WRITE_BARRIERS                                                                            \
  (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT)

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



/* In-place transpose of the square view v (validated and bound) with the
 * planned strategy (not AUTO) and its programs (the aliased variants:
 * SIMPLE, the tiled kernel, or both for TRUNCATE_B). */
gt_status gt__transpose_inplace(gt_context *ctx, const gt_bound_view *v, gt_strategy strategy,
                                const gt_program_key *simple, const gt_program_key *tiled);


/* Builds every program the plan names before its operation's first
 * dispatch, so a build failure writes nothing; and refuses a plan that
 * writes parts of words where the context has no shader atomics. Each
 * dispatch then asks for its program again (gt__program_get). */
gt_status gt__plan_build(gt_context *ctx, const gt_op_plan *p, const char *what);

#endif
