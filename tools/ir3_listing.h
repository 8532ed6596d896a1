/* The main loop of a program on Adreno, counted in the code its compiler
 * prints. ir3 merges loads across copies of a loop body, so the difference
 * between a program and the same with one more copy of its loop is not
 * one pass there; the loop itself is. With "cs" in IR3_SHADER_DEBUG
 * (tools/mesa-mobile.sh --stats sets it on Adreno) freedreno prints each
 * compute program's NIR and then its code to stderr, every line after
 * "MESA: info: ", which `gltile compile` captures (stderr_capture.h) and
 * feeds here line by line. The loop is the code from a label to the first
 * branch back to it: its instructions (one with (rptN) counted N + 1
 * times, as the hardware issues it) and its memory instructions (loads,
 * stores, atomics and texture fetches: the statistics line's categories 6
 * and 5). */
#ifndef GT_IR3_LISTING_H
#define GT_IR3_LISTING_H

#include <stdbool.h>

enum { IR3_LISTING_LABELS = 512 };

typedef struct ir3_listing {
  int state;                 /* outside, in a NIR dump, in the code */
  double inst, memory;       /* the code's so far */
  double loop_inst, loop_memory; /* its first loop's; -1 before one */
  double last_inst, last_memory; /* the last finished listing's loop; -1 */
  int labels;
  struct {
    long name;
    double inst, memory;
  } label[IR3_LISTING_LABELS]; /* the code's labels so far, where they stand */
} ir3_listing;

/* Whether the driver prints its code: IR3_SHADER_DEBUG names "cs". */
bool ir3_listing_printed(void);

/* Before the first line. */
void ir3_listing_start(ir3_listing *l);

/* Reads one line of the driver's stderr; true where it belongs to the
 * driver's dump of a program (its NIR or its code), which stderr need not
 * see. */
bool ir3_listing_line(ir3_listing *l, const char *line);

/* After the last line: the instructions and memory instructions of the
 * last listing's first loop; false (both -1) where there was no listing
 * or its code has no loop. */
bool ir3_listing_loop(ir3_listing *l, double *inst, double *memory);

#endif
