/* gltile: tiled matrix transpose and multiply as OpenGL ES 3.1 compute
 * shaders, after the tiled model of C++ AMP.
 *
 * Conventions for every function below:
 *   - Sizes, offsets and pitches are in elements unless a name says bytes.
 *     Elements are 4 bytes (GT_F32, GT_I32, GT_U32), 2 bytes (GT_F16,
 *     GT_I16, GT_U16) or 1 byte (GT_I8, GT_U8) wide (gt_type_size); the
 *     narrower ones lie packed in 32-bit words, little end first, as the
 *     host's bytes lie.
 *   - Arguments are validated before any GL call that changes state; on any
 *     error nothing is written to any buffer.
 *   - Functions that take a gt_context need the GL context it was
 *     initialised on to be current on the calling thread; from any other
 *     thread (or with another context current) they return
 *     GT_ERR_NO_CONTEXT. Threading: one gt_context per GL context, used by
 *     one thread at a time, as GL itself is. The status, extent, section,
 *     alias and size functions (gt_status_string, gt_strategy_name,
 *     gt_type_size, gt_extent_pad, gt_extent_truncate, gt_section,
 *     gt_views_alias, gt_images_alias, gt_context_size) are pure and
 *     thread-safe. gt_egl_open and gt_egl_close are not pure: they make
 *     and destroy EGL objects and change the calling thread's current
 *     context; they may be called from several threads at once.
 *   - After creation, no function allocates host memory.
 *   - The library never prints; details of failures go to the logger hook.
 *   - GL failures: GL_OUT_OF_MEMORY gives GT_ERR_OUT_OF_MEMORY, any other
 *     GL error GT_ERR_GL, a compile or link failure GT_ERR_SHADER_BUILD;
 *     the context stays usable after each. A failure that strikes after
 *     the first dispatch may leave the destination partly written (never
 *     anything outside it). A lost context (GL_CONTEXT_LOST, or a reset
 *     reported by glGetGraphicsResetStatus where the context has it) gives
 *     GT_ERR_CONTEXT_LOST from then on; release the gt_context, make a new
 *     GL context current and gt_context_init again (the same memory will
 *     do). A context reports resets only when it was created asking for
 *     them: an application that brings its own context should create it
 *     with EGL_EXT_create_context_robustness's
 *     EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT =
 *     EGL_LOSE_CONTEXT_ON_RESET_EXT (on Android too; robust buffer access
 *     is not needed). Without it a GPU reset or a watchdog's kill of a long
 *     dispatch can go unreported, and later calls may return GT_OK for
 *     work that never ran. gt_context_reports_resets says whether the
 *     context got it; gt_egl_open asks for it wherever the display offers
 *     it. GL errors the application left pending are cleared, not
 *     reported.
 *   - Big work: a view longer than the device's storage-block limit is
 *     transposed, copied or multiplied in blocks, each bound on its own.
 *     No dispatch runs long (a mobile GPU's watchdog kills long ones):
 *     matmul splits its work at gt_limits.max_dispatch_flops, transposes
 *     (in place too), copies and image operations their grids at
 *     gt_limits.max_dispatch_bytes; user kernels are dispatched whole.
 *     Group counts beyond the device's limit are split too.
 *   - GL state: every entry point leaves the generic buffer bindings
 *     (GL_SHADER_STORAGE_BUFFER, GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER
 *     and the others it does not use), the active texture unit, its
 *     GL_TEXTURE_2D and the GL_TEXTURE_BUFFER of units 0-1 as it found
 *     them. It changes, and does not restore, the current program, the
 *     indexed storage-buffer bindings it uses (from 0) and image units
 *     0-1; rebind yours after a call if you rely on them.
 *   - GL objects the context owns: the programs it builds, on a TEXELS
 *     context two texture objects (texture buffers over matmul's a and
 *     b, made at init), and after the first read one staging buffer
 *     (gt_limits.staging_bytes; size it with gt_context_desc.staging_bytes)
 *     and, while a read-back is pending, one fence. gt_context_release
 *     deletes them. A view naming the staging buffer is refused with
 *     GT_ERR_INVALID_ARGUMENT.
 *   - Ordering with the application's own GL work: gltile's calls are GL
 *     commands on the current context, ordered with the application's as
 *     GL orders commands. Each operation ends with a shader-storage and
 *     buffer-update barrier, so the application's later reads of the
 *     results (glBufferSubData, glCopyBufferSubData, glMapBufferRange,
 *     later dispatches) see them; the application's own shader writes
 *     need its own glMemoryBarrier before a gltile call reads them.
 *
 * Aliasing (C++ AMP's aliased invocations, in GLES terms): two views alias
 * when they name the same buffer and share at least one element
 * (gt_views_alias, exact and pitch-aware); two images when they name the
 * same texture level and their windows share a texel (gt_images_alias). A
 * buffer view and an image never alias. Overlap between views that are
 * only read is not aliasing and is always allowed (matmul with a and b the
 * same view). What each operation does when a written view aliases:
 *   gt_transpose   src and dst the very same square view: transposed in
 *                  place, by kernels built without restrict; any other
 *                  overlap: GT_ERR_ALIASED.
 *   gt_matmul      c overlapping a or b: GT_ERR_ALIASED.
 *   gt_copy        dst overlapping src: GT_ERR_ALIASED.
 *   gt_image_*     any shared texel, in place included: GT_ERR_ALIASED.
 * Refusals happen before any GL call that changes state.
 */
#ifndef GLTILE_GLTILE_H
#define GLTILE_GLTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library builds with hidden symbols; what this header declares is
 * public, so a shared object that links the archive (a JNI library)
 * exports gltile's API and none of its internals. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define GT_VERSION_MAJOR 0
#define GT_VERSION_MINOR 4
#define GT_VERSION_PATCH 0
#define GT_VERSION_NUMBER (GT_VERSION_MAJOR * 10000 + GT_VERSION_MINOR * 100 + GT_VERSION_PATCH)

/* The version of the library linked in, as GT_VERSION_NUMBER was when it
 * was built: a program can compare it with the GT_VERSION_NUMBER of the
 * header it was compiled with. */
uint32_t gt_version(void);

/* Logger levels passed to gt_logger.log. */
#define GT_LOG_ERROR 0
#define GT_LOG_WARN  1
#define GT_LOG_INFO  2
#define GT_LOG_DEBUG 3

/* Status codes. The numbers are ABI: new codes are appended, never
 * renumbered. */
typedef enum gt_status {
  GT_OK = 0,
  GT_ERR_INVALID_ARGUMENT = 1, /* NULL, zero extent, unknown enum, pitch < cols */
  GT_ERR_SHAPE_MISMATCH = 2,   /* extents disagree (dst not cols x rows, inner dims) */
  GT_ERR_OUT_OF_RANGE = 3,     /* view reaches past its buffer, or size overflows */
  GT_ERR_ALIASED = 4,          /* read/write overlap the operation cannot honour */
  GT_ERR_UNSUPPORTED = 5,      /* device/context lacks what is needed */
  GT_ERR_NO_CONTEXT = 6,       /* no current GLES 3.1+ context */
  GT_ERR_SHADER_BUILD = 7,     /* compile/link failed; log via the logger hook */
  GT_ERR_GL = 8,               /* unexpected GL error */
  GT_ERR_OUT_OF_MEMORY = 9,    /* GL_OUT_OF_MEMORY or caller memory too small */
  GT_ERR_CONTEXT_LOST = 10,    /* GPU reset / context loss */
  GT_ERR_TIMEOUT = 11,         /* a wait ended before its fence signalled; nothing consumed */
  GT_ERR_BUSY = 12,            /* a read-back begun with gt_read_begin still holds the staging buffer */
  GT_ERR_BAD_CACHE = 13        /* a program cache that is not one, or is damaged; the log says where */
} gt_status;

/* Element types. The 4-byte types serve every operation. The 2- and
 * 1-byte types (GT_F16 is IEEE binary16, bits only) serve transpose, in
 * place too, gt_copy, gt_write and gt_read; GLES 3.1 has no 16- or 8-bit
 * storage, so kernels keep them packed in 32-bit words, little end first,
 * and never change an element outside the view. A kernel on such a view
 * needs the buffer to hold the whole 32-bit word its last element lies in
 * (GT_ERR_OUT_OF_RANGE otherwise): round buffer sizes up to 4 bytes.
 * gt_matmul also takes GT_F16 a and b (with a GT_F16 or GT_F32 c);
 * images and user kernels take 4-byte types only (GT_ERR_UNSUPPORTED). */
