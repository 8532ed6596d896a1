/* The library's version, read from the header it was built with. */
#include <gltile/gltile.h>

uint32_t gt_version(void) { return GT_VERSION_NUMBER; }
