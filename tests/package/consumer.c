/* Links against an installed gltile, checks that the archive's version is
 * its header's, and transposes a 3x2 matrix. Exits 77
 * when no OpenGL ES 3.1 context can be made (the build itself is the main
 * check), 1 on a wrong result. */
#include <gltile/gltile.h>

#include <GLES3/gl31.h>
#include <stdio.h>

int main(void) {
  printf("gltile %d.%d.%d: %s\n", GT_VERSION_MAJOR, GT_VERSION_MINOR, GT_VERSION_PATCH, gt_status_string(GT_OK));
  if (gt_version() != GT_VERSION_NUMBER) {
    printf("the installed library is version %u, its header %d\n", (unsigned)gt_version(), GT_VERSION_NUMBER);
    return 1;
  }
  gt_egl egl;
  if (gt_egl_open(&egl) != GT_OK) return 77;
  gt_context *ctx = NULL;
  int rc = 1;
  if (gt_context_init(NULL, 0, NULL, &ctx) == GT_OK) {
    const float in[6] = { 1, 2, 3, 4, 5, 6 }, want[6] = { 1, 3, 5, 2, 4, 6 };
    float out[6] = { 0 };
    GLuint b[2];
    glGenBuffers(2, b);
    for (int i = 0; i < 2; i++) {
      glBindBuffer(GL_SHADER_STORAGE_BUFFER, b[i]);
      glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof in, in, GL_STATIC_DRAW);
    }
    gt_view a = { b[0], 0, 3, 2, 0, GT_F32 }, at = { b[1], 0, 2, 3, 0, GT_F32 };
    if (gt_transpose(ctx, a, at, NULL) == GT_OK && gt_read(ctx, at, out, 0) == GT_OK) {
      rc = 0;
      for (int i = 0; i < 6; i++) rc |= out[i] != want[i];
    }
    printf("transpose through the installed library: %s\n", rc ? "WRONG" : "ok");
    glDeleteBuffers(2, b);
    gt_context_release(ctx);
  }
  gt_egl_close(&egl);
  return rc;
}