typedef enum gt_type {
  GT_F32 = 1,
  GT_I32 = 2,
  GT_U32 = 3,
  GT_F16 = 4, /* 2 bytes */
  GT_I16 = 5,
  GT_U16 = 6,
  GT_I8 = 7,  /* 1 byte */
  GT_U8 = 8
} gt_type;

/* Strategies for extents the tile may not divide (seeds 000, 001, 003).
 * AUTO picks the fastest variant for the device. */
typedef enum gt_strategy {
  GT_STRATEGY_AUTO = 0,
  GT_STRATEGY_SIMPLE = 1,     /* one invocation per element, no shared memory */
  GT_STRATEGY_TILED_EVEN = 2, /* shared tile; the tile must divide the extent */
  GT_STRATEGY_TILED_PAD = 3,  /* extent padded up, every global access guarded */
  GT_STRATEGY_TRUNCATE_A = 4, /* extent truncated, edge threads do the leftovers */
  GT_STRATEGY_TRUNCATE_B = 5  /* TILED_EVEN on the main section, SIMPLE on bands */
} gt_strategy;

/* A 2-D extent: rows x cols. */
typedef struct gt_extent {
  uint32_t rows, cols;
} gt_extent;

/* A 2-D window on a GL buffer object. Element (r, c) lives at element
 * offset + r * pitch + c of the buffer. */
typedef struct gt_view {
  uint32_t buffer; /* GL buffer name, owned by the caller */
  size_t offset;   /* elements from the buffer's start */
  uint32_t rows, cols;
  uint32_t pitch;  /* elements between row starts; 0 = cols */
  gt_type type;
} gt_view;

/* Texel formats of image views. */
typedef enum gt_format {
  GT_FORMAT_R32F = 1,  /* GL_R32F */
  GT_FORMAT_R32I = 2,  /* GL_R32I */
  GT_FORMAT_R32UI = 3, /* GL_R32UI */
  GT_FORMAT_RGBA8 = 4  /* GL_RGBA8: camera frames */
} gt_format;

/* A window on one level of a 2-D texture with immutable storage
 * (glTexStorage2D), which image load/store needs. Texel (r, c) of the
 * window is texel (x + c, y + r) of the level: rows run along y. */
typedef struct gt_image {
  uint32_t texture;       /* GL_TEXTURE_2D name, owned by the caller */
  uint32_t level;         /* mip level */
  uint32_t x, y;          /* the window's first texel in the level */
  uint32_t width, height; /* the window's extent: cols x rows */
  gt_format format;       /* must be the texture's internal format */
} gt_image;

/* Host memory hook. alloc returns NULL on failure. */
typedef struct gt_allocator {
  void *(*alloc)(size_t size, void *user);
  void (*free)(void *ptr, void *user);
  void *user;
} gt_allocator;

/* Log hook: level is one of GT_LOG_*; msg is NUL-terminated and only valid
 * during the call. */
typedef struct gt_logger {
  void (*log)(int level, const char *msg, void *user);
  void *user;
} gt_logger;

/* The kernel matmul's AUTO strategy runs. */
typedef enum gt_matmul_kernel {
  GT_MATMUL_KERNEL_DEVICE = 0,      /* chosen from the renderer and limits */
  GT_MATMUL_KERNEL_REGISTERS = 1,   /* 4x4 results per invocation, no shared memory:
                                       for devices whose shared memory is plain
                                       memory (the docs name them) */
  GT_MATMUL_KERNEL_SHARED = 2,      /* 8x8 results per invocation, 128x128 blocks
                                       staged through shared memory: devices whose shared
                                       memory is on chip; needs 256 invocations. Runs
                                       where c has enough such blocks to fill the
                                       device (gt_matmul_auto_kernel); smaller
                                       products run REGISTERS */
  GT_MATMUL_KERNEL_TEXELS = 3,      /* 8x8 results per invocation in registers,
                                       a and b fetched as vec4 texels of texture
                                       buffers: for devices where a texel fetch
                                       costs a fraction of a storage load. Needs an ES 3.2
                                       context. Runs where a's and b's rows start
                                       16-byte aligned, K is a multiple of 4 and so
                                       is M where a is transposed and N where b is
                                       not; other products run as on a SHARED
                                       context (REGISTERS where SHARED does not
                                       fit) */
  GT_MATMUL_KERNEL_REGISTERS_K1 = 4 /* REGISTERS taking one k per step, with
                                       vec4 loads only across K: 16 results and
                                       8 values live: for devices that keep their
                                       full thread count only at 32 registers
                                       or fewer */
} gt_matmul_kernel;

/* Context options. Zero means default for every field. */
typedef struct gt_context_desc {
  gt_allocator allocator; /* zero = malloc/free; used only when mem == NULL */
  gt_logger logger;       /* zero = silent */
  bool min_limits;        /* true = clamp every limit to the ES 3.1 minimum */
  gt_matmul_kernel matmul_kernel; /* zero = chosen for the device */
  /* zero = from the device table: what transpose's AUTO runs (SIMPLE,
   * TILED_PAD, which becomes TILED_EVEN where the tile divides the
   * extent, TRUNCATE_A or TRUNCATE_B). */
  gt_strategy transpose_strategy;
  /* zero = from the device table, else the largest of 8, 16, 32 that fits:
   * the tile calls with tile 0 use. A tile too large for the device is
   * lowered to one that fits. */
  uint32_t tile;
  /* zero = the device's GL_MAX_SHADER_STORAGE_BLOCK_SIZE; a smaller value
   * clamps it (views longer than this are processed in blocks). */
  uint64_t max_storage_block_bytes;
  /* zero = chosen for the device (2^31, about 2 GFLOP, except 2^38 on
   * desktop GPUs, which have no watchdog that short); the
   * most work one matmul dispatch may do, in floating-point operations
   * (2 per multiply-add). At least 2^20 is used. */
  uint64_t max_dispatch_flops;
  /* zero = chosen for the device (2^27 bytes, 128 MiB, except 2^31 on
   * desktop GPUs); the most bytes (read plus written) one
   * dispatch of a transpose, copy or image operation may move: larger
   * grids run as several dispatches, so no dispatch outlasts a mobile
   * watchdog (0.2-5 s). At least one work group runs per dispatch. */
  uint64_t max_dispatch_bytes;
  /* zero = 4 MiB; the size of the staging buffer reads go through (a GL
   * buffer the context makes on its first read, rounded up to 16 bytes,
   * at least 4 KiB). Larger reads run in several rounds; a read begun
   * with gt_read_begin must fit it whole. */
  uint64_t staging_bytes;
  /* zero = 128; at most 65,536: the programs the context keeps built at
   * once, each about 90 bytes of the context's memory (gt_context_size).
   * A call that needs a program the full table lacks releases the least
   * recently used one and builds its own (compiling it again, or loading
   * it from a program cache later loaded); no call fails for want of
   * room. Size it for the programs your calls use (`gltile compile
   * --auto` lists those of a device) to keep warm calls compile-free. */
  uint32_t program_slots;
} gt_context_desc;

/* The context: program table and device limits. Opaque; sized by
 * gt_context_size so it can live in caller memory. */
typedef struct gt_context gt_context;

/* Caller storage for a headless EGL context made by gt_egl_open. */
typedef struct gt_egl {
  void *display, *surface, *context;
  bool display_referenced; /* the display counts eglInitialize / eglTerminate
                              (EGL_KHR_display_reference) */
} gt_egl;

/* Options of gt_transpose. A NULL desc means all zero. */
typedef struct gt_transpose_desc {
  gt_strategy strategy; /* 0 = AUTO */
  uint32_t tile;        /* 8, 16 or 32; 0 = chosen from the device limits */
} gt_transpose_desc;

/* The activation gt_matmul applies to each result, last (the epilogue). */
typedef enum gt_activation {
  GT_ACTIVATION_NONE = 0,
  GT_ACTIVATION_RELU = 1, /* negative results become 0 */
  GT_ACTIVATION_CLAMP = 2 /* results clamped to [act_lo, act_hi] */
} gt_activation;

/* The arithmetic of a product of GT_F16 a and b (gt_matmul_desc). Sums
 * in half (GLSL's mediump) may run faster on mobile GPUs and are far less
 * exact: each of the K steps may round to 11 significant bits, so a
 * result may be off by up to gamma (|alpha| sum_k |a[m][k] b[k][n]| +
 * |beta c| + |bias|), gamma = (K + 3) u / (1 - (K + 3) u), u = 2^-10
 * (mediump may round either way), plus 2^-10 of the result and 2^-14 for
 * each K slice of 4,096 into a GT_F16 c: a bound that says nothing once K
 * passes about 1,020. A sum past 65,504 becomes infinite and stays so.
 * Rounded each step (GT_PRECISION_HALF where half is not faster), a sum
 * is half(f32(sum + a b)), ties to even, in k order, each K slice (and
 * TRUNCATE_B's last K % tile) summed apart and added to c in f32. Never
 * the default. */
