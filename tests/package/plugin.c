/* A shared object that links the installed archive, as an Android app's
 * JNI library does. tests/package_test.cmake checks what it exports: the
 * header's names it uses, and none of the library's internals (gt__*). */
#include <gltile/gltile.h>

uint32_t plugin_version(void) { return gt_version(); }

/* A context and an operation pull most of the archive in. */
gt_status plugin_transpose(void *mem, size_t size, gt_view src, gt_view dst) {
  gt_context *ctx = NULL;
  gt_status s = gt_context_init(mem, size, NULL, &ctx);
  if (s != GT_OK) return s;
  s = gt_transpose(ctx, src, dst, NULL);
  gt_context_release(ctx);
  return s;
}
