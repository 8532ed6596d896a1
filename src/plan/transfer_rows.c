/* A transfer's rows and the program gt_write needs for them. */
#include "plan/transfer_rows.h"
#include "plan/copy_plan.h"

#include <string.h>

gt_transfer_rows gt__transfer_rows(gt_view v, size_t host_pitch) {
  gt_transfer_rows t = {
      gt_type_size(v.type), v.rows, v.cols, gt__view_pitch(v), host_pitch ? host_pitch : v.cols, v.offset};
  if (t.pitch == t.cols && t.host_pitch == t.cols) {
    t.cols *= t.rows;
    t.rows = 1;
    t.pitch = t.host_pitch = t.cols;
  }
  return t;
}

bool gt__rows_on_words(const gt_transfer_rows *t) {
  return (t->offset * t->size) % 4 == 0 && (t->cols * t->size) % 4 == 0 &&
         (t->rows == 1 || (t->pitch * t->size) % 4 == 0);
}

gt_program_key gt__write_program(gt_view dst, size_t host_pitch) {
  gt_transfer_rows t = gt__transfer_rows(dst, host_pitch);
  gt_program_key none;
  memset(&none, 0, sizeof none);
  return gt__rows_on_words(&t) ? none : gt__copy_scalar_key(dst.type);
}
