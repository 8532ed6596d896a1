/* Kernels, their variants and programs: the program table's key, a slot of
 * the table (gl/program_table.h builds and finds them) and the GLSL text
 * each program is built from (shader_source.c). Which programs the
 * planners name: program_list.h. */
#ifndef GT_PROGRAM_H
#define GT_PROGRAM_H

#include "plan/gt_internal.h"

/* The kernels in glsl/, one file each (enumerations.h). */
#define GT__KERNEL_CONSTANT(name, file, include, order) GT_KERNEL_##name,
typedef enum gt_kernel { GT_EACH_KERNEL(GT__KERNEL_CONSTANT) GT_KERNEL_COUNT } gt_kernel;

/* Variant flags (enumerations.h), each a #define in the program's source,
 * and the images' rotation field. */
#define GT__VARIANT_CONSTANT(name, bit) GT_VARIANT_##name = 1u << (bit),
enum {
  GT_EACH_VARIANT_FLAG(GT__VARIANT_CONSTANT) /* */
  GT_VARIANT_ROTATE_SHIFT = 5                /* images: bits 5-6 hold GT_ROTATE, quarter turns */
};
#define GT__VARIANT_OR(name, bit) | GT_VARIANT_##name
/* Every variant flag at once. */
#define GT_VARIANT_EVERY_FLAG (0u GT_EACH_VARIANT_FLAG(GT__VARIANT_OR))

/* Everything that makes one program different from another: the key of
 * the program table. */
typedef struct gt_program_key {
  gt_kernel kernel;
  uint32_t tile;       /* TILE, elements per tile side; 0 for SIMPLE */
  uint32_t group_cols; /* local_size_x */
  uint32_t group_rows; /* local_size_y */
  uint32_t variant;    /* GT_VARIANT_* */
  gt_type elem;        /* GLSL element type: uint, int or float */
  gt_format format;    /* image kernels: the texel format; 0 otherwise */
} gt_program_key;

typedef struct gt_program {
  gt_program_key key;
  uint32_t hash;                   /* of key, to skip other keys fast */
  uint32_t used;                   /* the table's clock when last asked for */
  gt_gl_name name;                 /* 0 = free slot */
  gt_gl_location views_loc;        /* uniform uvec4 gt_views[] */
  gt_gl_location group_base_loc;   /* uniform uvec2 gt_group_base */
  gt_gl_location scale_loc;        /* matmul: uniform vec2 gt_scale */
  gt_gl_location k_range_loc;      /* matmul: uniform uvec2 gt_k_range */
  gt_gl_location epilogue_loc;     /* matmul: uniform uvec2 gt_epilogue */
  gt_gl_location clamp_loc;        /* matmul: uniform vec2 gt_clamp */
  gt_gl_location zero_points_loc;  /* quantised matmul: uniform ivec2 gt_zero_points */
  gt_gl_location requantize_loc;   /* quantised matmul, 8-bit c: uniform ivec3 gt_requantize */
  gt_gl_location clamp_int_loc;    /* quantised matmul: uniform ivec2 gt_clamp_int */
  gt_gl_location grid_origin_loc;  /* in-place SIMPLE: uniform uvec2 gt_grid_origin */
  gt_gl_location stripe_tiles_loc; /* tiled transposes, images: uniform uint gt_stripe_tiles */
  gt_gl_location batch_loc;        /* batched matmul: uniform uvec4 gt_batch */
} gt_program;

/* The program table's slots where the context desc names none, and the
 * most it may name (gt_context_desc.program_slots). */
enum { GT_PROGRAM_SLOTS_DEFAULT = 128, GT_PROGRAM_SLOTS_MOST = 65536 };

/* Longest slice of K one matmul dispatch sums. Mesa silently stops a
 * shader's loops after 65,535 iterations in all; the tiled kernel, if not
 * unrolled, runs at most about 9 iterations per k, so 4096 stays clear,
 * and a dispatch stays short on devices with a watchdog. A multiple of
 * every tile. */
#define GT_MATMUL_K_CHUNK 4096u

/* The same where AUTO runs the shared kernel alone (no texels kernel
 * beside it): its K loop runs about 9 iterations per 8 k (18,432 at
 * most), and each cut of K is one more pass over c
 * (docs/notes/2026-12-nvidia-matmul-f16.md, "One K slice for the shared
 * kernel"). A multiple of GT_MATMUL_K_CHUNK. */
#define GT_MATMUL_SHARED_K_CHUNK 16384u

/* K below which the shared kernel steps 8 k rather than 16 where 16 would
 * pad its last step with 8 k or more (short_k_pads_word_steps in
 * matmul_plan.c). */
#define GT_MATMUL_SHORT_K 64u

/* The registers matmul kernel (matmul_blocked.comp): 8 x 8 invocations of
 * 4 x 4 results each. */
enum { GT_BLOCKED_GROUP = 8, GT_BLOCKED_TILE = 4 * GT_BLOCKED_GROUP };

/* The line a GT_VARIANT_HALF_STORAGE program's preamble enables its
 * 16-bit types in storage blocks with. */
