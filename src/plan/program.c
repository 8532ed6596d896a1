/* The program key as words: one order of its fields, for comparing keys,
 * hashing them (gl/program_table.c) and writing them into the program cache. */
#include "plan/program.h"

void gt__program_key_words(const gt_program_key *k, uint32_t w[GT_PROGRAM_KEY_WORDS]) {
  w[0] = (uint32_t)k->kernel;
  w[1] = k->tile;
  w[2] = k->group_cols;
  w[3] = k->group_rows;
  w[4] = k->variant;
  w[5] = (uint32_t)k->elem;
  w[6] = (uint32_t)k->format;
}

bool gt__program_same_key(const gt_program_key *a, const gt_program_key *b) {
  return gt__program_key_order(a, b) == 0;
}

int gt__program_key_order(const gt_program_key *a, const gt_program_key *b) {
  uint32_t x[GT_PROGRAM_KEY_WORDS], y[GT_PROGRAM_KEY_WORDS];
  gt__program_key_words(a, x);
  gt__program_key_words(b, y);
  for (int i = 0; i < GT_PROGRAM_KEY_WORDS; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}
