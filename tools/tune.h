/* `gltile tune`: measures AUTO's candidates on this device. */
#ifndef GT_TUNE_H
#define GT_TUNE_H

#include "tool.h"

typedef struct tool_tune_options {
  unsigned reps;
  bool min_limits;
} tool_tune_options;

/* Times the candidates, prints them and a device-table entry. Returns 0,
 * or 1 when nothing could run. */
int tool_tune(const tool_tune_options *o);

#endif
