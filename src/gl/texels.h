/* Texture-buffer texels for the matmul texels kernel (texels.c). */
#ifndef GT_TEXELS_H
#define GT_TEXELS_H

#include "gl/gl_api.h"
#include "plan/texel_fit.h"

/* ES 3.2 names the ES 3.1 headers lack. */
#ifndef GL_TEXTURE_BUFFER
#define GL_TEXTURE_BUFFER 0x8C2A
#define GL_MAX_TEXTURE_BUFFER_SIZE 0x8C2B
#define GL_TEXTURE_BINDING_BUFFER 0x8C2C
#define GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT 0x919F
#endif

/* Sets up texture buffers for a TEXELS context, or one whose entry fetches
 * halves as texels: glTexBufferRange, the texel limits and the two texture
 * objects. false (nothing made) where the context is older than
 * ES 3.2, under min_limits (ES 3.1 has no texture buffers) or GL fails. */
bool gt__texels_init(gt_context *ctx, int major, int minor, bool min_limits);

/* Deletes the texture objects (the context is current). */
void gt__texels_release(gt_context *ctx);


/* The GL_TEXTURE_BUFFER bindings of units 0-1 and the active unit, as the
 * caller had them. */
typedef struct gt_texel_units {
  GLint active, bound[2];
} gt_texel_units;

/* Attaches a's and b's bindings, as texels of format (GL_RGBA32F,
 * GL_R16F), to the context's texture buffers on units 0 and 1 (saving what
 * those units held into saved). */
void gt__texels_bind(gt_context *ctx, const gt_bound_view *a, const gt_bound_view *b, GLenum format,
                     gt_texel_units *saved);

/* Detaches a and b from the texture buffers and puts back what
 * gt__texels_bind saved. */
void gt__texels_unbind(gt_context *ctx, const gt_texel_units *saved);

#endif