typedef enum gt_precision {
  GT_PRECISION_FLOAT = 0,          /* every sum in f32 */
  GT_PRECISION_HALF_IF_FASTER = 1, /* sums in half where the device table
                                      says they are faster
                                      (gt_context_half_is_faster), else f32 */
  GT_PRECISION_HALF = 2            /* sums in half on every device: in
                                      mediump where they are faster, else
                                      in f32 with each sum rounded to half
                                      (slower, and the same bits on every
                                      such device: to test against) */
} gt_precision;

/* The integers of a quantised product (GT_U8 or GT_I8 a and b, as
 * gemmlowp and TFLite define it): each sum is
 * sum_k (a[m][k] - zero_a) (b[k][n] - zero_b) in 32-bit integers. A
 * GT_I32 c takes the sum itself. A c of a and b's 8-bit type takes it
 * requantised: the sum times multiplier 2^(shift - 31) in fixed point,
 * rounded (TFLite's MultiplyByQuantizedMultiplier), plus zero_c,
 * saturated to the type's range; per tensor (multiplier, shift) or per
 * column of c (the views multipliers and shifts). */
typedef struct gt_quantization {
  int32_t zero_a, zero_b; /* in the operands' range: 0..255 (u8), -128..127 (i8) */
  int32_t multiplier;     /* 8-bit c, per tensor: the Q0.31 multiplier, 1 .. 2^31 - 1 */
  int32_t shift;          /* 8-bit c, per tensor: -31 .. 30; > 0 shifts left first */
  int32_t zero_c;         /* 8-bit c: in c's range */
  gt_view multipliers;    /* 8-bit c, per column: buffer 0 = per tensor; else GT_I32
                             1 x N, with shifts; multiplier and shift then 0 */
  gt_view shifts;         /* GT_I32 1 x N; values past -31 .. 30 count as the
                             nearer bound */
} gt_quantization;

/* Options of gt_matmul. A NULL desc means all zero:
 * c = op(a) * op(b) with AUTO's kernel. The epilogue fields make it
 * c = act(alpha op(a)op(b) + beta c + bias), in the same dispatches. */
typedef struct gt_matmul_desc {
  gt_strategy strategy; /* AUTO, SIMPLE, TILED_EVEN, TILED_PAD or TRUNCATE_B
                           (the tiled three: f32 sums of GT_F32 or GT_F16
                           a and b, no epilogue, no batch) */
  uint32_t tile;        /* 8, 16 or 32 for the tiled strategies; 0 = default */
  bool trans_a, trans_b; /* op(x) = x^T when set, else x */
  bool scale;           /* false: c = op(a)op(b); true: c = alpha op(a)op(b) + beta c */
  float alpha, beta;    /* used only with scale; beta = 0 never reads c */
  gt_view bias;         /* buffer 0 = none; else GT_F32 (GT_I32 for 8-bit a
                           and b), 1 x N (one value per column of c) or M x 1
                           (one per row) */
  gt_activation act;    /* GT_ACTIVATION_NONE = none */
  float act_lo, act_hi; /* GT_ACTIVATION_CLAMP's bounds, act_lo <= act_hi;
                           whole numbers for 8-bit a and b (c's values) */
  gt_quantization quant; /* GT_U8 / GT_I8 a and b: zero points, and the
                            requantisation of a GT_U8 / GT_I8 c */
  gt_precision precision; /* GT_F16 a and b: where the sums run; else 0 */
} gt_matmul_desc;

/* The products of gt_matmul_batched: product i multiplies the views a, b
 * and c of the call each moved on by i times its stride. */
typedef struct gt_batch {
  uint32_t count;  /* products, at least 1 */
  size_t stride_a; /* elements between one product's a and the next's; */
  size_t stride_b; /* 0 = the same matrix for every product (shared */
  size_t stride_c; /* weights, say); c's must keep the products apart */
} gt_batch;

/* Limits in effect for a context, after min_limits clamping. */
typedef struct gt_limits {
  uint32_t max_shared_bytes;         /* GL_MAX_COMPUTE_SHARED_MEMORY_SIZE */
  uint32_t max_invocations;          /* GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS */
  uint32_t max_group_size[3];        /* GL_MAX_COMPUTE_WORK_GROUP_SIZE */
  uint32_t max_group_count[3];       /* GL_MAX_COMPUTE_WORK_GROUP_COUNT */
  uint64_t max_storage_block_bytes;  /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE */
  uint32_t max_storage_blocks;       /* GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS */
  uint32_t storage_offset_alignment; /* GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT */
  uint64_t max_dispatch_flops;       /* matmul work per dispatch (gt_context_desc) */
  uint64_t max_dispatch_bytes;       /* transpose, copy, image bytes per dispatch (gt_context_desc) */
  uint64_t staging_bytes;            /* the read staging buffer's size (gt_context_desc) */
} gt_limits;

/* ------------------------------------------------------------------ */
/* Status, extents and views: pure functions, no GL.                   */

/* A short English name for s, e.g. "GT_ERR_ALIASED: ...".
 * Returns    never NULL; unknown codes give a fixed "unknown status" text. */
const char *gt_status_string(gt_status s);

/* Bytes per element of type t (4, 2 or 1); 0 for an unknown type. */
size_t gt_type_size(gt_type t);

/* GT_F16 data on the host: the IEEE half nearest f (ties to even;
 * infinity from 65520 on; NaN stays NaN), and the exact value of half h. */
uint16_t gt_half_from_float(float f);
float gt_half_to_float(uint16_t h);

/* e rounded up (pad) or down (truncate) to multiples of the tile in each
 * dimension, as C++ AMP's tiled_extent::pad and ::truncate.
 * A zero tile dimension leaves that dimension unchanged. pad saturates at
 * the largest multiple of the tile that fits in 32 bits. */
gt_extent gt_extent_pad(gt_extent e, uint32_t tile_rows, uint32_t tile_cols);
gt_extent gt_extent_truncate(gt_extent e, uint32_t tile_rows, uint32_t tile_cols);

/* The rows x cols window of v whose first element is v's (row, col): the
 * offset moves and the pitch stays v's effective pitch.
 * Returns    a view with rows = cols = 0 (rejected by every operation with
 *            GT_ERR_INVALID_ARGUMENT) when the window is not inside v. */
gt_view gt_section(gt_view v, uint32_t row, uint32_t col, uint32_t rows, uint32_t cols);

/* true when a and b name the same buffer and share at least one byte.
 * Exact and pitch-aware: two side-by-side sections of one matrix do not
 * alias although their spans interleave. Views with a zero extent share
 * nothing. Views of different element sizes compare by the bytes they
 * cover (one whose bytes would pass 2^64, which no buffer holds, counts
 * as sharing with every view of its buffer). Whether an overlap matters
 * depends on which view is written: read-read overlap is allowed by every
 * operation. */
bool gt_views_alias(gt_view a, gt_view b);

/* ------------------------------------------------------------------ */
/* Headless EGL, for tests, tools and boards.                          */

/* Creates an OpenGL ES 3.1 context and makes it current on this thread.
 * Tries the EGL device platform, then the surfaceless platform, then
 * the default display with a 1x1 pbuffer. The context asks for reset
 * notification (lose context on reset) where the display offers
 * EGL_EXT_create_context_robustness, and gets a plain one where the
 * driver refuses.
 * Displays   EGL hands the same display to every caller in the process
 *            that names the same platform and device, and eglTerminate
 *            ends every context on it. Where EGL offers
 *            EGL_KHR_display_reference the display is a reference-counted
 *            one of gltile's own; elsewhere gltile counts its gt_egl per
 *            display and terminates a display only when the last one on it
 *            is closed, and only if gt_egl_open initialised it. An
 *            application using such a display itself should initialise it
 *            before the first gt_egl_open, and terminate it itself.
 * Returns    GT_OK, GT_ERR_INVALID_ARGUMENT (egl NULL), GT_ERR_NO_CONTEXT
 *            (no display gave an ES 3.1 context).
 * Allocates  only what EGL allocates. On failure *egl is zeroed. */
gt_status gt_egl_open(gt_egl *egl);

/* Releases what gt_egl_open made and zeroes *egl; the display is
 * terminated only as gt_egl_open describes, so other contexts on it live
 * on. Unbinds the context first if it is current on this thread; a
 * different context current here stays current. NULL or a zeroed egl is a
 * no-op. */
