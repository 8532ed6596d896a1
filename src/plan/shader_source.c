/* Source assembly for the kernels: the preamble of defines and layout
 * that the library prepends to glsl/prelude.glsl and a kernel. No GL here,
 * so the build can print every variant for glslangValidator. */
#include "plan/matmul_derived.h"

#include <stdio.h>
#include <string.h>

/* Each kernel's text, the part it shares with its family, and the group
 * order of the tiled transposes where it takes its groups in that order:
 * the embedded files (cmake/GltileEmbedGlsl.cmake) as the kernel list
 * names them; `none` is no file. */
#define GT__DECLARE_KERNEL_TEXT(name, file, include, order) extern const char gt__glsl_##file[];
GT_EACH_KERNEL(GT__DECLARE_KERNEL_TEXT)
extern const char gt__glsl_matmul_common[];
extern const char gt__glsl_image_common[];
extern const char gt__glsl_transpose_order[];
#define GT__TEXT_none NULL
#define GT__TEXT_matmul_common gt__glsl_matmul_common
#define GT__TEXT_image_common gt__glsl_image_common
#define GT__TEXT_transpose_order gt__glsl_transpose_order

static const struct {
  const char *name;
  const char *constant; /* the preamble's GT_KERNEL_<constant> */
  const char *source;
  const char *include;
  const char *order;
} kernels[GT_KERNEL_COUNT] = {
#define GT__KERNEL_ENTRY(name, file, include, order)                                                         \
  [GT_KERNEL_##name] = {#file ".comp", #name, gt__glsl_##file, GT__TEXT_##include, GT__TEXT_##order},
    GT_EACH_KERNEL(GT__KERNEL_ENTRY)};

const char *gt__kernel_include(gt_kernel k) {
  return (unsigned)k < GT_KERNEL_COUNT ? kernels[k].include : NULL;
}

const char *gt__kernel_source(gt_kernel k) {
  return (unsigned)k < GT_KERNEL_COUNT ? kernels[k].source : NULL;
}

const char *gt__kernel_name(gt_kernel k) {
  return (unsigned)k < GT_KERNEL_COUNT ? kernels[k].name : "unknown";
}

const char *gt__glsl_type(gt_type t) {
#define GT__GLSL_CASE(type, bytes, glsl, name, descr)                                                        \
  case type: return glsl;
  switch (t) { GT_EACH_TYPE(GT__GLSL_CASE) }
  return "uint";
}

const char *gt__format_name(gt_format f) {
#define GT__FORMAT_NAME_CASE(format, name, gl)                                                               \
  case format: return name;
  switch (f) { GT_EACH_FORMAT(GT__FORMAT_NAME_CASE) }
  return "UNKNOWN";
}

/* The #defines of key's variant flags, one line each. */
static void variant_defines(uint32_t variant, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
#define GT__DEFINE_FLAG(name, bit)                                                                           \
  if ((variant & GT_VARIANT_##name) && used < size)                                                          \
    used += (size_t)snprintf(buf + used, size - used, "#define GT_" #name " 1\n");
  GT_EACH_VARIANT_FLAG(GT__DEFINE_FLAG)
}

/* FNV-1a, 64-bit, over text and its terminating NUL: text moved from one
 * string to the next changes the hash. */
static uint64_t hash_text(uint64_t h, const char *text) {
  size_t n = strlen(text) + 1;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)text[i]) * 0x100000001B3ull;
  return h;
}

size_t gt__program_preamble(const gt_program_key *key, char *buf, size_t size) {
  /* What the program derives from its flags, written here once. */
  char derived[1024];
  bool derived_ok;
  gt__matmul_derived_defines(key, derived, sizeof derived, &derived_ok);
  if (!derived_ok) return 0;
  /* A tile of elements: the kernel's TILE for tiled kernels, else one
   * element per invocation of the group. */
  uint32_t tile_rows = key->tile ? key->tile : key->group_rows;
  uint32_t tile_cols = key->tile ? key->tile : key->group_cols;
  char tile_define[32] = "", image_defines[96] = "", flag_defines[512];
  variant_defines(key->variant, flag_defines, sizeof flag_defines);
  if (key->tile) snprintf(tile_define, sizeof tile_define, "#define GT_TILE %u\n", key->tile);
  if (key->format)
    snprintf(image_defines, sizeof image_defines, "#define GT_FORMAT_%s 1\n#define GT_ROTATE %u\n",
             gt__format_name(key->format), (key->variant >> GT_VARIANT_ROTATE_SHIFT) & 3u);
  /* The kernel's own define lets a shared include (matmul_common) leave
   * out what that kernel declares another way; user kernels (no library
   * kernel) get none. */
  char kernel_define[48] = "";
  if ((unsigned)key->kernel < GT_KERNEL_COUNT)
    snprintf(kernel_define, sizeof kernel_define, "#define GT_KERNEL_%s 1\n", kernels[key->kernel].constant);
  /* Texture buffers are ES 3.2; every other program is ES 3.1. */
  bool texels = key->kernel == GT_KERNEL_MATMUL_TEXELS || (key->variant & GT_VARIANT_HALF_TEXELS);
  /* 16-bit types in storage blocks: where the context found the extension. */
  const char *storage = (key->variant & GT_VARIANT_HALF_STORAGE) ? GT_HALF_STORAGE_EXTENSION : "";
  int n = snprintf(buf, size,
                   "#version %s\n"
                   "%s%s"
                   "#define GT_ELEM %s\n"
                   "#define GT_PACK %u\n"
                   "#define GT_VIEWS %d\n"
                   "#define GT_TILE_ROWS %u\n"
                   "#define GT_TILE_COLS %u\n"
                   "#define GT_GROUP_ROWS %u\n"
                   "%s%s%s%s"
                   "layout(local_size_x = %u, local_size_y = %u) in;\n",
                   texels ? "320 es" : "310 es", storage, kernel_define, gt__glsl_type(key->elem),
                   gt__pack(key->elem), GT_MAX_VIEWS, tile_rows, tile_cols, key->group_rows, tile_define,
                   image_defines, flag_defines, derived, key->group_cols, key->group_rows);
  if (n < 0 || (size_t)n >= size) return 0;
  if ((unsigned)key->kernel >= GT_KERNEL_COUNT) { /* a user kernel's: no library text follows */
    int m = snprintf(buf + n, size - (size_t)n, "#line 1 1\n");
    return m < 0 || (size_t)(n + m) >= size ? 0 : (size_t)(n + m);
  }
  /* The program's name for its view uniforms holds a hash of its whole
   * text: a binary from the program cache proves it is this program by
   * having that uniform (program_cache.c), whatever key it came under. */
  const char *parts[GT_PROGRAM_PARTS];
  gt__program_parts(key, buf, parts);
  uint64_t h = 0xCBF29CE484222325ull;
  for (int i = 0; i < GT_PROGRAM_PARTS; i++)
    h = hash_text(h, parts[i]);
  int m = snprintf(buf + n, size - (size_t)n, "#define gt_views %s%016llx\n#line 1 1\n", GT_VIEWS_UNIFORM_PREFIX,
                   (unsigned long long)h);
  return m < 0 || (size_t)(n + m) >= size ? 0 : (size_t)(n + m);
}

size_t gt__program_views_name(const gt_program_key *key, char *out, size_t size) {
  char preamble[GT_PREAMBLE_BYTES];
  const char *line = gt__program_preamble(key, preamble, sizeof preamble) ? strstr(preamble, "#define gt_views ") : NULL;
  if (line == NULL || size == 0) return 0;
  line += strlen("#define gt_views ");
  size_t len = strcspn(line, "\n");
  if (len >= size) return 0;
  memcpy(out, line, len);
  out[len] = '\0';
  return len;
}

void gt__source_parts(const char *preamble, const char *include, const char *order, const char *body,
                      const char *parts[GT_PROGRAM_PARTS]) {
  parts[0] = preamble;
  parts[1] = gt__glsl_prelude;
  parts[2] = "\n#line 1 3\n";
  parts[3] = include ? include : "";
  parts[4] = "\n#line 1 4\n";
  parts[5] = order ? order : "";
  parts[6] = "\n#line 1 2\n";
  parts[7] = body;
}

void gt__program_parts(const gt_program_key *key, const char *preamble, const char *parts[GT_PROGRAM_PARTS]) {
  gt_kernel k = key->kernel;
  bool known = (unsigned)k < GT_KERNEL_COUNT;
  gt__source_parts(preamble, gt__kernel_include(k), known ? kernels[k].order : NULL, gt__kernel_source(k),
                   parts);
}

uint64_t gt__source_hash(void) {
  uint64_t h = 0xCBF29CE484222325ull;
  char preamble[GT_PREAMBLE_BYTES];
  const uint32_t every_flag = GT_VARIANT_EVERY_FLAG | 3u << GT_VARIANT_ROTATE_SHIFT;
  /* Each kernel as the library assembles it: the prelude, its include
   * and its text (every embedded GLSL file is one of these) and the
   * strings between them. */
  for (int k = 0; k < GT_KERNEL_COUNT; k++) {
    gt_program_key key = {(gt_kernel)k, 16, 16, 16, every_flag, GT_U32, GT_FORMAT_RGBA8};
    const char *parts[GT_PROGRAM_PARTS];
    gt__program_parts(&key, "", parts);
    for (int i = 1; i < GT_PROGRAM_PARTS; i++)
      h = hash_text(h, parts[i]);
  }
  /* The preamble's layout: every define it can write, with and without a
   * tile, for each element type and texel format. */
  for (uint32_t tile = 0; tile <= 16; tile += 16)
    for (int elem = 1; elem <= GT_TYPE_COUNT; elem++)
      for (int format = 0; format <= GT_FORMAT_COUNT; format++) {
        gt_program_key key = {GT_KERNEL_TRANSPOSE_TILED, tile, 16, 8, every_flag, (gt_type)elem,
                              (gt_format)format};
        gt__program_preamble(&key, preamble, sizeof preamble);
        h = hash_text(h, preamble);
      }
  return h;
}
