/* Whether the device flushes f32 denormals to zero: one probe dispatch on
 * the first question, its answer kept in the context. GLSL ES lets a
 * device flush them (the H100 does; llvmpipe keeps them), and a sum that
 * passes near 2^-126 then loses what a CPU reference keeps. */
#include "gl/dispatch.h"
#include "gl/program_table.h"
#include "plan/context.h"

/* The inputs come from the buffer, so no compiler folds them: v[0] and
 * v[1] are 2^-70, whose product 2^-140 is denormal; v[2] is the denormal
 * 2^-140, doubled. Kept, the results are 2^-140 and 2^-139; flushed, 0.
 * They start as -1, which shows a dispatch that never ran. */
static const char probe_source[] = "#version 310 es\n"
                                   "layout(local_size_x = 1) in;\n"
                                   "layout(std430, binding = 0) buffer Probe { highp float v[5]; };\n"
                                   "void main() {\n"
                                   "  v[3] = v[0] * v[1];\n"
                                   "  v[4] = v[2] + v[2];\n"
                                   "}\n";

enum { PROBE_FLOATS = 5 };

/* 2^e for e <= 0, exact, without libm. */
static float power_of_two(int e) {
  float f = 1.0f;
  for (; e < 0; e++)
    f *= 0.5f;
  return f;
}

/* Runs the probe in buffer `b` (bound to slot 0) with program `p`; sets
 * *flushes from what the device wrote. */
static gt_status run_probe(gt_context *ctx, GLuint p, GLuint b, bool *flushes) {
  float in[PROBE_FLOATS] = {power_of_two(-70), power_of_two(-70), power_of_two(-140), -1.0f, -1.0f};
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof in, in, GL_DYNAMIC_READ);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, b, 0, sizeof in);
  glUseProgram(p);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  GT__TRY(gt__gl_status(ctx, "the denormal probe"));
  const float *out = (const float *)glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof in, GL_MAP_READ_BIT);
  if (out == NULL) {
    gt_status s = gt__gl_status(ctx, "glMapBufferRange(the denormal probe)");
    return s != GT_OK ? s : GT_ERR_GL;
  }
  float product = out[3], sum = out[4];
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  GT__TRY(gt__gl_status(ctx, "the denormal probe"));
  if (product == -1.0f || sum == -1.0f) {
    gt__log(ctx, GT_LOG_ERROR, "the denormal probe's dispatch wrote nothing");
    return GT_ERR_GL;
  }
  *flushes = product == 0.0f || sum == 0.0f;
  gt__log(ctx, GT_LOG_DEBUG, "denormal probe: 2^-70 * 2^-70 = %g, 2^-140 + 2^-140 = %g: %s", (double)product,
          (double)sum, *flushes ? "flushed" : "kept");
  return GT_OK;
}

gt_status gt_context_flushes_denormals(gt_context *ctx, bool *flushes) {
  GT__CHECK(flushes != NULL, GT_ERR_INVALID_ARGUMENT);
  *flushes = false;
  GT__TRY(gt__context_check(ctx));
  if (!ctx->denormals_probed) {
    const char *parts[1] = {probe_source};
    GLuint p = 0, b = 0;
    GT__TRY(gt__program_build(ctx, parts, 1, "the denormal probe", &p));
    GLint generic = 0;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &generic);
    glGenBuffers(1, &b);
    bool flushed = false;
    gt_status s = gt__gl_status(ctx, "glGenBuffers(the denormal probe)");
    if (s == GT_OK) s = run_probe(ctx, p, b, &flushed);
    /* Deleting a buffer bound to an indexed slot clears the generic
     * binding too (Mesa), so the caller's goes back afterwards. */
    glDeleteBuffers(1, &b);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)generic);
    glDeleteProgram(p);
    if (s == GT_OK) s = gt__gl_status(ctx, "the denormal probe");
    if (s != GT_OK) return s;
    ctx->denormals_probed = true;
    ctx->flushes_denormals = flushed;
  }
  *flushes = ctx->flushes_denormals;
  return GT_OK;
}