void gt_egl_close(gt_egl *egl);

/* ------------------------------------------------------------------ */
/* Context.                                                            */

/* Bytes of caller memory gt_context_init needs for d (NULL: the
 * defaults, under 32 KiB): a fixed part and d->program_slots programs.
 * 0 where d->program_slots passes 65,536. */
size_t gt_context_size(const gt_context_desc *d);

/* Adopts the current GLES 3.1+ context: queries its limits once and sets
 * up an empty program table (programs are built on first use).
 *
 * mem, size  caller memory of at least gt_context_size(d) bytes, aligned
 *            for any object; or mem = NULL to allocate once through
 *            d->allocator (malloc when zero).
 * d          may be NULL (all defaults).
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (out NULL, half-set allocator,
 *            misaligned mem, unknown matmul_kernel, transpose_strategy
 *            TILED_EVEN or unknown, tile not 0, 8, 16 or 32, program_slots
 *            past 65,536); GT_ERR_OUT_OF_MEMORY (size too
 *            small or the allocator failed); GT_ERR_NO_CONTEXT (no current
 *            context); GT_ERR_UNSUPPORTED (context older than ES 3.1,
 *            matmul_kernel SHARED beyond the device's limits, or TEXELS
 *            on a context older than ES 3.2 or under min_limits).
 * GL state   none changed.
 * Allocates  once, only when mem is NULL. */
gt_status gt_context_init(void *mem, size_t size, const gt_context_desc *d, gt_context **out);

/* Deletes the programs the context built and frees its memory if
 * gt_context_init allocated it. The GL context should be current so the
 * programs can be deleted. NULL is a no-op. */
void gt_context_release(gt_context *ctx);

/* The limits in effect (after min_limits clamping). NULL ctx gives zeros. */
gt_limits gt_context_limits(const gt_context *ctx);

/* The name of the device-table entry the renderer matched, or "fallback"
 * where none did (gltile info shows it). NULL ctx gives "". */
const char *gt_context_device_name(const gt_context *ctx);

/* The tile AUTO uses for transpose on this context. */
uint32_t gt_context_default_tile(const gt_context *ctx);

/* The strategy AUTO picks for transpose on this context (never AUTO).
 * When it is TILED_PAD and the tile divides both extents, gt_transpose
 * runs TILED_EVEN instead (the same kernel without guards). */
gt_strategy gt_context_auto_strategy(const gt_context *ctx);

/* true when AUTO's SIMPLE moves 4x4 blocks as uvec4s wherever both views'
 * rows start 16-byte aligned (transpose_quads.comp; SIMPLE does the rows
 * and columns left over): where the device table says each storage access
 * costs more than its bytes. false for NULL. */
bool gt_context_auto_quads(const gt_context *ctx);

/* true when gltile's kernels may use shader atomics here. false where
 * the device table knows storage-buffer atomics to crash the process (a
 * software renderer in a 32-bit ARM process: the README names it), and
 * for NULL. Where false, the
 * calls that need atomics return GT_ERR_UNSUPPORTED before any work: a
 * transpose or copy of 2- or 1-byte elements, a gt_write of such a view
 * whose rows do not start and end on 4-byte boundaries, and a matmul into
 * a GT_F16 c. A transpose of such elements with GT_STRATEGY_AUTO runs
 * without atomics, there too, where src and dst are different views whose
 * offsets, pitches, rows and columns are multiples of the elements a
 * 32-bit word holds (2 or 4), each fits one storage block, and the
 * context's AUTO is not TRUNCATE_A or TRUNCATE_B. */
bool gt_context_has_atomics(const gt_context *ctx);

/* Whether the device table says matmul's sums run faster in half
 * precision (mediump) than in f32 here, so that
 * GT_PRECISION_HALF_IF_FASTER sums in half: true only where the device
 * table says so (docs/performance.md names the devices and the compiler
 * figures behind each). false for NULL. */
bool gt_context_half_is_faster(const gt_context *ctx);

/* Whether the device flushes f32 denormals (magnitudes below 2^-126) to
 * zero: GLSL ES allows it, and some GPUs do it. On the
 * first call one probe runs (a one-invocation program and a 20-byte buffer,
 * both deleted before it returns); later calls answer from the context.
 * Where they are flushed, a matmul whose products or partial sums pass
 * below 2^-126 loses them (see gt_matmul's precision note).
 * Returns    GT_OK and *flushes; GT_ERR_INVALID_ARGUMENT (NULL flushes);
 *            GT_ERR_NO_CONTEXT; GT_ERR_SHADER_BUILD; GT_ERR_OUT_OF_MEMORY;
 *            GT_ERR_CONTEXT_LOST; GT_ERR_GL (*flushes false on error).
 * GL state   on the first call binds its program and SSBO slot 0; the
 *            generic storage-buffer binding is put back.
 * Allocates  nothing. */
gt_status gt_context_flushes_denormals(gt_context *ctx, bool *flushes);

/* The kernel matmul's AUTO runs on this context (never DEVICE; REGISTERS
 * for NULL). A SHARED context runs REGISTERS for products whose c has too
 * few blocks of 128x128 to fill the device: see gt_matmul_auto_kernel. */
gt_matmul_kernel gt_context_matmul_kernel(const gt_context *ctx);

/* The kernel matmul's AUTO runs for a c of m x n on this context: the
 * context's kernel, or REGISTERS where it is SHARED and c has fewer blocks
 * of 128x128 than the device table gives for the device (REGISTERS for
 * NULL). A TEXELS
 * context answers TEXELS; the products it cannot take (see
 * GT_MATMUL_KERNEL_TEXELS) run what a SHARED context would. */
gt_matmul_kernel gt_matmul_auto_kernel(const gt_context *ctx, uint32_t m, uint32_t n);

/* GL_RENDERER as read at init ("" for NULL). */
const char *gt_context_renderer(const gt_context *ctx);

/* true when the context reports GPU resets: it has
 * glGetGraphicsResetStatus (ES 3.2, KHR_robustness or EXT_robustness) and
 * its reset notification strategy, read at init, is lose context on reset
 * (gltile info shows it). When false, a reset may go unreported; see the
 * conventions at the top. false for NULL. */
bool gt_context_reports_resets(const gt_context *ctx);

/* Name of a strategy, e.g. "tiled_pad"; "unknown" for other values. */
const char *gt_strategy_name(gt_strategy s);

/* ------------------------------------------------------------------ */
/* Data transfer and synchronisation.                                  */

/* Copies host rows into the view dst. host holds dst.rows rows of dst.cols
 * elements, host_pitch elements apart (0 = dst.cols). Elements of the
 * buffer outside the view are left as they were. The rows go in with
 * glBufferSubData (one call when the view and the host rows are both
 * gapless): the caller's buffer is never mapped, since a driver may move a
 * buffer mapped for writing into host memory, where every later kernel on
 * it runs many times slower. A view of 2- or 1-byte elements whose rows
 * do not start and end on 4-byte boundaries goes instead through the
 * staging buffer and the copy kernel, a staging buffer's worth at a time:
 * on one desktop driver, glBufferSubData at such offsets was not seen by
 * later copies or kernels. The write is ordered after earlier gltile work on the
 * buffer; host may be reused as soon as the call returns.
 * Returns    GT_OK, GT_ERR_INVALID_ARGUMENT, GT_ERR_OUT_OF_RANGE (also a
 *            2- or 1-byte view whose last word sticks out of the buffer),
 *            GT_ERR_BUSY (the staging buffer is held by gt_read_begin and
 *            the view needs it), GT_ERR_SHADER_BUILD, GT_ERR_NO_CONTEXT,
 *            GT_ERR_OUT_OF_MEMORY, GT_ERR_CONTEXT_LOST, GT_ERR_GL.
 * GL state   issues a buffer-update memory barrier; GL_COPY_WRITE_BUFFER
 *            restored. Through the staging buffer: as gt_copy (binds the
 *            copy program and storage slots 0-1).
 * Allocates  nothing; through the staging buffer, the staging buffer on
 *            first use, as gt_read. */
gt_status gt_write(gt_context *ctx, gt_view dst, const void *host, size_t host_pitch);

