/* Element types: their size, from the one list of them (enumerations.h). */
#include "plan/enumerations.h"

size_t gt_type_size(gt_type t) {
#define GT__SIZE_CASE(type, bytes, glsl, name, descr)                                                        \
  case type: return bytes;
  switch (t) { GT_EACH_TYPE(GT__SIZE_CASE) }
  return 0;
}
