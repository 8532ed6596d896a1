/* Source assembly for the kernels: the preamble of defines and layout
 * that the library prepends to glsl/prelude.glsl and a kernel. No GL here,
 * so the build can print every variant for glslangValidator. */
#include "gt_internal.h"

#include <stdio.h>
#include <string.h>

extern const char gt__glsl_transpose_simple[];
extern const char gt__glsl_transpose_tiled[];
extern const char gt__glsl_transpose_quads[];
extern const char gt__glsl_transpose_words[];
extern const char gt__glsl_transpose_inplace_simple[];
extern const char gt__glsl_transpose_inplace_tiled[];
extern const char gt__glsl_transpose_order[];
extern const char gt__glsl_matmul_common[];
extern const char gt__glsl_matmul_simple[];
extern const char gt__glsl_matmul_tiled[];
extern const char gt__glsl_matmul_blocked[];
extern const char gt__glsl_matmul_blocked_shared[];
extern const char gt__glsl_matmul_texels[];
extern const char gt__glsl_copy[];
extern const char gt__glsl_copy_vec4[];
extern const char gt__glsl_image_common[];
extern const char gt__glsl_image_simple[];
extern const char gt__glsl_image_tiled[];

/* Each kernel's text, the part it shares with its family, and the group
 * order of the tiled transposes where it takes its groups in that order. */
static const struct {
  const char *name;
  const char *source;
  const char *include;
  const char *order;
} kernels[GT_KERNEL_COUNT] = {
    [GT_KERNEL_TRANSPOSE_SIMPLE] = {"transpose_simple.comp", gt__glsl_transpose_simple, NULL, NULL},
    [GT_KERNEL_TRANSPOSE_TILED] = {"transpose_tiled.comp", gt__glsl_transpose_tiled, NULL,
                                   gt__glsl_transpose_order},
    [GT_KERNEL_TRANSPOSE_QUADS] = {"transpose_quads.comp", gt__glsl_transpose_quads, NULL, NULL},
    [GT_KERNEL_TRANSPOSE_WORDS] = {"transpose_words.comp", gt__glsl_transpose_words, NULL,
                                   gt__glsl_transpose_order},
    [GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE] = {"transpose_inplace_simple.comp",
                                            gt__glsl_transpose_inplace_simple, NULL, NULL},
    [GT_KERNEL_TRANSPOSE_INPLACE_TILED] = {"transpose_inplace_tiled.comp", gt__glsl_transpose_inplace_tiled,
                                           NULL, gt__glsl_transpose_order},
    [GT_KERNEL_MATMUL_SIMPLE] = {"matmul_simple.comp", gt__glsl_matmul_simple, gt__glsl_matmul_common, NULL},
    [GT_KERNEL_MATMUL_TILED] = {"matmul_tiled.comp", gt__glsl_matmul_tiled, gt__glsl_matmul_common, NULL},
    [GT_KERNEL_MATMUL_BLOCKED] = {"matmul_blocked.comp", gt__glsl_matmul_blocked, gt__glsl_matmul_common,
                                  NULL},
    [GT_KERNEL_MATMUL_BLOCKED_SHARED] = {"matmul_blocked_shared.comp", gt__glsl_matmul_blocked_shared,
                                         gt__glsl_matmul_common, NULL},
    [GT_KERNEL_MATMUL_TEXELS] = {"matmul_texels.comp", gt__glsl_matmul_texels, NULL, NULL},
    [GT_KERNEL_COPY] = {"copy.comp", gt__glsl_copy, NULL, NULL},
    [GT_KERNEL_COPY_VEC4] = {"copy_vec4.comp", gt__glsl_copy_vec4, NULL, NULL},
    [GT_KERNEL_IMAGE_SIMPLE] = {"image_simple.comp", gt__glsl_image_simple, gt__glsl_image_common, NULL},
    [GT_KERNEL_IMAGE_TILED] = {"image_tiled.comp", gt__glsl_image_tiled, gt__glsl_image_common,
                               gt__glsl_transpose_order},
};

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
  switch (t) {
  case GT_F32: return "float";
  case GT_I32: return "int";
  case GT_U32: return "uint";
  default: return "uint"; /* 2- and 1-byte elements: their bits, unpacked */
  }
}

static const char *format_name(gt_format f) {
  switch (f) {
  case GT_FORMAT_R32F: return "R32F";
  case GT_FORMAT_R32I: return "R32I";
  case GT_FORMAT_R32UI: return "R32UI";
  case GT_FORMAT_RGBA8: return "RGBA8";
  }
  return "UNKNOWN";
}

