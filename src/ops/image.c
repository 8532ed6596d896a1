/* Image windows: validation against the texture they name, the plan
 * (image_plan.c), aliasing, and transposes and quarter turns through
 * imageLoad / imageStore. */
#include "ops/operation.h"
#include "plan/image_plan.h"

static GLenum internal_format(gt_format f) {
#define GT__GL_FORMAT_CASE(format, name, gl)                                                                 \
  case format: return gl;
  switch (f) { GT_EACH_FORMAT(GT__GL_FORMAT_CASE) }
  return 0;
}

bool gt_images_alias(gt_image a, gt_image b) {
  if (a.texture != b.texture || a.level != b.level) return false;
  if (!a.width || !a.height || !b.width || !b.height) return false;
  bool cols = (uint64_t)a.x < (uint64_t)b.x + b.width && (uint64_t)b.x < (uint64_t)a.x + a.width;
  bool rows = (uint64_t)a.y < (uint64_t)b.y + b.height && (uint64_t)b.y < (uint64_t)a.y + a.height;
  return cols && rows;
}

static gt_status check_fields(gt_image im) {
  GT__CHECK(im.texture != 0 && im.width != 0 && im.height != 0, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(internal_format(im.format) != 0, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK((uint64_t)im.x + im.width <= INT32_MAX && (uint64_t)im.y + im.height <= INT32_MAX,
            GT_ERR_OUT_OF_RANGE);
  return GT_OK;
}

/* The texture's storage, asked through GL_TEXTURE_2D of the active unit,
 * whose binding is restored: ES 3.1 cannot query an unbound texture. */
static gt_status check_texture(gt_context *ctx, gt_image im) {
  if (!glIsTexture(im.texture)) {
    gt_status s = gt__gl_status(ctx, "glIsTexture");
    return s != GT_OK ? s : GT_ERR_INVALID_ARGUMENT;
  }
  GLint previous = 0, immutable = 0, levels = 0, format = 0, width = 0, height = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  /* gt__context_check cleared the flag: what comes now is ours. */
  GLenum e = glGetError();
  glBindTexture(GL_TEXTURE_2D, im.texture);
  if (e == GL_NO_ERROR) e = glGetError();
  bool is_2d = e == GL_NO_ERROR; /* another target: INVALID_OPERATION */
  if (is_2d) {
    glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_LEVELS, &levels);
    if (immutable && im.level < (uint32_t)levels) {
      glGetTexLevelParameteriv(GL_TEXTURE_2D, (GLint)im.level, GL_TEXTURE_INTERNAL_FORMAT, &format);
      glGetTexLevelParameteriv(GL_TEXTURE_2D, (GLint)im.level, GL_TEXTURE_WIDTH, &width);
      glGetTexLevelParameteriv(GL_TEXTURE_2D, (GLint)im.level, GL_TEXTURE_HEIGHT, &height);
    }
  }
  glBindTexture(GL_TEXTURE_2D, (GLuint)previous);
  /* Any other error is a failure of its own (and clears what followed). */
  if (e != GL_NO_ERROR && e != GL_INVALID_OPERATION) return gt__gl_error_status(ctx, e, "texture query");
  GT__TRY(gt__gl_status(ctx, "texture query"));
  GT__CHECK(is_2d, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(immutable, GT_ERR_UNSUPPORTED);
  GT__CHECK(im.level < (uint32_t)levels, GT_ERR_OUT_OF_RANGE);
  if ((GLenum)format != internal_format(im.format)) {
    gt__log(ctx, GT_LOG_ERROR, "image of texture %u: format 0x%x given, the texture has 0x%x", im.texture,
            internal_format(im.format), (unsigned)format);
    return GT_ERR_INVALID_ARGUMENT;
  }
  GT__CHECK((uint64_t)im.x + im.width <= (uint64_t)width && (uint64_t)im.y + im.height <= (uint64_t)height,
            GT_ERR_OUT_OF_RANGE);
  return GT_OK;
}

/* The plan's one dispatch: src on image unit 0, dst on unit 1. */
static gt_status execute(gt_context *ctx, const gt_image_choices *plan, gt_image src, gt_image dst) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, &plan->op.keys[0], &prog));
  GLenum format = internal_format(src.format);
  glBindImageTexture(0, src.texture, (GLint)src.level, GL_FALSE, 0, GL_READ_ONLY, format);
  glBindImageTexture(1, dst.texture, (GLint)dst.level, GL_FALSE, 0, GL_WRITE_ONLY, format);
  GLuint views[8] = {src.height, src.width, src.x, src.y, dst.height, dst.width, dst.x, dst.y};
  /* The tiled kernel takes its groups in the tiled transposes' order
   * (transpose_order.glsl), the stripes sized from the window's rows:
   * every format has 4-byte texels. */
  if (plan->strategy != GT_STRATEGY_SIMPLE)
    glProgramUniform1ui(prog->name, prog->stripe_tiles_loc,
                        gt__stripe_tiles(ctx, (uint64_t)src.width * 4, plan->op.keys[0].tile));
  uint32_t step_cols = plan->step_cols, step_rows = plan->step_rows;
  return gt__dispatch_grid(ctx, prog, views, 2, gt__div_up(src.width, step_cols), gt__div_up(src.height, step_rows),
                           gt__moved_bytes(step_cols * step_rows));
}

static gt_status image_op(gt_context *ctx, gt_image src, gt_image dst, uint32_t turns,
                          const gt_transpose_desc *d) {
  static const gt_transpose_desc defaults;
  if (d == NULL) d = &defaults;
  GT__TRY(gt__operation_begin(ctx, d->strategy, d->tile, GT__STRATEGIES_TILED));
  GT__CHECK(turns <= 3, GT_ERR_INVALID_ARGUMENT);
  GT__TRY(check_fields(src));
  GT__TRY(check_fields(dst));
  GT__CHECK(src.format == dst.format, GT_ERR_SHAPE_MISMATCH);
  bool swaps = turns != 2; /* a transpose (0) and odd turns swap the extents */
  GT__CHECK(swaps ? dst.width == src.height && dst.height == src.width
                  : dst.width == src.width && dst.height == src.height,
            GT_ERR_SHAPE_MISMATCH);
  gt_image_choices plan;
  GT__TRY(gt__plan_taken(ctx, "image", gt__image_choose(ctx, src, turns, d, &plan), &plan.op));
  if (gt_images_alias(src, dst)) {
    gt__log(ctx, GT_LOG_ERROR, "image: src and dst share texels of texture %u", src.texture);
    return GT_ERR_ALIASED;
  }
  GT__TRY(check_texture(ctx, src));
  GT__TRY(check_texture(ctx, dst));
  GT__TRY(gt__plan_build(ctx, &plan.op, "an image operation"));
  /* Later image access, sampling and texture reads see these stores. */
  return gt__operation_end(ctx, execute(ctx, &plan, src, dst),
                           GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                               GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT,
                           "image transpose");
}

gt_status gt_image_transpose(gt_context *ctx, gt_image src, gt_image dst, const gt_transpose_desc *d) {
  return image_op(ctx, src, dst, 0, d);
}

gt_status gt_image_rotate(gt_context *ctx, gt_image src, gt_image dst, uint32_t quarter_turns,
                          const gt_transpose_desc *d) {
  /* Zero turns would be a transpose: map it past image_op's range check,
   * which comes after the context check as in every entry point. */
  return image_op(ctx, src, dst, quarter_turns == 0 ? UINT32_MAX : quarter_turns, d);
}