/* Copies the view src into host rows host_pitch elements apart
 * (0 = src.cols), waiting for earlier GL work on the buffer. The GPU copies
 * the view's rows into the context's staging buffer (glCopyBufferSubData),
 * which is then mapped for reading, as many rows a round as fit
 * (gt_limits.staging_bytes); the caller's buffer is never mapped.
 * Returns    GT_OK, GT_ERR_INVALID_ARGUMENT, GT_ERR_OUT_OF_RANGE,
 *            GT_ERR_BUSY (a read begun with gt_read_begin holds the staging
 *            buffer), GT_ERR_NO_CONTEXT, GT_ERR_OUT_OF_MEMORY (the staging
 *            buffer could not be made), GT_ERR_CONTEXT_LOST, GT_ERR_GL.
 *            On an error the host rows may be partly written.
 * GL state   issues a buffer-update memory barrier; GL_COPY_READ_BUFFER and
 *            GL_COPY_WRITE_BUFFER restored.
 * Allocates  no host memory; on the first read, the staging buffer (one GL
 *            buffer object of gt_limits.staging_bytes, owned by the context
 *            and deleted by gt_context_release). */
gt_status gt_read(gt_context *ctx, gt_view src, void *host, size_t host_pitch);

/* Starts a read-back that does not stall the GPU: src's elements are
 * copied into the staging buffer behind the work already submitted, and
 * a fence marks their arrival. gt_read_end collects them later (a frame
 * later, say), without glFinish. One read-back is pending at a time.
 * src.rows * src.cols elements must fit gt_limits.staging_bytes.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT, GT_ERR_OUT_OF_RANGE (as
 *            gt_read); GT_ERR_UNSUPPORTED (src larger than the staging
 *            buffer); GT_ERR_BUSY (a read-back is pending already);
 *            GT_ERR_NO_CONTEXT; GT_ERR_OUT_OF_MEMORY; GT_ERR_CONTEXT_LOST;
 *            GT_ERR_GL. Nothing is pending after an error.
 * GL state   as gt_read; flushes the command stream (glFlush).
 * Allocates  as gt_read, and a GL fence object. */
gt_status gt_read_begin(gt_context *ctx, gt_view src);

/* Waits up to timeout_ns nanoseconds (0: only looks) for the pending
 * read-back, then copies its rows into host, host_pitch elements apart
 * (0 = the view's cols), and ends it.
 * Returns    GT_OK; GT_ERR_TIMEOUT (not arrived yet: still pending, host
 *            untouched, call again); GT_ERR_INVALID_ARGUMENT (NULL,
 *            host_pitch below the view's cols, or no read-back pending);
 *            GT_ERR_NO_CONTEXT; GT_ERR_CONTEXT_LOST; GT_ERR_GL (the read-back
 *            is ended on these errors).
 * GL state   GL_COPY_WRITE_BUFFER restored.
 * Allocates  nothing; deletes the read-back's fence. */
gt_status gt_read_end(gt_context *ctx, void *host, size_t host_pitch, uint64_t timeout_ns);

/* Ends a pending read-back without collecting it (a no-op when none is
 * pending), so the staging buffer serves gt_read again.
 * Returns    GT_OK, GT_ERR_INVALID_ARGUMENT (NULL), GT_ERR_NO_CONTEXT,
 *            GT_ERR_CONTEXT_LOST. */
gt_status gt_read_cancel(gt_context *ctx);

/* A point in the GL command stream: signalled once the GPU has finished
 * every command submitted before it, the caller's own GL work included. */
typedef struct gt_fence {
  void *sync; /* GLsync; NULL = no fence */
} gt_fence;

/* Puts a fence after all work submitted so far and flushes (glFlush) so
 * it will signal without a later call. Ordering: the fence covers every
 * command issued on this GL context before it, gltile's and the caller's
 * alike; work issued after it is not covered.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (NULL); GT_ERR_NO_CONTEXT;
 *            GT_ERR_OUT_OF_MEMORY; GT_ERR_CONTEXT_LOST; GT_ERR_GL. On an
 *            error *fence is zeroed.
 * Allocates  a GL fence object (glFenceSync); release it with
 *            gt_fence_release. */
gt_status gt_fence_insert(gt_context *ctx, gt_fence *fence);

/* Waits up to timeout_ns nanoseconds for the fence (0: only looks).
 * Returns    GT_OK (signalled; again on every later call); GT_ERR_TIMEOUT;
 *            GT_ERR_INVALID_ARGUMENT (NULL, or a zeroed fence);
 *            GT_ERR_NO_CONTEXT; GT_ERR_CONTEXT_LOST; GT_ERR_GL.
 * Allocates  nothing. */
gt_status gt_fence_wait(gt_context *ctx, const gt_fence *fence, uint64_t timeout_ns);

/* Deletes the fence (signalled or not) and zeroes it. NULL, a zeroed
 * fence, a lost context or another current context: only zeroes it. */
void gt_fence_release(gt_context *ctx, gt_fence *fence);

/* Waits until the GPU has finished all submitted work (glFinish). An
 * Android frame loop would rather use gt_fence_insert / gt_fence_wait or
 * gt_read_begin / gt_read_end, which do not stall the pipeline.
 * Returns    GT_OK, GT_ERR_INVALID_ARGUMENT, GT_ERR_NO_CONTEXT,
 *            GT_ERR_CONTEXT_LOST, GT_ERR_GL. */
gt_status gt_finish(gt_context *ctx);

/* ------------------------------------------------------------------ */
/* Program binaries: a warm start without the shader compiler.         */

/* Bytes gt_program_cache_save needs now: a header and, for every program
 * the context has built (user kernels aside), its binary. Binaries exist
 * only where the driver offers a program binary format.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (NULL); GT_ERR_NO_CONTEXT;
 *            GT_ERR_GL. */
gt_status gt_program_cache_size(gt_context *ctx, size_t *size);

/* Writes the cache into caller memory (glGetProgramBinary); the bytes are
 * the caller's to keep, on disk say, and are keyed by the library
 * version, a hash of the library's kernel sources (so another build of
 * the same version does not take them), the renderer and the driver
 * version (GL_VERSION).
 * Returns    GT_OK and *written; GT_ERR_OUT_OF_MEMORY (size too small:
 *            nothing written); GT_ERR_INVALID_ARGUMENT (NULL);
 *            GT_ERR_NO_CONTEXT; GT_ERR_GL. */
gt_status gt_program_cache_save(gt_context *ctx, void *mem, size_t size, size_t *written);

/* Puts a saved cache's programs into ctx's table (glProgramBinary), so
 * the calls that need them compile nothing. A cache from another library
 * version, other kernel sources, another renderer or driver version is
 * ignored (GT_OK, *loaded 0), and a binary the driver refuses is left out
 * and built from source when first needed. No more programs are taken
 * than the table has slots. The memory is not kept.
 * Trust      a cache must be as trusted as the executable: its binaries go
 *            to the driver, which may crash or compute anything on a
 *            forged one. Within that, no binary runs under a key it does
 *            not prove: a key no plan on this device names is left out
 *            (logged), and a linked binary whose work group or view
 *            uniforms (named by a hash of its program's text) are not its
 *            key's is released and its program built from source
 *            (logged). A binary forged inside the driver's own part
 *            passes these checks: keep a cache where others can write only
 *            under a MAC of your platform's crypto, checked before this
 *            call (README, "Start-up and device choices").
 * Returns    GT_OK and *loaded, the programs taken; GT_ERR_BAD_CACHE (not a
 *            cache, or a damaged one: cut, a key of no kernel, a checksum
 *            that does not match; checked before any program is made, the
 *            log naming the entry); GT_ERR_INVALID_ARGUMENT (NULL);
 *            GT_ERR_OUT_OF_MEMORY; GT_ERR_NO_CONTEXT; GT_ERR_GL. */
gt_status gt_program_cache_load(gt_context *ctx, const void *mem, size_t size, uint32_t *loaded);

/* ------------------------------------------------------------------ */
/* Operations.                                                         */

