/* Declarations shared between the library's source files. Not installed. */
#ifndef GT_INTERNAL_H
#define GT_INTERNAL_H

#include <gltile/gltile.h>

#include "enumerations.h"

#include <GLES3/gl31.h>

/* ES 3.2 (and KHR_robustness) names, for contexts of any version. */
#ifndef GL_CONTEXT_LOST
#define GL_CONTEXT_LOST 0x0507
#endif
#ifndef GL_RESET_NOTIFICATION_STRATEGY
#define GL_RESET_NOTIFICATION_STRATEGY 0x8256
#endif
#ifndef GL_LOSE_CONTEXT_ON_RESET
#define GL_LOSE_CONTEXT_ON_RESET 0x8252
#endif

/* Tests build the library a second time with every GL call wrapped. */
#ifdef GT_FAULT_INJECTION
#include "fault_injection.h"
#endif

/* One-line argument checks: return the status when the condition fails. */
#define GT__CHECK(cond, status)                                                                              \
  do {                                                                                                       \
    if (!(cond)) return (status);                                                                            \
  } while (0)

#define GT__TRY(expr)                                                                                        \
  do {                                                                                                       \
    gt_status gt__s_ = (expr);                                                                               \
    if (gt__s_ != GT_OK) return gt__s_;                                                                      \
  } while (0)

/* ---- kernels and programs ---------------------------------------- */

/* The kernels in glsl/, one file each (enumerations.h). */
#define GT__KERNEL_CONSTANT(name, file, include, order) GT_KERNEL_##name,
typedef enum gt_kernel { GT_EACH_KERNEL(GT__KERNEL_CONSTANT) GT_KERNEL_COUNT } gt_kernel;

/* Variant flags (enumerations.h), each a #define in the program's source,
 * and the images' rotation field. */
#define GT__VARIANT_CONSTANT(name, bit) GT_VARIANT_##name = 1u << (bit),
enum {
  GT_EACH_VARIANT_FLAG(GT__VARIANT_CONSTANT) /* */
  GT_VARIANT_ROTATE_SHIFT = 5 /* images: bits 5-6 hold GT_ROTATE, quarter turns */
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
  GLuint name;            /* 0 = free slot */
  GLint views_loc;        /* uniform uvec4 gt_views[] */
  GLint group_base_loc;   /* uniform uvec2 gt_group_base */
  GLint scale_loc;        /* matmul: uniform vec2 gt_scale */
  GLint k_range_loc;      /* matmul: uniform uvec2 gt_k_range */
  GLint grid_origin_loc;  /* in-place SIMPLE: uniform uvec2 gt_grid_origin */
  GLint stripe_tiles_loc; /* tiled transposes, images: uniform uint gt_stripe_tiles */
  GLint batch_loc;        /* batched matmul: uniform uvec4 gt_batch */
} gt_program;

/* Every variant one context can reach: transpose and copy about 26 (SIMPLE,
 * AUTO's 4x4 blocks of quads and of elements, tiled even/pad/TRUNCATE_A
 * at 3 tiles, NVIDIA's 64-tile, in place SIMPLE and the same 9 tiled, 2
 * copies), and 21 more for each of the 2- and 1-byte sizes (no 4x4 blocks
 * or 64-tile) with their blocks of words (1 through shared tiles, or 2 in
 * registers); matmul 69 (4 transpose cases x (SIMPLE, the registers
 * kernel, the shared kernel plain and with 7 choices of vec4 operands,
 * texels, 3 tiles x even/pad), and the registers kernel's vec4 program),
 * as many again batched, and 76 for half precision (4 transpose cases x
 * (c half or float x (SIMPLE, registers, shared, 3 tiles x even/pad), and
 * the shared kernel writing a float c as vec4s)), as many again batched;
 * images 22 per format x 4: about 452 of 512. */
#define GT_PROGRAM_TABLE_SIZE 512

/* Longest slice of K one matmul dispatch sums. Mesa silently stops a
 * shader's loops after 65,535 iterations in all; the tiled kernel, if not
 * unrolled, runs at most about 9 iterations per k, so 4096 stays clear,
 * and a dispatch stays short on devices with a watchdog. A multiple of
 * every tile. */
#define GT_MATMUL_K_CHUNK 4096u

/* The registers matmul kernel (matmul_blocked.comp): 8 x 8 invocations of
 * 4 x 4 results each. */
