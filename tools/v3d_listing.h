/* The TMU requests of a program on V3D (VideoCore VI), counted in the
 * code its compiler prints. v3d's statistics line counts no memory
 * access; with "qpu" in V3D_DEBUG (tools/mesa-mobile.sh --stats sets it)
 * the driver prints each compiled program's QPU instructions to stderr.
 * Every access to memory starts with one TMU request: a write to an
 * address register (tmua, tmuau) for a buffer, to the last coordinate
 * register (tmus, tmusf, tmuscm, tmusfcm) for a texture. */
#ifndef GT_V3D_LISTING_H
#define GT_V3D_LISTING_H

#include <stdbool.h>
#include <stdio.h>

typedef struct v3d_listing {
  int stderr_copy; /* the process's stderr while the listing is captured */
  FILE *capture;
} v3d_listing;

/* Whether the driver prints its code: V3D_DEBUG holds "qpu". */
bool v3d_listing_printed(void);

/* Sends stderr to a temporary file until v3d_listing_end; false (stderr
 * untouched) where that cannot be done. */
bool v3d_listing_begin(v3d_listing *l);

/* Gives stderr back, writes to it every captured line that is not a QPU
 * listing, and returns the TMU requests of the last listing captured, or
 * -1 where there was none. */
double v3d_listing_end(v3d_listing *l);

/* The TMU requests one line of a QPU listing makes (0, 1 or 2: the add
 * and the multiply unit may each write one). */
int v3d_line_tmu_requests(const char *line);

#endif
