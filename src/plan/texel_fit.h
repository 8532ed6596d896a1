/* Which bound views a texture buffer can hold (texel_fit.c). No GL. */
#ifndef GT_TEXEL_FIT_H
#define GT_TEXEL_FIT_H

#include "plan/view.h"

/* true when the binding of the bound view v can be a texture buffer of
 * texel_bytes texels: it starts at a multiple of the texture-buffer offset
 * alignment and holds no more texels than a texture buffer may; false on a
 * context without texture buffers. */
bool gt__texels_range_fits(const gt_context *ctx, const gt_bound_view *v, uint32_t texel_bytes);

/* true when v can be fetched as vec4 texels of floats (the texels kernel):
 * its binding fits as 16-byte texels and its rows start 16-byte aligned. */
bool gt__texels_fit(const gt_context *ctx, const gt_bound_view *v);

#endif
