/* One kernel launch over bound views, split to the device's limits
 * (dispatch.c). */
#ifndef GT_DISPATCH_H
#define GT_DISPATCH_H

#include "gl/gl_api.h"
#include "plan/group_shape.h"
#include "plan/view.h"

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

#endif