size_t gt__program_preamble(const gt_program_key *key, char *buf, size_t size) {
  /* A tile of elements: the kernel's TILE for tiled kernels, else one
   * element per invocation of the group. */
  uint32_t tile_rows = key->tile ? key->tile : key->group_rows;
  uint32_t tile_cols = key->tile ? key->tile : key->group_cols;
  char tile_define[32] = "", image_defines[96] = "";
  if (key->tile) snprintf(tile_define, sizeof tile_define, "#define GT_TILE %u\n", key->tile);
  if (key->format)
    snprintf(image_defines, sizeof image_defines, "#define GT_FORMAT_%s 1\n#define GT_ROTATE %u\n",
             format_name(key->format), (key->variant >> GT_VARIANT_ROTATE_SHIFT) & 3u);
  int n = snprintf(buf, size,
                   "#version %s\n"
                   "#define GT_ELEM %s\n"
                   "#define GT_PACK %u\n"
                   "#define GT_VIEWS %d\n"
                   "#define GT_TILE_ROWS %u\n"
                   "#define GT_TILE_COLS %u\n"
                   "#define GT_GROUP_ROWS %u\n"
                   "%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s"
                   "layout(local_size_x = %u, local_size_y = %u) in;\n"
                   "#line 1 1\n",
                   /* Texture buffers are ES 3.2; every other kernel is ES 3.1. */
                   key->kernel == GT_KERNEL_MATMUL_TEXELS ? "320 es" : "310 es", gt__glsl_type(key->elem),
                   gt__pack(key->elem), GT_MAX_VIEWS, tile_rows, tile_cols, key->group_rows, tile_define,
                   image_defines, (key->variant & GT_VARIANT_GUARDED) ? "#define GT_GUARDED 1\n" : "",
                   (key->variant & GT_VARIANT_ALIASED) ? "#define GT_ALIASED 1\n" : "",
                   (key->variant & GT_VARIANT_TRANS_A) ? "#define GT_TRANS_A 1\n" : "",
                   (key->variant & GT_VARIANT_TRANS_B) ? "#define GT_TRANS_B 1\n" : "",
                   (key->variant & GT_VARIANT_TRUNCATE_A) ? "#define GT_TRUNCATE_A 1\n" : "",
                   (key->variant & GT_VARIANT_VEC4_A) ? "#define GT_VEC4_A 1\n" : "",
                   (key->variant & GT_VARIANT_VEC4_B) ? "#define GT_VEC4_B 1\n" : "",
                   (key->variant & GT_VARIANT_VEC4_C) ? "#define GT_VEC4_C 1\n" : "",
                   (key->variant & GT_VARIANT_ELEMENTS) ? "#define GT_ELEMENTS 1\n" : "",
                   (key->variant & GT_VARIANT_BATCHED) ? "#define GT_BATCHED 1\n" : "",
                   (key->variant & GT_VARIANT_HALF) ? "#define GT_HALF 1\n" : "",
                   (key->variant & GT_VARIANT_HALF_C) ? "#define GT_HALF_C 1\n" : "",
                   (key->variant & GT_VARIANT_REGISTERS) ? "#define GT_REGISTERS 1\n" : "",
                   (key->variant & GT_VARIANT_UVEC4) ? "#define GT_UVEC4 1\n" : "",
                   (key->variant & GT_VARIANT_K1) ? "#define GT_K1 1\n" : "", key->group_cols,
                   key->group_rows);
  return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
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

/* FNV-1a, 64-bit, over text and its terminating NUL: text moved from one
 * string to the next changes the hash. */
static uint64_t hash_text(uint64_t h, const char *text) {
  size_t n = strlen(text) + 1;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)text[i]) * 0x100000001B3ull;
  return h;
}

uint64_t gt__source_hash(void) {
  uint64_t h = 0xCBF29CE484222325ull;
  char preamble[GT_PREAMBLE_BYTES];
  const uint32_t every_flag = GT_VARIANT_GUARDED | GT_VARIANT_ALIASED | GT_VARIANT_TRANS_A |
                              GT_VARIANT_TRANS_B | GT_VARIANT_TRUNCATE_A | GT_VARIANT_VEC4_A |
                              GT_VARIANT_VEC4_B | GT_VARIANT_VEC4_C | GT_VARIANT_ELEMENTS |
                              GT_VARIANT_BATCHED | GT_VARIANT_HALF | GT_VARIANT_HALF_C |
                              GT_VARIANT_REGISTERS | GT_VARIANT_UVEC4 | GT_VARIANT_K1 |
                              3u << GT_VARIANT_ROTATE_SHIFT;
  /* Each kernel as the library assembles it: the prelude, its include
   * and its text (every embedded GLSL file is one of these) and the
   * strings between them. */
  for (int k = 0; k < GT_KERNEL_COUNT; k++) {
    gt_program_key key = {(gt_kernel)k, 16, 16, 16, every_flag, GT_U32, GT_FORMAT_RGBA8};
    const char *parts[GT_PROGRAM_PARTS];
    gt__program_preamble(&key, preamble, sizeof preamble);
    gt__program_parts(&key, preamble, parts);
    for (int i = 0; i < GT_PROGRAM_PARTS; i++)
      h = hash_text(h, parts[i]);
  }
  /* The preamble's layout: every define it can write, with and without a
   * tile, for each element type and texel format. */
  for (uint32_t tile = 0; tile <= 16; tile += 16)
    for (int elem = GT_F32; elem <= GT_U32; elem++)
      for (int format = 0; format <= GT_FORMAT_RGBA8; format++) {
        gt_program_key key = {GT_KERNEL_TRANSPOSE_TILED, tile, 16, 8, every_flag, (gt_type)elem,
                              (gt_format)format};
        gt__program_preamble(&key, preamble, sizeof preamble);
        h = hash_text(h, preamble);
      }
  return h;
}
