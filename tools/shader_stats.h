/* The statistics a driver's shader compiler reports for a program, as
 * Mesa's panfrost (Mali Midgard, Bifrost, Valhall), freedreno (Adreno)
 * and v3d (VideoCore) print them through the GL debug output: one line of
 * "VALUE NAME" items. Fields a driver does not report are -1. */
#ifndef GT_SHADER_STATS_H
#define GT_SHADER_STATS_H

#include <stdbool.h>

typedef struct shader_stats {
  char line[640];       /* the items as the driver wrote them */
  double inst;          /* instructions */
  double registers;     /* Midgard work registers, Adreno full registers,
                           V3D peak temporaries */
  double spills, fills; /* spills:fills; Adreno private stores and loads */
  double occupancy;     /* threads per core (Mali, V3D) or waves (Adreno) */
  double occupancy_max; /* the family's full occupancy */
  double cycles;        /* the compiler's estimate: Mali cycles, V3D
                           instructions and stalls */
  double arith;         /* Mali: the arithmetic units' cycles */
  double ldst;          /* Mali: the load/store unit's cycles */
  double memory;        /* the memory accesses the program makes: Mali
                           Bifrost and Valhall load/store messages (the
                           load/store unit's cycles, one a message), Adreno
                           memory and texture instructions (categories 6
                           and 5: loads may take the texture path); -1 on Midgard
                           and V3D, whose lines do not count them (gltile
                           compile counts V3D's TMU requests in its code:
                           v3d_listing.h) */
  double nops;          /* Adreno, V3D */
  double sync_stalls;   /* Adreno: (sy) stall estimate */
  double loop_inst;     /* not from the line: Adreno's main loop, its */
  double loop_memory;   /* instructions and memory instructions, which
                           gltile compile counts in its code
                           (ir3_listing.h); -1 where unknown */
} shader_stats;

/* Reads a driver message; false when it is not a compute shader's
 * statistics line. renderer picks the family's full occupancy. */
bool shader_stats_parse(const char *message, const char *renderer, shader_stats *out);

/* "" or the reason the program falls short: spills, occupancy. */
const char *shader_stats_shortfall(const shader_stats *s);

#endif
