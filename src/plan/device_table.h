/* What AUTO runs on each kind of device, found by the renderer string
 * (device_table.c). */
#ifndef GT_DEVICE_TABLE_H
#define GT_DEVICE_TABLE_H

#include "plan/gt_internal.h"

typedef struct gt_device_entry {
  const char *renderer;           /* a substring of GL_RENDERER; NULL: the fallback */
  const char *name;               /* for gltile info */
  bool measured;                  /* the choices were measured on such a device */
  bool compiled;                  /* chosen from the device compiler's
                                     statistics, not measured on it */
  gt_strategy transpose;          /* what transpose's AUTO runs */
  bool quads;                     /* AUTO's SIMPLE moves 4x4 blocks, as uvec4s
                                     where the views are 16-byte aligned, else
                                     as elements */
  bool quad_elements;             /* ... always as elements: the compiler
                                     merges their loads itself, or its vec4
                                     loads cost threads */
  bool quad_pairs;                /* ... two blocks an invocation, one below
                                     the other (GT_VARIANT_PAIRS): what an
                                     invocation computes once serves twice
                                     the elements */
  uint32_t tile;                  /* 0 = the largest that fits */
  gt_matmul_kernel matmul_kernel; /* used when it fits the device */
  uint32_t dispatch_flops_log2;   /* matmul work per dispatch: 2^this */
  uint32_t dispatch_bytes_log2;   /* bytes a transpose, copy or image dispatch
                                     may move: 2^this */
  uint32_t auto_tile;             /* the tile of transpose's AUTO where it fits
                                     and divides the extent (64 is beyond the
                                     public tiles); 0 = the default tile */
  uint32_t stripe_bytes_log2;     /* the tiled transpose takes its groups in
                                     stripes of source rows spanning 2^this
                                     bytes */
  uint32_t shared_min_blocks;     /* matmul AUTO runs the shared kernel from
                                     this many 128x128 blocks of c */
  uint32_t stream_rows;           /* matmul AUTO streams b (matmul_stream.comp)
                                     where c has at most this many rows: 1, or
                                     GT_MATMUL_STREAM_ROWS; 0 never */
  bool scalar_loads;              /* the registers matmul kernel and the copy
                                     load no vec4s (they cost V3D's compiler
                                     half its threads) */
  bool words_in_registers;        /* AUTO's tiled transposes of 1- and 2-byte
                                     elements move a block of words per
                                     invocation, with no shared tile */
  bool words_uvec4;               /* where AUTO moves 4x4 blocks (quads), its
                                     2- and 1-byte transposes move blocks of
                                     words in registers, 4x4 words as uvec4s
                                     where the rows allow */
  uint32_t barrier_invocations;   /* most invocations in a group with barriers
                                     (tiled kernels); 0 = 256 */
  bool half_is_faster;            /* mediump arithmetic runs at twice the f32
                                     rate (gt_context_half_is_faster) */
  bool half_rounded_by_scaling;   /* half sums rounded each step (where half
                                     is not faster) by scaling and roundEven,
                                     not integer operations on the bits */
  bool pack_half_ieee;            /* packHalf2x16 rounds as IEEE does past the
                                     largest half (infinity from 65520 on)
                                     and keeps NaN a NaN, which GLSL ES leaves
                                     undefined: the shared kernel's uvec2
                                     stores of a half c pack with no test
                                     (GT_VARIANT_PACK_HALF_IEEE) */
  uint16_t matmul_interior;       /* the element types of a and b (bits
                                     1 << gt_type) for which the registers
                                     matmul kernel (one k a step) runs c's
                                     whole tiles unguarded, two k a pass,
                                     where c's rows allow vec4s
                                     (GT_VARIANT_INTERIOR); its guarded
                                     program the rows and columns past them */
  bool half_texels;               /* the registers matmul kernel fetches half
                                     a and b as R16F texels where the context
                                     has texture buffers and their bindings
                                     fit (GT_VARIANT_HALF_TEXELS) */
} gt_device_entry;

/* The i-th entry of the table, the fallback last; NULL past it. */
const gt_device_entry *gt__device_entry_at(size_t i);

/* Whether kernels may use shader atomics on this renderer (the real one,
 * not a pretended entry's). */
bool gt__renderer_has_atomics(const char *renderer);

/* The entry for a renderer; never NULL. */
const gt_device_entry *gt__device_entry(const char *renderer);

/* Tests and tools (gt_device_entry_pretend): contexts made after this
 * take the entry of this renderer (NULL: their own), so a suite runs a
 * mobile entry's choices on llvmpipe. Not thread-safe: set it while no
 * context is made. */
void gt__device_entry_pretend(const char *renderer);

#endif
