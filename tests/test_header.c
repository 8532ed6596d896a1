/* The public headers on their own, with every warning an error: each
 * must need nothing but the standard headers it includes. Built as C99
 * and C11. The advanced header brings gltile.h with it. */
#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

#include <stdio.h>

int main(void) {
  gt_extent e = gt_extent_pad((gt_extent){ 999, 666 }, 16, 16);
  int ok = e.rows == 1008 && e.cols == 672 && gt_type_size(GT_F32) == 4 &&
           gt_type_from_name(gt_type_name(GT_U16)) == GT_U16;
  printf("%s\n", ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
  return ok ? 0 : 1;
}
