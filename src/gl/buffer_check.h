/* Views checked against the buffers they name (buffer_check.c). Not
 * installed. */
#ifndef GT_BUFFER_CHECK_H
#define GT_BUFFER_CHECK_H

#include "gl/gl_api.h"
#include "plan/view.h"

/* Fields, then the view against its buffer's size (the only GL query
 * allowed before validation ends): to the end of the 32-bit word holding
 * the last element, which kernels reach. */
gt_status gt__view_check_buffer(gt_context *ctx, gt_view v);

/* Full validation of one view: fields, its buffer's size (the only GL query
 * allowed before validation ends), and the device's storage-block limit. */
gt_status gt__view_prepare(gt_context *ctx, gt_view v, gt_bound_view *out);

#endif