/* Transpose: dst(c, r) = src(r, c), bit for bit, for every element.
 *
 * src, dst   same type; dst is src.cols x src.rows; any offsets and pitches.
 * d          strategy and tile; NULL = AUTO with the device's tile.
 *            TILED_EVEN needs a tile that divides both extents.
 * Aliasing   src and dst the very same square view (same buffer, offset,
 *            extent, pitch, type): an in-place transpose, with every
 *            strategy. Any other overlap (gt_views_alias) is refused with
 *            GT_ERR_ALIASED before anything is written.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (NULL ctx, zero extent, pitch <
 *            cols, unknown type/strategy, tile not 0/8/16/32, buffer 0 or
 *            not a buffer); GT_ERR_SHAPE_MISMATCH (dst extent, types,
 *            TILED_EVEN on an extent the tile does not divide);
 *            GT_ERR_OUT_OF_RANGE (a view past its buffer's end or sizes
 *            overflowing); GT_ERR_ALIASED; GT_ERR_UNSUPPORTED (an in-place
 *            view longer than the storage-block limit, TILED_EVEN whose
 *            one-tile block does not fit it, or a tile that does not fit
 *            the device limits; longer views otherwise run in blocks; 2-
 *            or 1-byte elements where the context has no shader atomics,
 *            but for the AUTO cases gt_context_has_atomics names);
 *            GT_ERR_NO_CONTEXT; GT_ERR_SHADER_BUILD; GT_ERR_OUT_OF_MEMORY
 *            (GL out of memory); GT_ERR_CONTEXT_LOST;
 *            GT_ERR_GL.
 * GL state   binds its program, SSBO slots 0-1 (indexed and generic
 *            bindings) and sets its own uniforms; restores none of them.
 *            Ends with a shader-storage and buffer-update barrier, so later
 *            gltile calls and gt_read see the result.
 * Allocates  nothing; compiles a program only on its first use. */
gt_status gt_transpose(gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d);

/* What an operation would run, as its plan function tells it. */
typedef struct gt_plan {
  gt_strategy strategy; /* what runs: never AUTO */
  uint32_t tile;        /* the tiled kernels' tile, AUTO's big tile
                           included; 0 where none runs */
  char kernels[64];     /* the kernels and how they share the extent,
                           e.g. "tiled_even 64", "big 64 + tiled_pad 32" */
  char reason[128];     /* what decided: the device table or a property of
                           the views */
} gt_plan;

/* What gt_transpose(ctx, src, dst, d) would run, without building or
 * running anything: the strategy AUTO (or d) comes to, the tile, the
 * kernels and why. For tools and logs: `gltile bench` labels its rows
 * with it.
 *
 * Checks ctx, d, the views' fields and their shapes as gt_transpose does,
 * with its statuses; the buffers are not looked at. GT_ERR_UNSUPPORTED or
 * GT_ERR_SHAPE_MISMATCH where gt_transpose would refuse the tile or the
 * extent for this device. *out is written only on GT_OK.
 * No GL calls; allocates nothing. */
gt_status gt_transpose_plan(const gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d,
                            gt_plan *out);

/* Copy: dst(r, c) = src(r, c), bit for bit. The bench's ceiling for a
 * transpose: the same bytes, read and written in the best order.
 *
 * src, dst   same type and extent; any offsets and pitches.
 * Returns    GT_OK, GT_ERR_INVALID_ARGUMENT, GT_ERR_SHAPE_MISMATCH,
 *            GT_ERR_OUT_OF_RANGE, GT_ERR_ALIASED (dst overlaps src),
 *            GT_ERR_NO_CONTEXT, GT_ERR_SHADER_BUILD, GT_ERR_OUT_OF_MEMORY,
 *            GT_ERR_CONTEXT_LOST, GT_ERR_GL. Views longer than the
 *            storage-block limit are copied in blocks.
 * GL state   as gt_transpose.
 * Allocates  nothing; compiles its program on first use. */
gt_status gt_copy(gt_context *ctx, gt_view src, gt_view dst);

/* Matrix multiply: c = op(a) op(b), or alpha op(a) op(b) + beta c with
 * d->scale. op(a) is M x K, op(b) is K x N, c is M x N; op(x) is x, or its
 * transpose when d->trans_a / d->trans_b is set (the view is then K x M or
 * N x K). Views take any offsets and pitches; a and b may overlap each
 * other (read-read), c may overlap neither.
 *
 * Types: the seven configurations (any other pairing is
 * GT_ERR_SHAPE_MISMATCH; other types GT_ERR_UNSUPPORTED):
 *
 *   a, b     c        sums                     strategies   bias
 *   GT_F32   GT_F32   f32                      all          GT_F32
 *   GT_F16   GT_F32   f32 (half: precision)    all          GT_F32
 *   GT_F16   GT_F16   f32 (half: precision)    all          GT_F32
 *   GT_U8    GT_I32   exact 32-bit integers    AUTO, SIMPLE GT_I32
 *   GT_U8    GT_U8    the same, requantised    AUTO, SIMPLE GT_I32
 *   GT_I8    GT_I32   exact 32-bit integers    AUTO, SIMPLE GT_I32
 *   GT_I8    GT_I8    the same, requantised    AUTO, SIMPLE GT_I32
 *
 *   "all" is AUTO, SIMPLE, TILED_EVEN, TILED_PAD and TRUNCATE_B
 *   (TRUNCATE_A is not a matmul strategy). TILED_EVEN, TILED_PAD and
 *   TRUNCATE_B run the seed's tiled kernel: f32 sums, no epilogue, one
 *   product (HALF_IF_FASTER sums in f32 there; precision HALF, an
 *   epilogue or gt_matmul_batched under them is GT_ERR_UNSUPPORTED). Sums
 *   in half run on AUTO and SIMPLE. 8-bit products take no scaling. An
 *   8-bit c (requantised, d->quant) and a GT_F16 c need shader atomics
 *   (gt_context_has_atomics).
 *
 * Error bounds. f32 sums run in k order within each chunk of K; the tests
 * hold each element within 2 (K + 2) 2^-23 S of the exact result, with
 * S = |alpha| sum |a b| + |beta c|. On a device that flushes f32
 * denormals (gt_context_flushes_denormals) every product and partial sum
 * below 2^-126 counts as zero, which adds up to (2 K + 2) 2^-126 to that.
 * Halves are widened to f32 for the sums; a GT_F16 c is rounded to the
 * nearest half after each K chunk (overflow gives infinity), so its error
 * is at most 2 (K + 2) 2^-24 S + chunks (2^-10 S + 2^-14); products with
 * an f16 denormal factor may count as zero on devices that flush them.
 * With d->precision HALF (or HALF_IF_FASTER where
 * gt_context_half_is_faster) the sums, scaling and epilogue run in half,
 * within gt_precision's far wider bound, on the registers kernel. AUTO
 * runs half operands on the context's kernel (not texels).
 * 8-bit: a GT_I32 c takes the exact sums of (a - zero_a)(b - zero_b); a c
 * of a's type takes them requantised (gt_quantization). K may be at most
 * (2^31 - 1) / (max |a - zero_a| max |b - zero_b|), 33,025 where both
 * reach 255, so no sum overflows; into an 8-bit c at most 4,096 too (K in
 * one slice). AUTO runs the registers kernel for them on every device. A
 * per-column requantisation binds slots 4 and 5 and needs 6 storage
 * blocks per compute shader.
 *
 * d          NULL = AUTO without transposes or scaling. TILED_EVEN needs
 *            a tile dividing M, N and K. The epilogue (d->bias, d->act)
 *            runs in the dispatch that writes each result's final value,
 *            in this order: alpha op(a)op(b) + beta c, plus the bias (its
 *            element n where it is 1 x N, m where M x 1; a 1 x 1 bias
 *            serves either), then the activation; a GT_F16 c is rounded
 *            after it. Float products run it in f32; 8-bit ones in
 *            integers: the bias added to the sum (wrapping) before
 *            requantisation, RELU clamping c's value at 0 (at zero_c in an
 *            8-bit c), CLAMP at act_lo, act_hi (whole numbers, inside an
 *            8-bit c's range). The bias may overlap a and b, not c. RELU
 *            and CLAMP compare (v < 0, v < act_lo, v > act_hi), so a NaN
 *            result stays NaN where the device keeps NaNs.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (NULL ctx, zero extent,
 *            pitch < cols, unknown type, strategy not accepted, tile not
 *            0/8/16/32, buffer 0 or not a buffer, an unknown act, CLAMP's
 *            act_lo > act_hi or NaN, d->quant fields out of their ranges, any
 *            of them set on a float product, a requantisation asked of an I32
 *            c, per-column views with the per-tensor multiplier or shift, or
 *            only one of them, CLAMP bounds of an 8-bit product not whole or
 *            outside an 8-bit c's range, d->precision unknown or not FLOAT
 *            for operands other than GT_F16); GT_ERR_SHAPE_MISMATCH (inner
 *            dimensions differ, c not M x N, a bias neither 1 x N nor M x 1,
 *            per-column requantisation views not 1 x N, types that do not
 *            pair as above, TILED_EVEN on extents the tile does not divide);
 *            GT_ERR_UNSUPPORTED (types other than GT_F32, GT_F16, GT_U8 and
 *            GT_I8, a tiled strategy with 8-bit operands, precision HALF
 *            or an epilogue, scaling on 8-bit products, K past their bound above, an
 *            8-bit c without shader atomics, per-column requantisation views
 *            not GT_I32 or on a device with fewer than 6 storage blocks, a
 *            bias not GT_F32 (GT_I32 for 8-bit products) or longer than one
 *            storage block, TILED_EVEN whose one-tile blocks do not fit the
 *            storage-block limit, a tile beyond the device; longer views
 *            otherwise run in blocks); GT_ERR_OUT_OF_RANGE; GT_ERR_ALIASED (c
 *            overlaps a, b, the bias or the per-column requantisation);
 *            GT_ERR_NO_CONTEXT; GT_ERR_SHADER_BUILD; GT_ERR_OUT_OF_MEMORY;
 *            GT_ERR_CONTEXT_LOST; GT_ERR_GL.
 * Work       K is processed in chunks of at most 4096 (16384 where AUTO runs
 *            the 128 x 128 shared kernel alone; one dispatch each,
 *            accumulating into c, a half c rounded after each), so no
 *            invocation loops past a driver's silent 65,535-iteration cap and no
 *            dispatch runs for long.
 * GL state   binds its program, SSBO slots 0-2 (3 with an epilogue, 4-5 per
 *            column) and sets its own uniforms; restores none. Where the
 *            texels kernel runs (a TEXELS context) it also points texture
 *            units 0 and 1 at a and b for its dispatches, then detaches them
 *            and puts back those units' GL_TEXTURE_BUFFER bindings and the
 *            active unit. Ends with a shader-storage and buffer-update
 *            barrier.
 * Allocates  nothing; compiles a program only on its first use. */
