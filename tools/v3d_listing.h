/* The TMU requests of a program on V3D (VideoCore VI), counted in the
 * code its compiler prints. v3d's statistics line counts no memory
 * access; with "qpu" in V3D_DEBUG (tools/mesa-mobile.sh --stats sets it)
 * the driver prints each compiled program's QPU instructions to stderr,
 * which `gltile compile` captures (stderr_capture.h) and feeds here line
 * by line. Every access to memory starts with one TMU request: a write to
 * an address register (tmua, tmuau) for a buffer, to the last coordinate
 * register (tmus, tmusf, tmuscm, tmusfcm) for a texture. */
#ifndef GT_V3D_LISTING_H
#define GT_V3D_LISTING_H

#include <stdbool.h>

typedef struct v3d_listing {
  bool inside;  /* within a listing */
  int requests; /* the listing's so far */
  double last;  /* the last finished listing's; -1 before one */
} v3d_listing;

/* Whether the driver prints its code: V3D_DEBUG holds "qpu". */
bool v3d_listing_printed(void);

/* Before the first line. */
void v3d_listing_start(v3d_listing *l);

/* Reads one line of the driver's stderr; true where it belongs to a
 * listing (the header or an instruction), which stderr need not see. */
bool v3d_listing_line(v3d_listing *l, const char *line);

/* After the last line: the TMU requests of the last listing, or -1 where
 * there was none. */
double v3d_listing_requests(v3d_listing *l);

/* The TMU requests one line of a QPU listing makes (0, 1 or 2: the add
 * and the multiply unit may each write one). */
int v3d_line_tmu_requests(const char *line);

#endif
