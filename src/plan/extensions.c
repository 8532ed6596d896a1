/* Extension lists, as EGL and GL give them: names separated by spaces. */
#include "plan/gt_internal.h"

#include <string.h>

bool gt__has_extension(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}