gt_status gt_matmul(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d);

/* batch.count products c_i = op(a_i) op(b_i) (or alpha op(a_i) op(b_i) +
 * beta c_i), where x_i is view x with its offset moved on by i *
 * batch.stride_x elements: each exactly what gt_matmul(a_i, b_i, c_i, d)
 * gives, bit for bit, on the same context.
 *
 * a, b, c    as gt_matmul's (GT_F16 a and b with a GT_F16 or GT_F32 c, 8-bit
 *            a and b with a GT_I32 or 8-bit c too), for product 0; every
 *            product's views must lie inside their buffers. No c_i may
 *            overlap a_j, b_j or (i != j) c_j, compared by bytes; the a_i and
 *            b_j may overlap one another.
 * batch      count >= 1; strides in elements, 0 for a matrix every product
 *            shares (a or b; c only when count is 1).
 * d          as gt_matmul's; every product adds the same bias. AUTO and
 *            SIMPLE only: the tiled strategies' kernel runs one product
 *            at a time (GT_ERR_UNSUPPORTED).
 * Returns    gt_matmul's codes, and GT_ERR_INVALID_ARGUMENT for a count of 0,
 *            GT_ERR_OUT_OF_RANGE where a product's views pass their buffers
 *            or the addresses overflow, GT_ERR_ALIASED where a c_i overlaps
 *            another product's c, any product's a or b, or the bias. Nothing
 *            is written unless every product is valid.
 * Work       one dispatch (per slice of K and block of c, as gt_matmul's)
 *            runs every product as a layer of groups, up to the device's
 *            group-count and FLOP limits per dispatch. Where the strides are
 *            not multiples of 4 elements, products r, r + s, r + 2s, ... run
 *            together (s = 2 or 4: at most 4 such series), each series with
 *            the row alignment, and so the programs, of its products alone. A
 *            series spanning more than one storage block runs product by
 *            product. Bit equality with gt_matmul rests on the driver
 *            compiling the same sums alike in the batched and the single
 *            programs (GLSL ES has no `precise`); the tests check it on
 *            every device they run on.
 * GL state   as gt_matmul.
 * Allocates  nothing; compiles the batched programs on first use. */
gt_status gt_matmul_batched(gt_context *ctx, gt_view a, gt_view b, gt_view c, gt_batch batch,
                            const gt_matmul_desc *d);

/* What gt_matmul(ctx, a, b, c, d) would run, without building or running
 * anything: the kernels, their tiles, the blocks the product goes in and
 * why. AUTO's kernels pad c to whole blocks and guard its edges, so they
 * answer GT_STRATEGY_TILED_PAD with their block side as the tile, and
 * kernels such as "texels 64 + registers 32 vec4 b,c" (the texels kernel
 * where the operands allow it, the registers kernel elsewhere, moving
 * aligned operands as vec4s), or ", blocks of MxNxK" after them where the
 * product is cut (K past its chunk, the work per dispatch, storage blocks).
 * For tools and logs: `gltile bench` labels its rows with it and `gltile
 * info` prints it.
 *
 * Checks ctx, d, the views' fields, types and shapes as gt_matmul does,
 * with its statuses; the buffers are not looked at. GT_ERR_UNSUPPORTED or
 * GT_ERR_SHAPE_MISMATCH where gt_matmul would refuse the tile, the extent
 * or a block for this device. *out is written only on GT_OK.
 * No GL calls; allocates nothing. */
gt_status gt_matmul_plan(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                         gt_plan *out);

/* ------------------------------------------------------------------ */
/* Images: transposes and quarter turns of texture windows.            */

/* true when a and b name the same texture level and their windows share a
 * texel. An image never aliases a buffer view. */
bool gt_images_alias(gt_image a, gt_image b);

/* Transpose of an image window through imageLoad / imageStore:
 * dst texel (r, c) = src texel (c, r), exact for every format.
 *
 * src, dst   same format; dst is src.height wide and src.width high.
 * d          strategy and tile as gt_transpose; AUTO, SIMPLE, TILED_EVEN
 *            (tile must divide both extents) and TILED_PAD are offered.
 *            AUTO runs SIMPLE where the context's transpose AUTO is
 *            SIMPLE, else TILED_PAD (TILED_EVEN where the tile divides
 *            both extents), on a context whose AUTO truncates too.
 * Aliasing   any shared texel between src and dst is refused with
 *            GT_ERR_ALIASED (a texture cannot be read and written in one
 *            dispatch: seed 004, caveat 3); in-place is not offered.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (NULL ctx, texture 0 or not a
 *            2-D texture, zero extent, unknown format or strategy, format
 *            not the texture's); GT_ERR_SHAPE_MISMATCH (extents, formats,
 *            TILED_EVEN on an uneven extent); GT_ERR_OUT_OF_RANGE (window or
 *            level outside the texture); GT_ERR_UNSUPPORTED (texture without
 *            immutable storage); GT_ERR_ALIASED; GT_ERR_NO_CONTEXT;
 *            GT_ERR_SHADER_BUILD; GT_ERR_OUT_OF_MEMORY; GT_ERR_GL.
 * GL state   binds its program and image units 0-1, and (to query them)
 *            each texture on GL_TEXTURE_2D of the active unit, restoring
 *            that binding. Ends with image-access, texture-fetch,
 *            texture-update and framebuffer barriers.
 * Allocates  nothing; compiles a program on first use. */
gt_status gt_image_transpose(gt_context *ctx, gt_image src, gt_image dst, const gt_transpose_desc *d);

/* Rotation of an image window by quarter_turns (1, 2 or 3) quarter turns
 * clockwise: a quarter turn is a transpose followed by a left-right flip.
 * dst is src's height wide for 1 and 3 turns, src's extent for 2. A half
 * turn always runs the SIMPLE kernel (it keeps rows as rows). Otherwise
 * as gt_image_transpose; quarter_turns outside 1..3 gives
 * GT_ERR_INVALID_ARGUMENT. */
gt_status gt_image_rotate(gt_context *ctx, gt_image src, gt_image dst, uint32_t quarter_turns,
                          const gt_transpose_desc *d);

/* ------------------------------------------------------------------ */
/* User kernels: C++ AMP's parallel_for_each over a tiled extent.      */

#define GT_KERNEL_MAX_VIEWS 8
#define GT_KERNEL_MAX_UNIFORMS 8
#define GT_KERNEL_MAX_NAME 31 /* characters in a view or uniform name */
#define GT_KERNEL_MAX_BODY 16384  /* bytes in a kernel's body */
#define GT_KERNEL_MAX_TOKENS 4096 /* a body's tokens, counted as gt_kernel_desc says */

typedef enum gt_access { GT_ACCESS_READ = 1, GT_ACCESS_WRITE = 2, GT_ACCESS_READ_WRITE = 3 } gt_access;

typedef enum gt_uniform_type {
  GT_UNIFORM_INT = 1,   /* int */
  GT_UNIFORM_UINT = 2,  /* uint */
  GT_UNIFORM_FLOAT = 3, /* float */
  GT_UNIFORM_VEC4 = 4   /* vec4 */
} gt_uniform_type;

