/* Whether a bound view can be read as a texture buffer (gl/texels.c makes
 * and binds them): the context's texel limits, no GL. */
#include "plan/texel_fit.h"
#include "plan/context.h"

bool gt__texels_range_fits(const gt_context *ctx, const gt_bound_view *v, uint32_t texel_bytes) {
  /* Without texture buffers (ES 3.1, minimum limits) the alignment is 0. */
  return ctx->texel_offset_alignment != 0 && (uint64_t)v->bind_offset % ctx->texel_offset_alignment == 0 &&
         (uint64_t)v->bind_size / texel_bytes <= ctx->max_texels;
}

bool gt__texels_fit(const gt_context *ctx, const gt_bound_view *v) {
  return gt__bound_rows_aligned(v) && gt__texels_range_fits(ctx, v, 16);
}
