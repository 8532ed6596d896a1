/* The public headers from C++: extern "C" linkage and no C-only syntax. */
#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

#include <cstdio>

int main() {
  gt_extent e = { 999, 666 };
  gt_extent t = gt_extent_truncate(e, 16, 16);
  bool ok = t.rows == 992 && t.cols == 656 && gt_status_string(GT_OK) != nullptr &&
            gt_type_npy_descr(GT_F32) != nullptr;
  std::printf("%s\n", ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
  return ok ? 0 : 1;
}
