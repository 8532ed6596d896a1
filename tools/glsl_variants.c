/* Build-time helper: writes the full source of every program a plan can
 * name on any device (the program list: preamble + prelude + kernel,
 * exactly as the library assembles them) into a folder, for
 * glslangValidator to check, and prints how many there are. */
#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

#include <stdio.h>
#include <string.h>

/* glslangValidator does not know GL_NV_gpu_shader5, which a program that
 * takes 16-bit storage enables; GL_EXT_shader_16bit_storage, which it
 * knows, gives the same 16-bit types in storage blocks, so the rest of
 * the text is checked under that one. */
static const char nv_storage[] = GT_PROGRAM_HALF_STORAGE_LINE;
static const char checked_storage[] = "#extension GL_EXT_shader_16bit_storage : require\n";

static void put_preamble(const char *preamble, FILE *f) {
  const char *at = strstr(preamble, nv_storage);
  if (at == NULL) {
    fputs(preamble, f);
    return;
  }
  fwrite(preamble, 1, (size_t)(at - preamble), f);
  fputs(checked_storage, f);
  fputs(at + strlen(nv_storage), f);
}

static int write_variant(const char *dir, int n, const gt_program_id *id) {
  char preamble[GT_PROGRAM_PREAMBLE_BYTES], path[1024];
  const char *parts[GT_PROGRAM_TEXT_PARTS];
  int count = gt_program_text(id, preamble, sizeof preamble, parts);
  if (count == 0) return 1;
  snprintf(path, sizeof path, "%s/%04d_%s", dir, n, gt_program_kernel_file(id));
  FILE *f = fopen(path, "w");
  if (f == NULL) return 1;
  put_preamble(parts[0], f);
  for (int i = 1; i < count; i++)
    fputs(parts[i], f);
  return fclose(f) != 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  enum { MOST = 8192 };
  static gt_program_id ids[MOST];
  size_t count = gt_program_list(NULL, ids, MOST);
  if (count > MOST) {
    fprintf(stderr, "%s: %zu programs, room for %d\n", argv[0], count, MOST);
    return 1;
  }
  int failed = 0;
  for (size_t i = 0; i < count; i++)
    failed |= write_variant(argv[1], (int)i, &ids[i]);
  printf("gltile: %zu programs on the program list (every device-table entry and limit set)\n", count);
  return failed;
}
