/* A transfer's rows: the shape gt_write and gt_read move a view in, and
 * the one question a planner asks of it, whether the rows sit on whole
 * words (else gt_write stages them through the copy kernel). */
#ifndef GT_TRANSFER_ROWS_H
#define GT_TRANSFER_ROWS_H

#include "plan/program.h"
#include "plan/view.h"

/* The view as rows for a transfer, in 64-bit counts so a gapless view
 * with gapless host rows can travel as one long row. */
typedef struct gt_transfer_rows {
  uint64_t size; /* bytes per element */
  uint64_t rows, cols;
  uint64_t pitch;      /* elements between row starts in the buffer */
  uint64_t host_pitch; /* elements between row starts in host memory */
  uint64_t offset;     /* the first element, from the buffer's start */
} gt_transfer_rows;

/* The rows of v with host rows host_pitch elements apart (0 = cols). */
gt_transfer_rows gt__transfer_rows(gt_view v, size_t host_pitch);

/* Whether every row of t starts and ends on a 4-byte boundary. */
bool gt__rows_on_words(const gt_transfer_rows *t);

/* The program gt_write of dst (host rows host_pitch elements apart, 0 =
 * cols) runs: the scalar copy of dst's element size where the rows do
 * not start and end on whole words, staged; else none (group_cols 0),
 * for glBufferSubData. */
gt_program_key gt__write_program(gt_view dst, size_t host_pitch);

#endif
