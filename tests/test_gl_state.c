/* The GL state every entry point leaves (the header's conventions): the
 * generic buffer bindings GL_SHADER_STORAGE_BUFFER, GL_COPY_READ_BUFFER,
 * GL_COPY_WRITE_BUFFER, GL_ARRAY_BUFFER and the active unit's
 * GL_TEXTURE_2D are as the application left them, so its next
 * glBufferSubData(GL_SHADER_STORAGE_BUFFER, ...) writes into its own
 * buffer, not into one gltile just bound. Each call is made with every
 * binding set to a buffer (texture) of the application's, then checked. */
#include "check.h"
#include "harness.h"

#include <string.h>

static gt_context *ctx;
static GLuint a, b, c, tex_src, tex_dst;
static GLuint app_ssbo, app_read, app_write, app_array, app_tex;
/* On a TEXELS context: the application's texture buffers on units 0 and 1,
 * the units the matmul's texels kernel borrows. */
static bool texels;
static GLuint app_tbo[2];

typedef struct binding {
  GLenum query;
  const char *name;
  GLuint *want;
} binding;

static const binding bindings[] = {
    {GL_SHADER_STORAGE_BUFFER_BINDING, "GL_SHADER_STORAGE_BUFFER", &app_ssbo},
    {GL_COPY_READ_BUFFER_BINDING, "GL_COPY_READ_BUFFER", &app_read},
    {GL_COPY_WRITE_BUFFER_BINDING, "GL_COPY_WRITE_BUFFER", &app_write},
    {GL_ARRAY_BUFFER_BINDING, "GL_ARRAY_BUFFER", &app_array},
    {GL_TEXTURE_BINDING_2D, "GL_TEXTURE_2D", &app_tex},
};

/* GL_TEXTURE_BUFFER and its binding query (ES 3.2, beyond gl31.h). */
enum { TEXTURE_BUFFER = 0x8C2A, TEXTURE_BINDING_BUFFER = 0x8C2C };

static void set_app_bindings(void) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, app_ssbo);
  glBindBuffer(GL_COPY_READ_BUFFER, app_read);
  glBindBuffer(GL_COPY_WRITE_BUFFER, app_write);
  glBindBuffer(GL_ARRAY_BUFFER, app_array);
  for (GLuint unit = 0; texels && unit < 2; unit++) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(TEXTURE_BUFFER, app_tbo[unit]);
  }
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, app_tex);
}

static void check_bindings(const char *call) {
  for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++) {
    GLint got = 0;
    glGetIntegerv(bindings[i].query, &got);
    if ((GLuint)got != *bindings[i].want)
      fprintf(stderr, "%s left %s at %d, the application had %u\n", call, bindings[i].name, got,
              *bindings[i].want);
    CHECK_EQ_U((GLuint)got, *bindings[i].want);
  }
  if (!texels) return;
  GLint active = 0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
  if (active != GL_TEXTURE0) fprintf(stderr, "%s left the active texture unit at 0x%x\n", call, active);
  CHECK_EQ_U((GLuint)active, GL_TEXTURE0);
  for (GLuint unit = 0; unit < 2; unit++) {
    GLint got = 0;
    glActiveTexture(GL_TEXTURE0 + unit);
    glGetIntegerv(TEXTURE_BINDING_BUFFER, &got);
    if ((GLuint)got != app_tbo[unit])
      fprintf(stderr, "%s left unit %u's GL_TEXTURE_BUFFER at %d, the application had %u\n", call, unit, got,
              app_tbo[unit]);
    CHECK_EQ_U((GLuint)got, app_tbo[unit]);
  }
  glActiveTexture((GLenum)active);
}

static GLuint texture(uint32_t w, uint32_t h) {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32F, (GLsizei)w, (GLsizei)h);
  return t;
}