/* How a dispatch covers an extent the tile may not divide (seeds 000, 001):
 * EXACT refuses it; PAD adds invocations (the kernel guards its accesses
 * with gt_in_domain or the views' _read/_write helpers); TRUNCATE runs the
 * whole tiles only and hands the leftover bands back. */
typedef enum gt_policy { GT_POLICY_EXACT = 0, GT_POLICY_PAD = 1, GT_POLICY_TRUNCATE = 2 } gt_policy;

/* A view slot of a kernel: its GLSL name, element type and access. */
typedef struct gt_kernel_view {
  const char *name;
  gt_type type;
  gt_access access;
} gt_kernel_view;

typedef struct gt_kernel_uniform {
  const char *name;
  gt_uniform_type type;
} gt_kernel_uniform;

/* A kernel: a GLSL body over views and uniforms.
 *
 * body is GLSL ES 3.10 with a void main() and no #version or layout. The
 * library puts in front of it the prelude (the tiled index: gt_global(),
 * gt_local(), gt_tile(), gt_tile_origin() as (row, col) uvec2s, and
 * GT_TILE_ROWS / GT_TILE_COLS), the dispatch's extent as uvec2 gt_domain
 * with bool gt_in_domain(uvec2), and for each view NAME:
 *   NAME_extent            its (rows, cols),
 *   NAME_read(idx)         its element (row, col) idx (float, int or
 *                          uint), 0 outside the view; READ and READ_WRITE
 *                          views,
 *   NAME_write(idx, v)     a write of element idx, nothing outside the
 *                          view; WRITE and READ_WRITE views;
 * and a uniform of each declared name and type. These are the only way to
 * a view's elements, and they stay inside it: NAME is no array in the
 * body, since a view's binding starts at the storage-buffer offset
 * alignment below it and holds the elements before its offset and between
 * its rows; idx is evaluated once. READ views are readonly in both
 * programs.
 *
 * A body reaches no memory it was not given, and is checked as the driver
 * will read it, before compiling (gt_kernel_create refuses, the log
 * naming the check as "kernel refused (ID)"):
 *   - no memory of its own: no layout, buffer, uniform, atomic_uint,
 *     sampler or image type, image or atomic-counter function;
 *   - of the library's names only those above (no other gt_ or GT_ name,
 *     guarded_read, guarded_write); no view by its NAME or NAME_index; no
 *     NAME_read of a WRITE view or NAME_write of a READ view;
 *   - no preprocessor directive (no '#') and no backslash: #define and ##
 *     can make or hide any word, #if can tell the two programs apart, a
 *     line continuation joins two words into a third or ends a comment, so
 *     no check short of the driver's own preprocessor would see the
 *     words. A body has no macros of its own: const variables serve;
 *   - outside block comments, only characters GLSL has (a // comment
 *     ends at a byte past ASCII, where a driver might see a line end); no
 *     comment left open;
 *     no number running into a name (1buffer);
 *   - no return in main() before a barrier();
 *   - at most GT_KERNEL_MAX_BODY bytes, and GT_KERNEL_MAX_TOKENS tokens
 *     (names, numbers, each symbol character) once every call of one of
 *     its own functions counts as that function's tokens, NAME_read and
 *     NAME_write as 16, inverse as 64, determinant as 16, atan,
 *     packHalf2x16 and unpackHalf2x16 as 8, the other transcendental
 *     functions as 4, and the statements of a loop with no loop inside 32
 *     times: drivers inline every call and unroll short loops, so a short
 *     body can take minutes to compile (the README); at most 64
 *     functions, and
 *     statements nested at most 64 deep.
 * Arrays the body declares itself (shared, local) are indexed as the
 * driver indexes them: GLSL ES leaves an index out of range undefined.
 * Driver messages count the body's lines from 1 as source string 2. The
 * body need not outlive the call. */
typedef struct gt_kernel_desc {
  const char *body;
  uint32_t tile_rows, tile_cols; /* invocations per group; 0 = 16 each */
  uint32_t view_count;
  gt_kernel_view views[GT_KERNEL_MAX_VIEWS];
  uint32_t uniform_count;
  gt_kernel_uniform uniforms[GT_KERNEL_MAX_UNIFORMS];
} gt_kernel_desc;

/* A kernel's handle in its context; 0 is never a kernel. Ids are not
 * reused: once its kernel is destroyed an id names no kernel (dispatch
 * refuses it) until 2^28 more kernels have been made in the context. An
 * id from another context is refused too, unless their serial numbers
 * happen to meet (ids start from a hash of the context's address). */
typedef uint32_t gt_kernel_id;

typedef union gt_uniform_value {
  int32_t i;
  uint32_t u;
  float f;
  float v4[4];
} gt_uniform_value;

typedef struct gt_dispatch_desc {
  gt_extent extent;                 /* the domain: one invocation per (row, col) */
  gt_policy policy;
  const gt_view *views;             /* the kernel's view_count views, in order */
  const gt_uniform_value *uniforms; /* its uniform_count values, in order */
} gt_dispatch_desc;

/* What a dispatch covered, and (TRUNCATE) what it left: the bottom band
 * is rows main.rows.. of columns 0..main.cols, the right band all rows of
 * columns main.cols..; a band with a zero extent is empty. Run another
 * kernel on sections of the views there, as seed 000's option B does. */
typedef struct gt_dispatch_result {
  gt_extent main;
  gt_extent bottom; /* at (main.rows, 0) */
  gt_extent right;  /* at (0, main.cols) */
} gt_dispatch_result;

/* Compiles a kernel into the context's table: two programs, with and
 * without restrict on its storage blocks (seed 004: the aliased and the
 * non-aliased shader), both built here. Names and body are checked first
 * (gt_kernel_desc); each linked program must then hold no storage block
 * but its views' (bindings 0 .. view_count - 1), and no uniform block,
 * atomic counter buffer or opaque uniform.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (NULL; unknown type, access or
 *            uniform type, more than the MAX counts; a view or uniform name
 *            that is no plain identifier of at most GT_KERNEL_MAX_NAME
 *            characters, a GLSL ES keyword, reserved word or built-in
 *            function, main, the library's or GLSL's own (gt_, GT_, gl_,
 *            GL_, any name with __, guarded_read, guarded_write), a helper
 *            of another view (NAME_index, NAME_extent, NAME_read,
 *            NAME_write) or repeated; a body refused as gt_kernel_desc
 *            lists; a linked program holding more), the log naming the
 *            check and the name or the body's line and word;
 *            GT_ERR_UNSUPPORTED (tile over the device's group limits, more
 *            views than its storage blocks, a view type of 2 or 1 bytes);
 *            GT_ERR_SHADER_BUILD (the log goes to the logger);
 *            GT_ERR_OUT_OF_MEMORY (the table of 16 kernels is full);
 *            GT_ERR_NO_CONTEXT; GT_ERR_GL.
 * Allocates  nothing. */
gt_status gt_kernel_create(gt_context *ctx, const gt_kernel_desc *d, gt_kernel_id *out);

/* Deletes a kernel's programs and frees its slot; its id names no kernel
 * from then on. 0, unknown or stale ids: no-op. */
void gt_kernel_destroy(gt_context *ctx, gt_kernel_id k);

/* Runs a kernel over d->extent tiled by its tile, with d->policy. The
 * restrict-free program runs when a written view (WRITE or READ_WRITE)
 * shares elements with another bound view; read-read overlap keeps the
 * other. The choice is logged at GT_LOG_DEBUG. result may be NULL.
 * Returns    GT_OK; GT_ERR_INVALID_ARGUMENT (NULL ctx or d, unknown kernel
 *            (0, destroyed, another context's, made up),
 *            zero extent, unknown policy, missing views or uniforms, a view
 *            invalid as for gt_transpose); GT_ERR_SHAPE_MISMATCH (a view's
 *            type not the kernel's, EXACT on an extent the tile does not
 *            divide); GT_ERR_OUT_OF_RANGE; GT_ERR_UNSUPPORTED (a view wider
 *            than the storage-block limit); GT_ERR_NO_CONTEXT; GT_ERR_GL.
 * GL state   binds the program, SSBO slots 0..view_count-1 and sets its
 *            uniforms; ends with a shader-storage and buffer-update barrier.
 *            Buffers bound at other storage slots (the application's, or
 *            the library's staging buffer) stay bound and untouched: no
 *            kernel can name them (gt_kernel_create).
 * Allocates  nothing. */
gt_status gt_kernel_dispatch(gt_context *ctx, gt_kernel_id k, const gt_dispatch_desc *d,
                             gt_dispatch_result *result);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* GLTILE_GLTILE_H */