enum { GT_BLOCKED_GROUP = 8, GT_BLOCKED_TILE = 4 * GT_BLOCKED_GROUP };

/* The GT_VARIANT_VEC4_A / _B bits whose quads run along K given a
 * variant's transposes (a untransposed, b transposed): GT_VARIANT_K1
 * programs move none of them as vec4s. */
static inline uint32_t gt__vec4_along_k(uint32_t variant) {
  return ((variant & GT_VARIANT_TRANS_A) ? 0u : GT_VARIANT_VEC4_A) |
         ((variant & GT_VARIANT_TRANS_B) ? GT_VARIANT_VEC4_B : 0u);
}

/* Storage-block bindings, matched by the kernels' layout(binding = N). */
enum { GT_BINDING_SRC = 0, GT_BINDING_DST = 1 };
enum { GT_BINDING_A = 0, GT_BINDING_B = 1, GT_BINDING_C = 2 };

/* The group of the simple (one element per invocation) transpose, in place
 * or not, and of image rotation: 32 invocations along a source row keep its
 * reads contiguous; 4 rows make 128 invocations, the ES 3.1 minimum. */
enum { GT_SIMPLE_GROUP_COLS = 32, GT_SIMPLE_GROUP_ROWS = 4 };

/* The view uniforms: gt_views[slot] = (rows, cols, offset, pitch); as many
 * as a user kernel may bind. */
#define GT_MAX_VIEWS GT_KERNEL_MAX_VIEWS

/* ---- user kernels ------------------------------------------------- */

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
  GLuint program[2]; /* 0 = free slot */
  GLint views_loc[2], base_loc[2], domain_loc[2];
  GLint uniform_loc[2][GT_KERNEL_MAX_UNIFORMS];
  uint32_t tile_rows, tile_cols, view_count, uniform_count;
  gt_type types[GT_KERNEL_MAX_VIEWS];
  gt_access access[GT_KERNEL_MAX_VIEWS];
  gt_uniform_type uniform_types[GT_KERNEL_MAX_UNIFORMS];
  char names[GT_KERNEL_MAX_VIEWS][GT_KERNEL_MAX_NAME + 1]; /* for logs */
} gt_user_kernel;

/* ---- the device table (device_table.c) ----------------------------- */

typedef struct gt_device_entry {
  const char *renderer;           /* a substring of GL_RENDERER; NULL: the fallback */
  const char *name;               /* for gltile info */
  bool measured;                  /* the choices were measured on such a device */
  bool compiled;                  /* chosen from the device compiler's
                                     statistics, not measured on it */
  gt_strategy transpose;          /* what transpose's AUTO runs */
  bool quads;                     /* AUTO moves 4x4 blocks as uvec4s where
                                     the views are 16-byte aligned */
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
  bool scalar_loads;              /* the registers matmul kernel and the copy
                                     load no vec4s (they cost V3D's compiler
                                     half its threads) */
  uint32_t barrier_invocations;   /* most invocations in a group with barriers
                                     (tiled kernels); 0 = 256 */
} gt_device_entry;

/* The i-th entry of the table, the fallback last; NULL past it. */
const gt_device_entry *gt__device_entry_at(size_t i);

/* Whether the shared-memory matmul kernel fits: 16x16 invocations, 8 KiB. */
bool gt__shared_kernel_fits(const gt_limits *l);

/* Calls each(key, user) for every program key the library can build
 * (program_variants.c). */
void gt__program_variants(void (*each)(const gt_program_key *key, void *user), void *user);

/* Whether kernels may use shader atomics on this renderer (the real one,
 * not a pretended entry's). */
bool gt__renderer_has_atomics(const char *renderer);

/* The entry for a renderer; never NULL. */
const gt_device_entry *gt__device_entry(const char *renderer);

/* Tests only: contexts made after this take the entry of this renderer
 * (NULL: their own), so a suite runs a mobile entry's choices on
 * llvmpipe. Not thread-safe: set it while no context is made. */
void gt__device_entry_pretend(const char *renderer);

