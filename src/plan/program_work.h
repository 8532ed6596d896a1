/* The work one invocation of a program does: the elements a transpose,
 * copy or image program moves, which sizes its dispatches and gives the
 * compiler's cost per element, and the k a matmul's loop steps a pass,
 * which gives its cost per K step (gltile compile). */
#ifndef GT_PROGRAM_WORK_H
#define GT_PROGRAM_WORK_H

#include "plan/program.h"

/* The elements one invocation of key's program moves, counted in key's
 * element type, as its dispatches count them against the dispatch budget
 * (in place: an invocation's share of the square); 0 for programs that
 * move none (matmul). */
uint32_t gt__program_elements(const gt_program_key *key);

/* The k one pass of key's main K loop steps through: 1 for the registers
 * matmul one k a step (GT_VARIANT_K1), 4 for its quads' step, 0 for every
 * other kernel (whose loops gltile compile does not measure). */
uint32_t gt__program_k_steps(const gt_program_key *key);

#endif
