/* The reasons a plan gives for its choices: one string, "; " between. */
#include "plan/gt_internal.h"

#include <stdio.h>
#include <string.h>

void gt__reason_add(char *reasons, size_t size, const char *why) {
  size_t used = strlen(reasons);
  if (used + 1 < size) snprintf(reasons + used, size - used, "%s%s", used ? "; " : "", why);
}