/* ---- the context -------------------------------------------------- */

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
  gt_matmul_kernel matmul_kernel; /* what matmul's AUTO runs */
  char renderer[128];
  char gl_version[128]; /* GL_VERSION: names the driver's version */
  const gt_device_entry *device;
  /* glGetGraphicsResetStatus (ES 3.2) or its EXT/KHR robustness twin;
   * NULL where the context has none. */
  GLenum(GL_APIENTRYP reset_status)(void);
  /* reset_status is there and the context was made with the
   * lose-context-on-reset strategy; under the default strategy (no reset
   * notification) a reset may go unreported. */
  bool reports_resets;
  bool lost; /* the GL context was lost: every call answers CONTEXT_LOST */
  /* The staging buffer reads go through (transfer.c): made on the first
   * read, limits.staging_bytes long; 0 until then. */
  GLuint staging;
  gt_pending_read pending; /* a read-back begun and not yet ended */
  /* A TEXELS context's two texture objects, a's and b's texture
   * buffers (matmul_texels.c), and glTexBufferRange (ES 3.2, looked up at
   * init so the library links against ES 3.1 libraries). */
  GLuint texel_textures[2];
  void(GL_APIENTRYP tex_buffer_range)(GLenum, GLenum, GLuint, GLintptr, GLsizeiptr);
  uint32_t texel_offset_alignment; /* GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT */
  uint64_t max_texels;             /* GL_MAX_TEXTURE_BUFFER_SIZE */
  /* gt__source_hash, computed when the program cache first needs it. */
  bool source_hash_known;
  uint64_t source_hash;
  gt_program programs[GT_PROGRAM_TABLE_SIZE];
  gt_user_kernel user_kernels[GT_USER_KERNEL_TABLE_SIZE];
  uint32_t kernel_serial; /* the last kernel id's serial number */
  /* gt_context_flushes_denormals: its probe's answer, once it has run. */
  bool denormals_probed, flushes_denormals;
};

/* ---- headless EGL (egl.c) ----------------------------------------- */

/* Whether gt_egl_open asks for a referenced display where EGL offers
 * EGL_KHR_display_reference (the default); false makes it count displays
 * itself, as on EGLs without the extension, so tests reach that path. Not
 * thread-safe: set it while no gt_egl_open runs. */
void gt__egl_use_display_references(bool use);

/* ---- shared helpers ----------------------------------------------- */

/* true when the space-separated list (EGL or GL extensions) names name
 * exactly. */
bool gt__has_extension(const char *list, const char *name);

/* ---- operations: entry and exit (operation.c) ----------------------- */

/* The strategies an operation offers, as a mask of GT__STRATEGY(s). */
#define GT__STRATEGY(s) (1u << (unsigned)(s))
#define GT__STRATEGIES_TILED                                                                                 \
  (GT__STRATEGY(GT_STRATEGY_AUTO) | GT__STRATEGY(GT_STRATEGY_SIMPLE) |                                       \
   GT__STRATEGY(GT_STRATEGY_TILED_EVEN) | GT__STRATEGY(GT_STRATEGY_TILED_PAD))

/* What buffer-writing operations end with: later dispatches and transfers
 * see their writes. */
#define GT__BUFFER_WRITE_BARRIERS (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT)

/* true for the tiles a desc may ask: 0 (the default), 8, 16, 32. */
bool gt__tile_valid(uint32_t tile);

/* A description's strategy (one of the mask `strategies`) and tile. */
gt_status gt__desc_check(gt_strategy strategy, uint32_t tile, uint32_t strategies);

/* An operation's first checks: the context (gt__context_check), then
 * gt__desc_check. */
gt_status gt__operation_begin(gt_context *ctx, gt_strategy strategy, uint32_t tile, uint32_t strategies);

/* An operation's last step: glMemoryBarrier(barriers), then the GL status.
 * Returns status when it is an error (the first error wins), else the GL
 * status. */
gt_status gt__operation_end(gt_context *ctx, gt_status status, GLbitfield barriers, const char *what);

