/* Waiting on a GL fence (fence.c). Not installed. */
#ifndef GT_FENCE_H
#define GT_FENCE_H

#include "gl/gl_api.h"

/* Waits up to timeout_ns for fence: GT_OK once signalled, GT_ERR_TIMEOUT
 * before, or the GL status of a failed wait. */
gt_status gt__fence_wait(GLsync fence, gt_context *ctx, uint64_t timeout_ns);

#endif