#define GT_HALF_STORAGE_EXTENSION "#extension GL_NV_gpu_shader5 : require\n"

/* The bands kernel (matmul_bands.comp): a group of 32 places along a
 * band by 8 slices of K, for bands of at most 8 rows or columns. */
enum { GT_MATMUL_BAND_ALONG = 32, GT_MATMUL_BAND_SLICES = 8, GT_MATMUL_BAND_MAX = 8 };

/* The stream kernel (matmul_stream.comp), for a c of at most
 * GT_MATMUL_STREAM_ROWS rows: with b transposed, a group of LANES
 * invocations along each of COLUMNS rows of b; else QUADS quads of b's
 * columns by SLICES invocations along K. LANES and SLICES are at least
 * the rows a group makes (its sums are added by that many invocations). */
enum {
  GT_MATMUL_STREAM_ROWS = 8,
  GT_MATMUL_STREAM_LANES = 16,
  GT_MATMUL_STREAM_COLUMNS = 4,
  GT_MATMUL_STREAM_QUADS = 8,
  GT_MATMUL_STREAM_SLICES = 8
};

/* Storage-block bindings, matched by the kernels' layout(binding = N). */
enum { GT_BINDING_SRC = 0, GT_BINDING_DST = 1 };
enum {
  GT_BINDING_A = 0,
  GT_BINDING_B = 1,
  GT_BINDING_C = 2,
  GT_BINDING_BIAS = 3,
  GT_BINDING_MULTIPLIERS = 4,
  GT_BINDING_SHIFTS = 5
};

/* The group of the simple (one element per invocation) transpose, in place
 * or not, and of image rotation: 32 invocations along a source row keep its
 * reads contiguous; 4 rows make 128 invocations, the ES 3.1 minimum. */
enum { GT_SIMPLE_GROUP_COLS = 32, GT_SIMPLE_GROUP_ROWS = 4 };

/* The view uniforms: gt_views[slot] = (rows, cols, offset, pitch); as many
 * as a user kernel may bind. */
#define GT_MAX_VIEWS GT_KERNEL_MAX_VIEWS

/* The key's fields as words, in declaration order: what keys are compared
 * and hashed by, and the program cache stores (a format: 7 words). */
enum { GT_PROGRAM_KEY_WORDS = 7 };
void gt__program_key_words(const gt_program_key *k, uint32_t w[GT_PROGRAM_KEY_WORDS]);

/* Whether two keys name the same program. */
bool gt__program_same_key(const gt_program_key *a, const gt_program_key *b);

/* A total order of keys, field by field in declaration order: < 0, 0,
 * > 0 as a comes before b, is b, or after. */
int gt__program_key_order(const gt_program_key *a, const gt_program_key *b);

/* Room for any preamble gt__program_preamble writes, every flag set. */
enum { GT_PREAMBLE_BYTES = 2048 };

/* Writes the preamble (version, defines, layout) of key into buf. Returns
 * the length, or 0 when buf is too small. Needs no GL: the build uses it to
 * validate every variant with glslangValidator. */
size_t gt__program_preamble(const gt_program_key *key, char *buf, size_t size);

/* The name key's program gives its view uniforms (the prelude's
 * gt_views): GT_VIEWS_UNIFORM_PREFIX and a hash of the program's whole
 * text, written into out (room: size); its length, 0 where key names no
 * program. */
#define GT_VIEWS_UNIFORM_PREFIX "gt_views_"
size_t gt__program_views_name(const gt_program_key *key, char *out, size_t size);

/* The source strings of key's program, in order: the preamble, the
 * prelude (source string 1), the kernel's include (3), the tiled
 * transposes' group order (4) and the kernel (2), with the #line
 * directives between them. */
enum { GT_PROGRAM_PARTS = 8 };
void gt__program_parts(const gt_program_key *key, const char *preamble, const char *parts[GT_PROGRAM_PARTS]);

/* The same order for any text: preamble, prelude (source 1), include
 * (source 3, may be NULL), group order (source 4, may be NULL) and body
 * (source 2). User kernels pass their declarations as the include. */
void gt__source_parts(const char *preamble, const char *include, const char *order, const char *body,
                      const char *parts[GT_PROGRAM_PARTS]);

/* The GLSL name of an element type: float, int or uint. */
const char *gt__glsl_type(gt_type t);

/* A texel format's name in the source defines (GT_FORMAT_<name>), or
 * UNKNOWN. */
const char *gt__format_name(gt_format f);

/* FNV-1a (64-bit) over every GLSL text the library builds its programs
 * from: each kernel assembled as gt__program_parts does, and the
 * preamble for every element type and texel format. The program cache is
 * keyed by it, so binaries of other kernel sources are not loaded. */
uint64_t gt__source_hash(void);

/* The kernel's GLSL text and its file name (for logs). */
const char *gt__kernel_source(gt_kernel k);
/* Shared text the kernel needs between the prelude and itself (source
 * string 3), or NULL. */
const char *gt__kernel_include(gt_kernel k);
const char *gt__kernel_name(gt_kernel k);
extern const char gt__glsl_prelude[];

#endif