#define CALL(expr, want)                                                                                     \
  do {                                                                                                       \
    set_app_bindings();                                                                                      \
    CHECK_STATUS((expr), (want));                                                                            \
    check_bindings(#expr);                                                                                   \
  } while (0)

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  a = gt_test_buffer(4096, gt_test_noise, 1);
  b = gt_test_buffer(4096, gt_test_noise, 2);
  c = gt_test_buffer(4096, gt_test_noise, 3);
  app_ssbo = gt_test_buffer(16, gt_test_poison, 0);
  app_read = gt_test_buffer(16, gt_test_poison, 1);
  app_write = gt_test_buffer(16, gt_test_poison, 2);
  app_array = gt_test_buffer(16, gt_test_poison, 3);
  app_tex = texture(4, 4);
  tex_src = texture(16, 16);
  tex_dst = texture(16, 16);
  texels = gt_context_matmul_kernel(ctx) == GT_MATMUL_KERNEL_TEXELS;
  if (texels) {
    /* Names bound once to the buffer target are texture-buffer objects;
     * they need no storage for the bindings to be checked. */
    glGenTextures(2, app_tbo);
    for (int i = 0; i < 2; i++)
      glBindTexture(TEXTURE_BUFFER, app_tbo[i]);
    glBindTexture(TEXTURE_BUFFER, 0);
  }
  printf("texture-buffer units checked: %s\n", texels ? "yes (a TEXELS context)" : "no");

  gt_view src = {a, 7, 19, 23, 30, GT_F32}, dst = {b, 3, 23, 19, 21, GT_F32};
  gt_view square = {c, 5, 21, 21, 25, GT_F32};
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD,
                                           GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
  for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
    gt_transpose_desc d = {strategies[i], 8};
    CALL(gt_transpose(ctx, src, dst, &d), GT_OK);
    CALL(gt_transpose(ctx, square, square, &d), GT_OK);
  }
  CALL(gt_copy(ctx, src, (gt_view){b, 9, 19, 23, 27, GT_F32}), GT_OK);
  CALL(gt_matmul(ctx, (gt_view){a, 1, 13, 37, 40, GT_F32}, (gt_view){c, 0, 37, 11, 12, GT_F32},
                 (gt_view){b, 4, 13, 11, 17, GT_F32}, NULL),
       GT_OK);
  /* Rows 16-byte aligned, K and N multiples of 4: the texels kernel. */
  CALL(gt_matmul(ctx, (gt_view){a, 0, 13, 36, 40, GT_F32}, (gt_view){c, 0, 36, 12, 12, GT_F32},
                 (gt_view){b, 4, 13, 12, 17, GT_F32}, NULL),
       GT_OK);
  float host[19 * 23];
  memset(host, 0, sizeof host);
  CALL(gt_write(ctx, src, host, 0), GT_OK);
  CALL(gt_read(ctx, src, host, 0), GT_OK);
  CALL(gt_read_begin(ctx, src), GT_OK);
  CALL(gt_read_end(ctx, host, 0, UINT64_MAX), GT_OK);
  CALL(gt_read_begin(ctx, src), GT_OK);
  CALL(gt_read_cancel(ctx), GT_OK);
  gt_fence f;
  CALL(gt_fence_insert(ctx, &f), GT_OK);
  CALL(gt_fence_wait(ctx, &f, UINT64_MAX), GT_OK);
  set_app_bindings();
  gt_fence_release(ctx, &f);
  check_bindings("gt_fence_release");
  CALL(gt_finish(ctx), GT_OK);
  bool flushes;
  CALL(gt_context_flushes_denormals(ctx, &flushes), GT_OK); /* the first call: the probe runs */

  gt_image is = {tex_src, 0, 1, 2, 13, 9, GT_FORMAT_R32F}, id = {tex_dst, 0, 0, 3, 9, 13, GT_FORMAT_R32F};
  CALL(gt_image_transpose(ctx, is, id, NULL), GT_OK);
  CALL(gt_image_rotate(ctx, is, id, 1, NULL), GT_OK);

  gt_kernel_desc kd;
  memset(&kd, 0, sizeof kd);
  kd.body = "void main() { uvec2 g = gt_global(); if (gt_in_domain(g)) y_write(g, 2.0 * x_read(g)); }\n";
  kd.tile_rows = kd.tile_cols = 8; /* within the ES 3.1 minimum of 128 invocations */
  kd.view_count = 2;
  kd.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  kd.views[1] = (gt_kernel_view){"y", GT_F32, GT_ACCESS_WRITE};
  gt_kernel_id k = 0;
  CALL(gt_kernel_create(ctx, &kd, &k), GT_OK);
  gt_view kv[2] = {src, (gt_view){b, 9, 19, 23, 27, GT_F32}};
  gt_dispatch_desc dd = {{19, 23}, GT_POLICY_PAD, kv, NULL};
  CALL(gt_kernel_dispatch(ctx, k, &dd, NULL), GT_OK);
  set_app_bindings();
  gt_kernel_destroy(ctx, k);
  check_bindings("gt_kernel_destroy");

  static unsigned char cache[1 << 20];
  size_t size = 0, written = 0;
  uint32_t loaded = 0;
  CALL(gt_program_cache_size(ctx, &size), GT_OK);
  CALL(gt_program_cache_save(ctx, cache, sizeof cache, &written), GT_OK);

  /* A second context on the same GL context: init, load, release. */
  gt_context *other = NULL;
  CALL(gt_context_init(NULL, 0, NULL, &other), GT_OK);
  CALL(gt_program_cache_load(other, cache, written, &loaded), GT_OK);
  CALL(gt_transpose(other, src, dst, NULL), GT_OK);
  CALL(gt_read(other, src, host, 0), GT_OK);
  set_app_bindings();
  gt_context_release(other);
  check_bindings("gt_context_release");

  /* Refusals change nothing either. */
  CALL(gt_transpose(ctx, src, src, NULL), GT_ERR_SHAPE_MISMATCH);
  CALL(gt_read(ctx, (gt_view){a, 4095, 1, 2, 0, GT_F32}, host, 0), GT_ERR_OUT_OF_RANGE);

  GLuint buffers[7] = {a, b, c, app_ssbo, app_read, app_write, app_array};
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDeleteBuffers(7, buffers);
  GLuint textures[3] = {app_tex, tex_src, tex_dst};
  glDeleteTextures(3, textures);
  if (texels) glDeleteTextures(2, app_tbo);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
