/* The context's state (gl/context_init.c makes it): its limits and choices, its
 * program and user-kernel tables, the staging buffer and the texel
 * textures. */
#ifndef GT_CONTEXT_H
#define GT_CONTEXT_H

#include "plan/device_table.h"
#include "plan/program.h"

/* A kernel id holds its slot in the low GT_USER_KERNEL_SLOT_BITS bits and
 * a serial number above them, so that an id kept past gt_kernel_destroy
 * (or made by another context) names no kernel rather than the next one
 * in its slot. */
#define GT_USER_KERNEL_TABLE_SIZE 16
#define GT_USER_KERNEL_SLOT_BITS 4
typedef char gt__user_kernel_slots_fit[(1 << GT_USER_KERNEL_SLOT_BITS) == GT_USER_KERNEL_TABLE_SIZE ? 1 : -1];

/* A kernel made by gt_kernel_create: its two programs ([0] with restrict,
 * [1] the aliased variant without) and what dispatch needs to check. */
typedef struct gt_user_kernel {
  gt_kernel_id id;   /* as gt_kernel_create gave it out */
  gt_gl_name program[2]; /* 0 = free slot */
  gt_gl_location views_loc[2], base_loc[2], domain_loc[2];
  gt_gl_location uniform_loc[2][GT_KERNEL_MAX_UNIFORMS];
  uint32_t tile_rows, tile_cols, view_count, uniform_count;
  gt_type types[GT_KERNEL_MAX_VIEWS];
  gt_access access[GT_KERNEL_MAX_VIEWS];
  gt_uniform_type uniform_types[GT_KERNEL_MAX_UNIFORMS];
  char names[GT_KERNEL_MAX_VIEWS][GT_KERNEL_MAX_NAME + 1]; /* for logs */
} gt_user_kernel;

/* A read-back begun by gt_read_begin: its elements wait packed, row after
 * row, at the start of the staging buffer until the fence signals. */
typedef struct gt_pending_read {
  void *fence; /* GLsync; NULL when no read is pending */
  uint32_t rows, cols;
  gt_type type;
} gt_pending_read;

struct gt_context {
  gt_logger logger;
  gt_allocator allocator; /* set only when we allocated this memory */
  bool owns_memory;
  void *egl_context; /* the EGL context current at init */
  gt_limits limits;
  uint32_t default_tile;
  gt_strategy auto_strategy;
  bool auto_quads;                /* AUTO's SIMPLE runs transpose_quads where it can */
  bool has_atomics;               /* kernels may use shader atomics (gt_context_has_atomics) */
  bool half_storage;              /* GL_NV_gpu_shader5: halves loaded and stored 16 bits at a time */
  gt_matmul_kernel matmul_kernel; /* what matmul's AUTO runs */
  char renderer[128];
  char gl_version[128]; /* GL_VERSION: names the driver's version */
  const gt_device_entry *device;
  /* glGetGraphicsResetStatus (ES 3.2) or its EXT/KHR robustness twin;
   * NULL where the context has none. */
  gt_gl_proc reset_status;
  /* reset_status is there and the context was made with the
   * lose-context-on-reset strategy; under the default strategy (no reset
   * notification) a reset may go unreported. */
  bool reports_resets;
  bool lost; /* the GL context was lost: every call answers CONTEXT_LOST */
  /* The staging buffer reads go through (transfer.c): made on the first
   * read, limits.staging_bytes long; 0 until then. */
  gt_gl_name staging;
  gt_pending_read pending; /* a read-back begun and not yet ended */
  /* A TEXELS context's two texture objects, a's and b's texture
   * buffers (texels.c), and glTexBufferRange (ES 3.2, looked up at
   * init so the library links against ES 3.1 libraries). */
  gt_gl_name texel_textures[2];
  gt_gl_proc tex_buffer_range;
  uint32_t texel_offset_alignment; /* GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT */
  uint64_t max_texels;             /* GL_MAX_TEXTURE_BUFFER_SIZE */
  /* gt__source_hash, computed when the program cache first needs it. */
  bool source_hash_known;
  uint64_t source_hash;
  gt_user_kernel user_kernels[GT_USER_KERNEL_TABLE_SIZE];
  uint32_t kernel_serial; /* the last kernel id's serial number */
  /* gt_context_flushes_denormals: its probe's answer, once it has run. */
  bool denormals_probed, flushes_denormals;
  /* The program table (gl/program_table.c): program_slots slots in the memory
   * after this struct, as gt_context_size counts it; program_clock
   * counts the lookups, to find the least recently used. */
  uint32_t program_slots, program_clock;
  gt_program programs[];
};

/* The limits a context uses: the device's (in l), clamped to the ES 3.1
 * minimums under d->min_limits and to d's storage-block size, with
 * binding offsets on whole 4-byte elements. No GL. */
void gt__limits_clamp(gt_limits *l, const gt_context_desc *d);

/* The choices gt_context_init makes once it knows the device (ctx's
 * entry, limits, atomics, 16-bit storage and texel limits): the dispatch
 * budgets, the staging size, the transpose choices and the kernel
 * matmul's AUTO runs, where the context may have texture buffers or not.
 * GT_ERR_UNSUPPORTED, with *refusal, where d asks for a matmul kernel
 * the device cannot run. No GL. */
gt_status gt__context_choose(gt_context *ctx, const gt_context_desc *d, bool texture_buffers,
                             const char **refusal);

/* The limit sets plans are made for without a device: 0 a desktop GPU's
 * (with texture buffers and 16-bit storage), 1 the ES 3.1 minimums, 2
 * the minimums with 4 KiB storage blocks. */
enum { GT_LIMIT_SETS = 3 };

/* ctx as gt_context_init makes it with desc d (NULL: zeros) on a device
 * of `entry` with limit set `set` and, or not, shader atomics; without
 * GL, for the program list and the planners' tests. Its program table
 * has no room. GT_ERR_UNSUPPORTED where d's matmul kernel does not fit. */
gt_status gt__context_for_plans(gt_context *ctx, const gt_device_entry *entry, int set, const gt_context_desc *d,
                                bool atomics);

/* The context's transpose choices from its device entry, limits and d:
 * the default tile, AUTO's strategy and its 4x4 blocks. No GL. */
void gt__choose_transpose(gt_context *ctx, const gt_context_desc *d);

#endif
