/* Texture buffers over matmul's operands: on llvmpipe a storage-buffer
 * load is a loop over the 8 lanes with a bounds check per element, while
 * a texel fetch gathers the lanes' vec4s at once (matmul_texels.comp; the
 * trial: docs/notes/2026-11-llvmpipe.md, "a and b as texels of texture
 * buffers"); on Adreno the texture unit widens halves, which its compiler
 * does from words in integer operations (GT_VARIANT_HALF_TEXELS). ES 3.2
 * core; the context makes two texture objects once and points them at a
 * and b for each dispatch. */
#include "gl/texels.h"
#include "plan/context.h"

#include <EGL/egl.h>

/* glTexBufferRange through the pointer init found; the fault build makes
 * the call through its wrapper, like every other GL call. */
#ifdef GT_FAULT_INJECTION
#define TEX_BUFFER_RANGE(ctx, ...) gt__fi_glTexBufferRange((ctx)->tex_buffer_range, __VA_ARGS__)
#else
#define TEX_BUFFER_RANGE(ctx, ...) ((gt_tex_buffer_range_fn)(ctx)->tex_buffer_range)(__VA_ARGS__)
#endif

bool gt__texels_init(gt_context *ctx, int major, int minor, bool min_limits) {
  if (min_limits || !(major > 3 || (major == 3 && minor >= 2))) return false;
  ctx->tex_buffer_range = (gt_gl_proc)eglGetProcAddress("glTexBufferRange");
  if (ctx->tex_buffer_range == NULL) return false;
  GLint align = 0, texels = 0;
  glGetIntegerv(GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT, &align);
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
  if (texels <= 0) return false;
  /* Set only here, past every refusal: 0 tells the planners there are no
   * texture buffers. Binding starts are multiples of 16 bytes before they
   * are of this. */
  ctx->texel_offset_alignment = align > 16 ? (uint32_t)align : 16;
  ctx->max_texels = (uint64_t)texels;
  /* A GL error here stays pending for gt_context_init's own check. A
   * name is only reserved until first bound: bind both, so the context
   * owns its objects from the start, and put the unit back. */
  GLint previous = 0;
  glGenTextures(2, ctx->texel_textures);
  glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &previous);
  glBindTexture(GL_TEXTURE_BUFFER, ctx->texel_textures[0]);
  glBindTexture(GL_TEXTURE_BUFFER, ctx->texel_textures[1]);
  glBindTexture(GL_TEXTURE_BUFFER, (GLuint)previous);
  return true;
}

void gt__texels_release(gt_context *ctx) {
  if (ctx->texel_textures[0] != 0) glDeleteTextures(2, ctx->texel_textures);
  ctx->texel_textures[0] = ctx->texel_textures[1] = 0;
}

void gt__texels_bind(gt_context *ctx, const gt_bound_view *a, const gt_bound_view *b, GLenum format,
                     gt_texel_units *saved) {
  const gt_bound_view *views[2] = {a, b};
  /* What a failed query leaves: unit 0 active, nothing bound. */
  saved->active = GL_TEXTURE0;
  saved->bound[0] = saved->bound[1] = 0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &saved->active);
  for (GLuint unit = 0; unit < 2; unit++) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &saved->bound[unit]);
    glBindTexture(GL_TEXTURE_BUFFER, ctx->texel_textures[unit]);
    const gt_bound_view *v = views[unit];
    TEX_BUFFER_RANGE(ctx, GL_TEXTURE_BUFFER, format, v->view.buffer, v->bind_offset, v->bind_size);
  }
}

void gt__texels_unbind(gt_context *ctx, const gt_texel_units *saved) {
  for (GLuint unit = 0; unit < 2; unit++) {
    glActiveTexture(GL_TEXTURE0 + unit);
    /* Detached, so the texture holds no reference that would keep an
     * operand's storage alive after the application deletes it (GL
     * orders this after the dispatch that used it). */
    TEX_BUFFER_RANGE(ctx, GL_TEXTURE_BUFFER, GL_RGBA32F, 0, 0, 0);
    glBindTexture(GL_TEXTURE_BUFFER, (GLuint)saved->bound[unit]);
  }
  glActiveTexture((GLenum)saved->active);
}
