/* Build-time helper: writes the full source of every kernel variant the
 * library can build (preamble + prelude + kernel, exactly as the library
 * assembles them) into a folder, for glslangValidator to check. */
#include "program.h"

#include <stdio.h>

static int write_variant(const char *dir, int n, const gt_program_key *key) {
  char preamble[GT_PREAMBLE_BYTES], path[1024];
  if (gt__program_preamble(key, preamble, sizeof preamble) == 0) return 1;
  snprintf(path, sizeof path, "%s/%03d_%s", dir, n, gt__kernel_name(key->kernel));
  FILE *f = fopen(path, "w");
  if (f == NULL) return 1;
  const char *parts[GT_PROGRAM_PARTS];
  gt__program_parts(key, preamble, parts);
  for (int i = 0; i < GT_PROGRAM_PARTS; i++)
    fputs(parts[i], f);
  return fclose(f) != 0;
}

static const char *out_dir;
static int count, failed;

static void emit(const gt_program_key *key, void *user) {
  (void)user;
  failed |= write_variant(out_dir, count++, key);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  out_dir = argv[1];
  gt__program_variants(emit, NULL);
  return failed;
}
