/* The work one invocation of a program does: the elements a transpose,
 * copy or image program moves, which sizes its dispatches and gives the
 * compiler's cost per element (gltile compile). */
#ifndef GT_PROGRAM_WORK_H
#define GT_PROGRAM_WORK_H

#include "program.h"

/* The elements one invocation of key's program moves, counted in key's
 * element type, as its dispatches count them against the dispatch budget
 * (in place: an invocation's share of the square); 0 for programs that
 * move none (matmul). */
uint32_t gt__program_elements(const gt_program_key *key);

#endif