/* Logs through the context's logger, printf style. Cheap when silent. */
void gt__log(const gt_context *ctx, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The context's transpose choices from its device entry, limits and d:
 * the default tile, AUTO's strategy and its 4x4 blocks. No GL. */
void gt__choose_transpose(gt_context *ctx, const gt_context_desc *d);

/* GT_OK when ctx is usable on this thread: non-NULL, not lost, and its GL
 * context current. Every entry point calls it first; it also clears GL
 * errors the application left, so they are not reported as ours. */
gt_status gt__context_check(gt_context *ctx);

/* Maps the GL error flag (glGetError) and the reset status to a status;
 * GT_OK when both are clear. A lost context marks ctx lost for good. */
gt_status gt__gl_status(gt_context *ctx, const char *where);
/* The same for an error already taken from glGetError. */
gt_status gt__gl_error_status(gt_context *ctx, GLenum error, const char *where);

/* A view checked against its buffer, ready to bind. */
typedef struct gt_bound_view {
  gt_view view;         /* pitch resolved (never 0) */
  GLintptr bind_offset; /* bytes, a multiple of the offset alignment */
  GLsizeiptr bind_size; /* bytes from bind_offset to the view's last element */
  uint32_t elem_offset; /* elements from bind_offset to the view's start */
} gt_bound_view;

/* Checks v's fields, without GL: nonzero buffer and extent, known type,
 * pitch >= cols, element span without overflow. */
gt_status gt__view_check_fields(gt_view v);

/* Fields, then the view against its buffer's size (the only GL query
 * allowed before validation ends): to the end of the 32-bit word holding
 * the last element, which kernels reach. */
gt_status gt__view_check_buffer(gt_context *ctx, gt_view v);

/* The byte just past v's last element. */
uint64_t gt__view_end_bytes(gt_view v);

/* The copy kernel for views of type's size, and one dispatch of it over
 * s into t (copy.c; transfers stage 2- and 1-byte views with it). */
gt_status gt__copy_program(gt_context *ctx, gt_type type, const gt_program **out);
gt_status gt__copy_run(gt_context *ctx, const gt_program *prog, gt_bound_view s, gt_bound_view t);

/* Elements per 32-bit word of a kernel's storage: 1 for 4-byte types,
 * 2 or 4 for the packed ones. */
static inline uint32_t gt__pack(gt_type t) {
  size_t size = gt_type_size(t);
  return size ? (uint32_t)(4 / size) : 1;
}

/* GT_OK, or GT_ERR_UNSUPPORTED (logged, naming `what`) where the context
 * cannot run the shader atomics an operation needs. */
gt_status gt__need_atomics(gt_context *ctx, const char *what);

/* The program element of a kernel that only moves bits: GT_U32, GT_U16
 * or GT_U8, by size, so views of one size share programs. */
gt_type gt__bits_type(gt_type t);

/* Full validation of one view: fields, its buffer's size (the only GL query
 * allowed before validation ends), and the device's storage-block limit. */
gt_status gt__view_prepare(gt_context *ctx, gt_view v, gt_bound_view *out);

/* The binding of a view already checked against its buffer: no GL.
 * GT_ERR_UNSUPPORTED when it spans more than one storage block may. */
gt_status gt__view_bind(const gt_context *ctx, gt_view v, gt_bound_view *out);

/* The binding of `layers` views, v moved on by 0, stride, 2 stride, ...
 * elements (all checked against their buffer), as one range over them all:
 * GT_ERR_UNSUPPORTED when it passes one storage block, or an element
 * offset in it passes 32 bits. */
gt_status gt__view_bind_layers(const gt_context *ctx, gt_view v, uint32_t layers, uint64_t stride,
                               gt_bound_view *out);

/* Whether some x_i overlaps some y_j, i, j < count, where x_i is x moved
 * on by i * stride_x elements (y_j likewise); with `same` (x and y are one
 * operand of a batch) only i != j count. The views and every move are
 * checked: no sum overflows. */
bool gt__batches_alias(gt_view x, uint64_t stride_x, gt_view y, uint64_t stride_y, uint32_t count, bool same);

/* true when v (checked) fits one storage-block binding. */
bool gt__view_fits(const gt_context *ctx, gt_view v);

/* Elements from the view's first element to one past its last. */
uint64_t gt__view_span(gt_view v);

/* Effective pitch: cols when pitch is 0. */
uint32_t gt__view_pitch(gt_view v);

/* Whether every row of v starts 16-byte aligned in its buffer (offset and
 * pitch multiples of 4 elements), and of a bound view within its binding
 * too (the binding starting 16-byte aligned): where rows can move as
 * vec4s. */
bool gt__view_rows_aligned(gt_view v);
bool gt__bound_rows_aligned(const gt_bound_view *v);

/* Compiles and links parts into a program; compile and link logs go to
 * the logger, introduced by `what`. */
gt_status gt__program_build(gt_context *ctx, const char *const *parts, int count, const char *what,
                            GLuint *out);

/* Finds or builds the program for key. */
gt_status gt__program_get(gt_context *ctx, const gt_program_key *key, const gt_program **out);

/* Whether two keys name the same program. */
bool gt__program_same_key(const gt_program_key *a, const gt_program_key *b);

/* The same for a key of buffer kernels, given field by field. */
gt_status gt__program_for(gt_context *ctx, gt_kernel kernel, uint32_t tile, uint32_t group_cols,
                          uint32_t group_rows, uint32_t variant, gt_type elem, const gt_program **out);

/* The table slot of key: its program, or the free slot where it goes;
 * NULL when the table is full. */
gt_program *gt__program_slot(gt_context *ctx, const gt_program_key *key);

/* Puts a linked program into slot under key, with its uniform locations;
 * on a GL error deletes it and leaves the slot free. */
gt_status gt__program_adopt(gt_context *ctx, gt_program *slot, const gt_program_key *key, GLuint program);

/* Deletes every user kernel's programs. */
void gt__user_kernels_release_all(gt_context *ctx);

/* Deletes every program in the table. */
void gt__program_release_all(gt_context *ctx);

/* Deletes the staging buffer and a pending read's fence. */
void gt__transfer_release(gt_context *ctx);

/* Waits up to timeout_ns for fence: GT_OK once signalled, GT_ERR_TIMEOUT
 * before, or the GL status of a failed wait. */
gt_status gt__fence_wait(GLsync fence, gt_context *ctx, uint64_t timeout_ns);

/* Room for any preamble gt__program_preamble writes, every flag set. */
enum { GT_PREAMBLE_BYTES = 1024 };

/* Writes the preamble (version, defines, layout) of key into buf. Returns
 * the length, or 0 when buf is too small. Needs no GL: the build uses it to
 * validate every variant with glslangValidator. */
size_t gt__program_preamble(const gt_program_key *key, char *buf, size_t size);

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

/* One dispatch over views[0..count): binds each view's range to binding
 * slot i (the generic GL_SHADER_STORAGE_BUFFER binding is restored), sets
 * the view uniforms, and dispatches groups (cols, rows), split into
 * several dispatches with a group base when a count exceeds the device
 * limit or, when group_bytes is not 0, when a dispatch would move more
 * than gt_limits.max_dispatch_bytes (a mobile watchdog ends long ones). */
gt_status gt__dispatch(gt_context *ctx, const gt_program *prog, const gt_bound_view *views, uint32_t count,
                       uint32_t groups_cols, uint32_t groups_rows, uint64_t group_bytes);

/* The grid part of a dispatch: binds prog, sets gt_views[0..count) from
 * view_uniforms (4 words each) and dispatches, split as gt__dispatch. */
gt_status gt__dispatch_grid(gt_context *ctx, const gt_program *prog, const GLuint *view_uniforms,
                            uint32_t count, uint32_t groups_cols, uint32_t groups_rows, uint64_t group_bytes);

/* gt__dispatch with `layers` layers of groups (gl_WorkGroupID.z), at most
 * gt_limits.max_group_count[2]: the caller splits longer ones. */
gt_status gt__dispatch_layers(gt_context *ctx, const gt_program *prog, const gt_bound_view *views,
                              uint32_t count, uint32_t groups_cols, uint32_t groups_rows, uint32_t layers);

/* Bytes a group moves that reads and writes `elements` 4-byte elements
 * once each: the measure of gt_limits.max_dispatch_bytes. */
static inline uint64_t gt__moved_bytes(uint64_t elements) { return elements * 8; }

/* A section of a prepared view: same bound range, moved offset uniform. */
gt_bound_view gt__bound_section(const gt_bound_view *parent, uint32_t row, uint32_t col, uint32_t rows,
                                uint32_t cols);

/* Rows of invocations in a group that moves a tile x tile block with
 * shared_bytes of shared memory: the tile's rows when the device allows
 * tile x tile invocations, else fewer (a power of two), each handling
 * several rows. 0 when the tile does not fit the device at all. */
uint32_t gt__tiled_group_rows(const gt_context *ctx, uint32_t tile, uint32_t shared_bytes);

/* Tile rows per stripe of the tiled transposes' group order
 * (transpose_order.glsl): the source rows that span 2^stripe_bytes_log2
 * bytes of the device table. Going down a stripe's column of tiles, the
 * groups running together touch few enough pages of both matrices
 * (docs/performance.md); 1 is plain row order. */
uint32_t gt__stripe_tiles(const gt_context *ctx, uint64_t src_row_bytes, uint32_t tile);

/* true when a and b are the very same window: same buffer, offset,
 * extent, effective pitch and type. */
bool gt__same_view(gt_view a, gt_view b);

/* In-place transpose of the square view v (validated and bound) with the
 * given strategy (not AUTO), tile and group rows. */
gt_status gt__transpose_inplace(gt_context *ctx, const gt_bound_view *v, gt_strategy strategy, uint32_t tile,
                                uint32_t group_rows);

/* ---- texture-buffer texels for matmul (texels.c) -------------------- */

/* ES 3.2 names the ES 3.1 headers lack. */
#ifndef GL_TEXTURE_BUFFER
#define GL_TEXTURE_BUFFER 0x8C2A
#define GL_MAX_TEXTURE_BUFFER_SIZE 0x8C2B
#define GL_TEXTURE_BINDING_BUFFER 0x8C2C
#define GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT 0x919F
#endif

/* Sets up a TEXELS context: glTexBufferRange, the texel limits and the two
 * texture objects. false (nothing made) where the context is older than
 * ES 3.2, under min_limits (ES 3.1 has no texture buffers) or GL fails. */
bool gt__texels_init(gt_context *ctx, int major, int minor, bool min_limits);

/* Deletes the texture objects (the context is current). */
void gt__texels_release(gt_context *ctx);

/* true when the bound view v can be fetched as vec4 texels: its rows start
 * 16-byte aligned, its binding starts at a multiple of the texture-buffer
 * offset alignment and holds no more texels than a texture buffer may;
 * false on a context without texture buffers. */
bool gt__texels_fit(const gt_context *ctx, const gt_bound_view *v);

/* The GL_TEXTURE_BUFFER bindings of units 0-1 and the active unit, as the
 * caller had them. */
typedef struct gt_texel_units {
  GLint active, bound[2];
} gt_texel_units;

/* Attaches a's and b's bindings to the context's texture buffers on units
 * 0 and 1 (saving what those units held into saved). */
void gt__texels_bind(gt_context *ctx, const gt_bound_view *a, const gt_bound_view *b, gt_texel_units *saved);

/* Detaches a and b from the texture buffers and puts back what
 * gt__texels_bind saved. */
void gt__texels_unbind(gt_context *ctx, const gt_texel_units *saved);

/* ---- blocks of work ------------------------------------------------ */

/* A window some view makes of a block: its rows run along block
 * dimension row_dim, its columns along col_dim, pitch apart. */
typedef struct gt_block_window {
  uint32_t row_dim, col_dim;
  uint64_t pitch;
} gt_block_window;

/* Work over up to 3 dimensions, cut into blocks so that every window fits
 * max_elements and, when max_work is not 0, 2 x the product of the block
 * sides (a matmul's FLOPs) stays within max_work. */
typedef struct gt_block_plan {
  uint32_t dims;
  uint32_t extent[3];  /* the whole work */
  uint32_t limit[3];   /* 0, or the largest block side allowed */
  uint32_t granule[3]; /* block sides are multiples of it when they can be */
  uint32_t min[3];     /* the smallest block side allowed (0 = 1) */
  uint32_t weight[3];  /* cut for work: largest block x weight first (0 = 1) */
  gt_block_window windows[3];
  uint32_t window_count;
  uint64_t max_elements;
  uint64_t max_work;
  uint32_t block[3]; /* out: the block sides; the last block of each
                        dimension may be shorter */
} gt_block_plan;

/* Chooses p->block. GT_ERR_UNSUPPORTED when no block within the minimums
 * fits. */
gt_status gt__block_plan(gt_block_plan *p);

/* The most elements one binding may span wherever the view starts. */
uint64_t gt__max_bound_elements(const gt_limits *l);

static inline uint32_t gt__min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Ceil(a / b) for b > 0, without overflow. */
static inline uint32_t gt__div_up(uint32_t a, uint32_t b) { return a / b + (a % b != 0); }

/* Adds why to a plan's reasons (reason.c): "; " between them, cut at size. */
void gt__reason_add(char *reasons, size_t size, const char *why);

#endif
