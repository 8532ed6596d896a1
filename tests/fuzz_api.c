/* A fuzz target over the argument validation of every public entry point.
 *
 * An input is a little program: a sequence of API calls whose arguments
 * are decoded from its bytes, biased towards edge values (0, 1, tile +- 1,
 * 2^31 +- 1, 2^32 - 1, extents whose products pass 2^32 and 2^64, offsets
 * at the overflow boundary, names that are no buffer or texture, views
 * over real small buffers). The calls run on GL contexts made on the first
 * input and reused: a default one, one clamped to the ES 3.1 minimums and
 * one for images, over a few 4 KiB buffers and small textures whose
 * contents the target keeps on the host.
 *
 * Every call is checked against a model of the header's contract:
 *   - the status is a known gt_status;
 *   - it is GT_OK exactly when the model finds every argument valid, and
 *     otherwise the code of one of the checks that fail (codes a device
 *     may add, UNSUPPORTED or SHADER_BUILD, are allowed where they can);
 *   - a refused call leaves every buffer, texture and host array as it
 *     was; a call that succeeds changes only what it writes, and
 *     transposes, copies, image turns and transfers write exactly the
 *     expected bytes (views of every element type, the library's list:
 *     2- and 1-byte elements share words with neighbours that must keep
 *     their bytes);
 *   - gt_views_alias and gt_images_alias are symmetric and exact, and
 *     gt_section and gt_extent_pad / _truncate meet their definitions.
 * A violation prints the input's calls so far and aborts.
 *
 * Built with GT_LIBFUZZER defined it is a libFuzzer target
 * (tools/run-fuzz.sh); otherwise main() runs the inputs in files and
 * directories, or N pseudo-random ones (the fuzz_replay test). */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <gltile/gltile.h>

#include "plan/enumerations.h"

#include <EGL/egl.h>
#include <GLES3/gl31.h>

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The most program slots a fuzzed context asks (the arena holds them). */
enum { FUZZ_MOST_SLOTS = 256 };

enum {
  BUF_WORDS = 1024,      /* the real buffers: 4 KiB each, so valid views are small */
  NBUF = 5,              /* three of 4 KiB, one of 10 bytes, one of 0 */
  NTEX = 8,              /* textures, see fixture_open */
  HOST_WORDS = 8192,     /* host rows of gt_write / gt_read */
  MAX_OPS = 24,          /* calls per input */
  HISTORY = 8,           /* views remembered for reuse and sections */
  COMPILE_BUDGET = 2,    /* gt_kernel_create calls per input that may compile */
  KERNEL_TABLE = 16,     /* the header's "table of 16 kernels" */
  DISPATCH_CAP = 1 << 12 /* invocations of one valid user-kernel dispatch */
};

#define BIT(s) (1u << (unsigned)(s))
#define STATUS_LAST GT_ERR_BAD_CACHE

/* ------------------------------------------------------------------ */
/* Reporting.                                                          */

static char trace_lines[MAX_OPS * 10][320];
static int trace_count;
static char input_name[128]; /* how to run the input again (replay) */

static void trace(const char *fmt, ...) {
  if (trace_count >= MAX_OPS * 10) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(trace_lines[trace_count++], sizeof trace_lines[0], fmt, ap);
  va_end(ap);
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "fuzz_api: invariant violated: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nthe input's calls:\n");
  for (int i = 0; i < trace_count; i++)
    fprintf(stderr, "  %2d  %s\n", i, trace_lines[i]);
  if (input_name[0]) fprintf(stderr, "the input: %s\n", input_name);
  fflush(stderr);
  abort();
}

static const char *status_name(gt_status s) {
  static const char *const names[] = {
      "GT_OK",          "GT_ERR_INVALID_ARGUMENT", "GT_ERR_SHAPE_MISMATCH", "GT_ERR_OUT_OF_RANGE",
      "GT_ERR_ALIASED", "GT_ERR_UNSUPPORTED",      "GT_ERR_NO_CONTEXT",     "GT_ERR_SHADER_BUILD",
      "GT_ERR_GL",      "GT_ERR_OUT_OF_MEMORY",    "GT_ERR_CONTEXT_LOST",   "GT_ERR_TIMEOUT",
      "GT_ERR_BUSY",    "GT_ERR_BAD_CACHE"};
  return (unsigned)s <= STATUS_LAST ? names[s] : "(not a status)";
}

static const char *mask_names(unsigned mask) {
  static char text[400];
  size_t used = 0;
  text[0] = '\0';
  for (unsigned s = 0; s <= STATUS_LAST; s++)
    if (mask & BIT(s))
      used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", used ? " " : "",
                               status_name((gt_status)s));
  return used ? text : "GT_OK";
}

static const char *view_text(gt_view v) {
  static char ring[6][96];
  static int next;
  char *t = ring[next++ % 6];
  snprintf(t, sizeof ring[0], "{buf %u off %llu %ux%u pitch %u type %d}", v.buffer,
           (unsigned long long)v.offset, v.rows, v.cols, v.pitch, (int)v.type);
  return t;
}

static const char *image_text(gt_image im) {
  static char ring[4][96];
  static int next;
  char *t = ring[next++ % 4];
  snprintf(t, sizeof ring[0], "{tex %u level %u at %u,%u %ux%u format %d}", im.texture, im.level, im.x, im.y,
           im.width, im.height, (int)im.format);
  return t;
}

/* ------------------------------------------------------------------ */
/* Decoding: bytes to values, biased towards the edges.                */

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static uint8_t u8(reader *r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

static uint32_t u32(reader *r) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++)
    v = v << 8 | u8(r);
  return v;
}

static uint64_t u64(reader *r) {
  uint64_t hi = u32(r);
  return hi << 32 | u32(r);
}

static bool coin(reader *r, unsigned in) { return u8(r) % in == 0; }

static const uint32_t edges32[] = {
    0u,          1u,          2u,          3u,          4u,          5u,          7u,          8u,
    9u,          15u,         16u,         17u,         31u,         32u,         33u,         63u,
    64u,         65u,         127u,        128u,        129u,        255u,        256u,        1023u,
    1024u,       1025u,       4095u,       4096u,       46341u,      65535u,      65536u,      65537u,
    0x55555556u, 0x3FFFFFFFu, 0x40000000u, 0x40000001u, 0x7FFFFFFEu, 0x7FFFFFFFu, 0x80000000u, 0x80000001u,
    0xFFFFFFE0u, 0xFFFFFFF0u, 0xFFFFFFFEu, 0xFFFFFFFFu};
#define N_EDGES32 (sizeof edges32 / sizeof edges32[0])

static const uint64_t edges64[] = {0u,
                                   1u,
                                   2u,
                                   3u,
                                   7u,
                                   8u,
                                   63u,
                                   64u,
                                   255u,
                                   256u,
                                   1000u,
                                   1023u,
                                   1024u,
                                   1025u,
                                   4096u,
                                   0x3FFFFFFFu,
                                   0x40000000u,
                                   0x7FFFFFFFu,
                                   0x80000000u,
                                   0xFFFFFFFFu,
                                   0x100000000u,
                                   0x100000001u,
                                   0x3FFFFFFFFFFFFFFFu,
                                   0x4000000000000000u,
                                   0x7FFFFFFFFFFFFFFFu,
                                   0x8000000000000000u,
                                   0xFFFFFFFFFFFFFFFEu,
                                   0xFFFFFFFFFFFFFFFFu};
#define N_EDGES64 (sizeof edges64 / sizeof edges64[0])

/* Any 32-bit count: an edge value, a small one, one next to an edge, a
 * power of two, or raw bits. */
static uint32_t pick32(reader *r) {
  uint8_t mode = u8(r);
  uint32_t e = edges32[u8(r) % N_EDGES32];
  switch (mode % 8) {
  case 0:
  case 1:
  case 2: return e;
  case 3: return u8(r) % 48;
  case 4: return e + u8(r) % 9 - 4; /* wraps around 0 and 2^32 on purpose */
  case 5: return u32(r);
  case 6: {
    uint32_t p = 1u << (u8(r) % 32);
    return p + u8(r) % 3 - 1;
  }
  default: return e * (1u + u8(r) % 4);
  }
}

/* An offset or a host pitch: the same, in size_t, around 2^30, 2^32,
 * 2^62 (SIZE_MAX / 4 on 64 bits) and 2^64. */
static size_t pick_size(reader *r) {
  uint8_t mode = u8(r);
  uint64_t e = edges64[u8(r) % N_EDGES64];
  switch (mode % 6) {
  case 0:
  case 1: return (size_t)e;
  case 2: return u8(r) % 64;
  case 3: return (size_t)(e + u8(r) % 9 - 4);
  case 4: return (size_t)u64(r);
  default: return SIZE_MAX / 4 - u8(r) % 8 + 2;
  }
}

/* A small extent for views that fit the real buffers. */
static uint32_t pick_dim(reader *r) {
  static const uint32_t dims[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33};
  uint8_t b = u8(r);
  return b < 160 ? dims[b % (sizeof dims / sizeof dims[0])] : 1u + b % 40;
}

static uint32_t pick_tile(reader *r) {
  static const uint32_t odd[] = {1, 4, 7, 9, 12, 15, 17, 31, 33, 64, 128, 0xFFFFFFFFu};
  uint8_t b = u8(r);
  if (b < 200) return b % 4 == 0 ? 0u : 4u << (b % 4); /* 0, 8, 16, 32 */
  return b < 240 ? odd[b % (sizeof odd / sizeof odd[0])] : pick32(r);
}

static gt_strategy pick_strategy(reader *r) {
  uint8_t b = u8(r);
  if (b < 220) return (gt_strategy)(b % 6);
  static const uint32_t odd[] = {6, 7, 255, 0x7FFFFFFF};
  return (gt_strategy)odd[b % 4];
}

/* The model's element sizes, from the library's list of types: 0 for a
 * value that is no type. */
static uint32_t type_bytes(gt_type t) {
#define FZ_TYPE_BYTES(type, bytes, glsl, name, descr)                                                        \
  case type: return bytes;
  switch (t) { GT_EACH_TYPE(FZ_TYPE_BYTES) }
  return 0;
}

/* Any element type, 4-, 2- or 1-byte. */
static gt_type any_type(reader *r) { return (gt_type)(1 + u8(r) % GT_TYPE_COUNT); }

/* Mostly `usual`, sometimes another type or a value that is none. */
static gt_type pick_type(reader *r, gt_type usual) {
  uint8_t b = u8(r);
  if (b < 192) return usual;
  static const uint32_t none[] = {0, GT_TYPE_COUNT + 1, 255, 0x7FFFFFFF};
  return b % 3 ? any_type(r) : (gt_type)none[b % 4];
}

/* ------------------------------------------------------------------ */
/* The fixture: contexts, buffers and textures, made once.             */

typedef struct fz_buffer {
  GLuint name;
  size_t bytes;
  uint32_t words; /* whole words: what gt_read can see */
  uint32_t shadow[BUF_WORDS];
} fz_buffer;

typedef struct fz_texture {
  GLuint name;
  GLenum target;
  gt_format format; /* 0 for the array texture */
  bool immutable, readable;
  uint32_t levels;
  uint32_t width[2], height[2];
  uint32_t *shadow[2], *want[2];
} fz_texture;

typedef struct fz_kernel {
  gt_kernel_id id; /* as gt_kernel_create gave it */
  bool live;
  uint32_t tile_rows, tile_cols, view_count, uniform_count;
  gt_type types[GT_KERNEL_MAX_VIEWS];
  gt_access access[GT_KERNEL_MAX_VIEWS];
} fz_kernel;

typedef struct fz_context {
  const char *name;
  gt_context *ctx;
  gt_limits limits;
  uint32_t default_tile;
  gt_strategy auto_strategy;
  bool atomics; /* without them, calls that write parts of words may be refused */
  fz_kernel kernels[KERNEL_TABLE]; /* the live ones, in no order */
  gt_kernel_id persistent[KERNEL_TABLE];
  uint32_t persistent_count;
  gt_kernel_id destroyed; /* the last kernel destroyed: a stale id */
} fz_context;

/* The live kernel with this id, or NULL: ids are opaque to the model, so
 * a stale or made-up id that the library took for a kernel shows. */
static fz_kernel *kernel_of(fz_context *c, gt_kernel_id id) {
  for (int i = 0; c && id != 0 && i < KERNEL_TABLE; i++)
    if (c->kernels[i].live && c->kernels[i].id == id) return &c->kernels[i];
  return NULL;
}

/* A model entry for a kernel gt_kernel_create just gave `id`: dies where
 * the id is 0 or names a live kernel already. */
static fz_kernel *new_kernel(fz_context *c, gt_kernel_id id) {
  if (id == 0 || kernel_of(c, id)) die("%s: kernel id %u from gt_kernel_create", c->name, id);
  for (int i = 0; i < KERNEL_TABLE; i++)
    if (!c->kernels[i].live) {
      fz_kernel *k = &c->kernels[i];
      memset(k, 0, sizeof *k);
      k->id = id;
      k->live = true;
      return k;
    }
  die("%s: gt_kernel_create gave a 17th kernel", c->name);
  return NULL;
}

static struct fixture {
  bool tried, ready;
  gt_egl egl;
  fz_context main, min, img;
  fz_buffer buf[NBUF];
  GLuint unbound_buffer, deleted_buffer;
  fz_texture tex[NTEX];
  uint32_t tex_names_staging; /* bit t: texture t's name is a staging buffer's */
  GLuint unbound_texture, fbo;
  unsigned char *arena; /* caller memory for gt_context_init */
  size_t arena_size;
  uint32_t host_src[HOST_WORDS + 1];
  uint32_t host_dst[HOST_WORDS + 1];
  uint32_t host_old[HOST_WORDS + 1];
} fx;

/* Per input. */
static struct input_state {
  gt_view history[HISTORY];
  unsigned history_count;
  int compile_budget;
  bool no_context; /* the call under test runs with no current context */
  struct {
    fz_context *c;
    gt_kernel_id id;
  } created[MAX_OPS];
  unsigned created_count;
} in;

/* Counts, for the replay summary. */
enum op_kind {
  OP_PURE,
  OP_SECTION,
  OP_VIEWS_ALIAS,
  OP_IMAGES_ALIAS,
  OP_TRANSPOSE,
  OP_COPY,
  OP_MATMUL,
  OP_WRITE,
  OP_READ,
  OP_IMAGE,
  OP_KERNEL_CREATE,
  OP_KERNEL_DISPATCH,
  OP_KERNEL_DESTROY,
  OP_CONTEXT_INIT,
  OP_NO_CONTEXT,
  OP_QUERIES,
  OP_PROGRAM_CACHE,
  OP_MATMUL_BATCHED,
  OP_COUNT
};
static unsigned long op_ok[OP_COUNT], op_refused[OP_COUNT];
static unsigned long narrow_ok; /* calls done on views of 2- or 1-byte elements */

static void count(enum op_kind k, gt_status s) {
  if (s == GT_OK)
    op_ok[k]++;
  else
    op_refused[k]++;
}

static int log_verbose = -1;

/* Every context's logger: the level must be one of GT_LOG_*, the message
 * a string. Printed with GT_FUZZ_LOG=1. */
static void fz_log(int level, const char *msg, void *user) {
  (void)user;
  if (level < GT_LOG_ERROR || level > GT_LOG_DEBUG) die("logger called with level %d", level);
  if (msg == NULL) die("logger called with a NULL message");
  size_t n = strlen(msg);
  if (log_verbose < 0) log_verbose = getenv("GT_FUZZ_LOG") != NULL;
  if (log_verbose) fprintf(stderr, "gltile[%d]: %.*s\n", level, (int)n, msg);
}

static uint32_t noise(uint32_t i, uint32_t seed) {
  uint32_t x = i * 0x9E3779B1u + seed * 0x85EBCA77u + 1u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  x *= 0x297A2D39u;
  x ^= x >> 15;
  return x;
}

static int buffer_index(GLuint name) {
  for (int i = 0; i < NBUF; i++)
    if (fx.buf[i].name == name) return i;
  return -1;
}

static int texture_index(GLuint name) {
  for (int i = 0; i < NTEX; i++)
    if (name != 0 && fx.tex[i].name == name) return i;
  return -1;
}

static GLenum internal_format(gt_format f) {
  switch (f) {
  case GT_FORMAT_R32F: return GL_R32F;
  case GT_FORMAT_R32I: return GL_R32I;
  case GT_FORMAT_R32UI: return GL_R32UI;
  case GT_FORMAT_RGBA8: return GL_RGBA8;
  }
  return 0;
}

/* A texel word that survives every format exactly: finite floats for
 * r32f (imageLoad may quiet a NaN), any bits otherwise. */
static uint32_t texel_word(gt_format f, uint32_t i, uint32_t seed) {
  uint32_t w = noise(i, seed);
  if (f == GT_FORMAT_R32F) {
    float v = (float)(int32_t)(w % 2000001u - 1000000) / 64.0f;
    memcpy(&w, &v, 4);
  }
  return w;
}

/* Reads one level back as a word per texel (the red channel, or the four
 * bytes of rgba8). */
static bool read_level(const fz_texture *t, uint32_t level, uint32_t *out) {
  static uint32_t four[4 * 32 * 32];
  uint32_t w = t->width[level], h = t->height[level];
  glBindFramebuffer(GL_FRAMEBUFFER, fx.fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->name, (GLint)level);
  bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (ok) {
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    if (t->format == GT_FORMAT_RGBA8) {
      glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    } else {
      GLenum format = t->format == GT_FORMAT_R32F ? GL_RGBA : GL_RGBA_INTEGER;
      GLenum type = t->format == GT_FORMAT_R32F   ? GL_FLOAT
                    : t->format == GT_FORMAT_R32I ? GL_INT
                                                  : GL_UNSIGNED_INT;
      glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, format, type, four);
      for (uint32_t i = 0; i < w * h; i++)
        out[i] = four[4 * i];
    }
  }
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return ok && glGetError() == GL_NO_ERROR;
}

static void make_texture(fz_texture *t, GLenum target, gt_format format, bool immutable, uint32_t levels,
                         uint32_t w, uint32_t h, uint32_t seed) {
  static uint32_t data[32 * 32];
  memset(t, 0, sizeof *t);
  t->target = target;
  t->format = format;
  t->immutable = immutable;
  t->levels = levels;
  glGenTextures(1, &t->name);
  glBindTexture(target, t->name);
  if (target != GL_TEXTURE_2D) {
    glTexStorage3D(target, 1, GL_R32UI, (GLsizei)w, (GLsizei)h, 2);
    glBindTexture(target, 0);
    return;
  }
  GLenum ifmt = internal_format(format);
  GLenum upload = format == GT_FORMAT_RGBA8 ? GL_RGBA : format == GT_FORMAT_R32F ? GL_RED : GL_RED_INTEGER;
  GLenum type = format == GT_FORMAT_RGBA8  ? GL_UNSIGNED_BYTE
                : format == GT_FORMAT_R32F ? GL_FLOAT
                : format == GT_FORMAT_R32I ? GL_INT
                                           : GL_UNSIGNED_INT;
  if (immutable) glTexStorage2D(GL_TEXTURE_2D, (GLsizei)levels, ifmt, (GLsizei)w, (GLsizei)h);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (uint32_t l = 0; l < levels; l++) {
    t->width[l] = w >> l;
    t->height[l] = h >> l;
    for (uint32_t i = 0; i < t->width[l] * t->height[l]; i++)
      data[i] = texel_word(format, i, seed + l);
    if (immutable)
      glTexSubImage2D(GL_TEXTURE_2D, (GLint)l, 0, 0, (GLsizei)t->width[l], (GLsizei)t->height[l], upload,
                      type, data);
    else
      glTexImage2D(GL_TEXTURE_2D, (GLint)l, (GLint)ifmt, (GLsizei)t->width[l], (GLsizei)t->height[l], 0,
                   upload, type, data);
    t->shadow[l] = malloc((size_t)t->width[l] * t->height[l] * 4);
    t->want[l] = malloc((size_t)t->width[l] * t->height[l] * 4);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  t->readable = true;
  for (uint32_t l = 0; l < levels && t->readable; l++)
    t->readable = t->shadow[l] && t->want[l] && read_level(t, l, t->shadow[l]);
}

/* ---- user kernel bodies ------------------------------------------ */

/* Names that must be accepted and compile; at least 17 distinct. */
static const char *const safe_names[] = {"a",
                                         "b",
                                         "c",
                                         "d",
                                         "src",
                                         "dst",
                                         "m",
                                         "w",
                                         "x1",
                                         "y_2",
                                         "Mat",
                                         "val",
                                         "k",
                                         "q",
                                         "lhs",
                                         "rhs",
                                         "scale",
                                         "offs",
                                         "abcdefghijklmnopqrstuvwxyz_1234"};
#define N_SAFE (sizeof safe_names / sizeof safe_names[0])

/* Names with their fate: 1 refused (INVALID_ARGUMENT), 0 refused only
 * where the model's rules say (a helper of a view in the same desc). */
static const struct {
  const char *name;
  int fate;
} odd_names[] = {{NULL, 1},
                 {"", 1},
                 {"gt_x", 1},
                 {"gl_Foo", 1},
                 {"GT_ELEM", 1},
                 {"GL_ES", 1},
                 {"9lives", 1},
                 {"has space", 1},
                 {"dash-ed", 1},
                 {"abcdefghijklmnopqrstuvwxyz_12345", 1},
                 {"\xc3\xa9t\xc3\xa9", 1},
                 {"a__b", 1},
                 {"in", 1},
                 {"main", 1},
                 {"float", 1},
                 {"min", 1},
                 {"buffer", 1},
                 {"layout", 1},
                 {"sampler2D", 1},
                 {"guarded_read", 1},
                 {"a_extent", 0},
                 {"a_read", 0},
                 {"a_index", 0},
                 {"src_write", 0}};
#define N_ODD (sizeof odd_names / sizeof odd_names[0])

/* Bodies that reach, or try to reach, memory they were not given, or
 * hide a word from the library's check: refused before compiling
 * (INVALID_ARGUMENT), the last one by the compiler as well. No view or
 * uniform of theirs needs to exist. */
static const char *const hostile_bodies[] = {
    "layout(std430, binding = 2) buffer evil { uint w[]; };\nvoid main() { w[gt_global().y] = 7u; }\n",
    "layout(std430, binding = 0) buffer evil { uint w[]; };\nvoid main() { w[0] = 0xDEADBEEFu; }\n",
    "buffer evil { uint w[]; };\nvoid main() { w[0] = 1u; }\n",
    "uniform evil { vec4 u; };\nvoid main() {}\n",
    "uniform sampler2D s;\nvoid main() {}\n",
    "layout(rgba8, binding = 0) uniform writeonly image2D im;\nvoid main() { imageStore(im, ivec2(0), "
    "vec4(1.0)); }\n",
    "layout(binding = 0, offset = 0) uniform atomic_uint c;\nvoid main() { atomicCounterIncrement(c); }\n",
    "#define LEAVE return\nshared float t[4];\nvoid main() { if (!gt_in_domain(gt_global())) LEAVE; "
    "barrier(); }\n",
    "#define CAT(a, b) a##b\nCAT(buf, fer) evil { uint w[]; };\nvoid main() { w[0] = 1u; }\n",
    "void main() {\n#ifdef GT_ALIASED\n  gt_view_0[0] = 99.0;\n#endif\n}\n",
    "lay\\\nout(std430, binding = 3) buffer evil { uint w[]; };\nvoid main() { w[0] = 1u; }\n",
    "/* *\\\n/ layout(binding = 3) buffer evil { uint w[]; }; /* */\nvoid main() {}\n",
    "// \rlayout(std430, binding = 1) buffer evil { uint w[]; };\nvoid main() { w[0] = 1u; }\n",
    "void main() { gt_view_0[0] = 1.0; }\n",
    "void main() { guarded_write(gt_view_0, 1u, uvec2(0u), 1.0); }\n",
    "void main() { uvec4 v = gt_views[0]; }\n",
    "void main() { if (gt_global().x > 0u) return; barrier(); }\n",
    "void main() { float v = 1buffer; }\n",
    "/* open\nvoid main() {}\n",
    "float f0(float v) { return v; }\nfloat f1(float v) { return f0(v) + f0(v); }\n"
    "float f2(float v) { return f1(v) + f1(v); }\nfloat f3(float v) { return f2(v) + f2(v); }\n"
    "float f4(float v) { return f3(v) + f3(v); }\nfloat f5(float v) { return f4(v) + f4(v); }\n"
    "float f6(float v) { return f5(v) + f5(v); }\nfloat f7(float v) { return f6(v) + f6(v); }\n"
    "float f8(float v) { return f7(v) + f7(v); }\nfloat f9(float v) { return f8(v) + f8(v); }\n"
    "float fa(float v) { return f9(v) + f9(v); }\nfloat fb(float v) { return fa(v) + fa(v); }\n"
    "float fc(float v) { return fb(v) + fb(v); }\nfloat fd(float v) { return fc(v) + fc(v); }\n"
    "void main() { float v = fd(1.0); }\n",
    "buf/**/fer evil { uint w[]; };\nvoid main() {}\n"};
#define N_HOSTILE (sizeof hostile_bodies / sizeof hostile_bodies[0])

static const char *glsl_type(gt_type t) { return t == GT_F32 ? "float" : t == GT_I32 ? "int" : "uint"; }

/* A body over every view and uniform of d: reads what it may read, sums
 * into a float and writes every writable view through NAME_write, so it
 * writes only inside the views. flavour 1 adds a barrier first, 2 a
 * return before a barrier (refused), 3 a barrier then a return. */
static void template_body(const gt_kernel_desc *d, int flavour, char *out, size_t size) {
  size_t used = 0;
#define PUT(...) used += (size_t)snprintf(out + used, used < size ? size - used : 0, __VA_ARGS__)
  PUT("void main() {\n  uvec2 at = gt_global();\n  float sum = 0.0;\n");
  if (flavour == 1) PUT("  barrier();\n");
  if (flavour == 2) PUT("  if (!gt_in_domain(at)) return;\n  barrier();\n");
  uint32_t nv = d->view_count < GT_KERNEL_MAX_VIEWS ? d->view_count : GT_KERNEL_MAX_VIEWS;
  uint32_t nu = d->uniform_count < GT_KERNEL_MAX_UNIFORMS ? d->uniform_count : GT_KERNEL_MAX_UNIFORMS;
  for (uint32_t i = 0; i < nv; i++)
    if (d->views[i].name && d->views[i].access != GT_ACCESS_WRITE)
      PUT("  sum += float(%s_read(at));\n", d->views[i].name);
  for (uint32_t i = 0; i < nu; i++)
    if (d->uniforms[i].name)
      PUT("  sum += float(%s%s);\n", d->uniforms[i].name, d->uniforms[i].type == GT_UNIFORM_VEC4 ? ".x" : "");
  for (uint32_t i = 0; i < nv; i++)
    if (d->views[i].name && d->views[i].access != GT_ACCESS_READ)
      PUT("  %s_write(at, %s(sum));\n", d->views[i].name, glsl_type(d->views[i].type));
  if (flavour == 3) PUT("  barrier();\n  if (!gt_in_domain(at)) return;\n");
  PUT("}\n");
#undef PUT
  if (used >= size) out[0] = '\0';
}

static char body_text[4096];

static gt_status create_persistent(fz_context *c, const gt_kernel_desc *d) {
  template_body(d, 0, body_text, sizeof body_text);
  gt_kernel_desc desc = *d;
  desc.body = body_text;
  gt_kernel_id id = 0;
  gt_status s = gt_kernel_create(c->ctx, &desc, &id);
  if (s != GT_OK) return s;
  fz_kernel *k = new_kernel(c, id);
  k->tile_rows = d->tile_rows ? d->tile_rows : 16;
  k->tile_cols = d->tile_cols ? d->tile_cols : 16;
  k->view_count = d->view_count;
  k->uniform_count = d->uniform_count;
  for (uint32_t i = 0; i < d->view_count; i++) {
    k->types[i] = d->views[i].type;
    k->access[i] = d->views[i].access;
  }
  c->persistent[c->persistent_count++] = id;
  return GT_OK;
}

/* A few kernels each context keeps, for gt_kernel_dispatch. */
static bool make_kernels(fz_context *c, bool fill_table) {
  gt_kernel_desc d[4];
  memset(d, 0, sizeof d);
  d[0].tile_rows = d[0].tile_cols = 8;
  d[0].view_count = 2;
  d[0].views[0] = (gt_kernel_view){"src", GT_U32, GT_ACCESS_READ};
  d[0].views[1] = (gt_kernel_view){"dst", GT_U32, GT_ACCESS_WRITE};
  d[1].tile_rows = 4;
  d[1].tile_cols = 16;
  d[1].view_count = 1;
  d[1].views[0] = (gt_kernel_view){"m", GT_F32, GT_ACCESS_READ_WRITE};
  d[1].uniform_count = 1;
  d[1].uniforms[0] = (gt_kernel_uniform){"scale", GT_UNIFORM_FLOAT};
  d[2].tile_rows = d[2].tile_cols = 1;
  d[3].tile_rows = 16;
  d[3].tile_cols = 8;
  d[3].view_count = 4;
  d[3].views[0] = (gt_kernel_view){"a", GT_I32, GT_ACCESS_READ};
  d[3].views[1] = (gt_kernel_view){"b", GT_U32, GT_ACCESS_READ};
  d[3].views[2] = (gt_kernel_view){"c", GT_F32, GT_ACCESS_WRITE};
  d[3].views[3] = (gt_kernel_view){"d", GT_I32, GT_ACCESS_READ_WRITE};
  d[3].uniform_count = 3;
  d[3].uniforms[0] = (gt_kernel_uniform){"k", GT_UNIFORM_INT};
  d[3].uniforms[1] = (gt_kernel_uniform){"val", GT_UNIFORM_VEC4};
  d[3].uniforms[2] = (gt_kernel_uniform){"q", GT_UNIFORM_UINT};
  for (int i = 0; i < 4; i++) {
    gt_status s = create_persistent(c, &d[i]);
    if (s != GT_OK) {
      fprintf(stderr, "fuzz_api: %s: a fixture kernel: %s\n", c->name, gt_status_string(s));
      return false;
    }
  }
  /* The table full, so that creating one more is refused before compiling. */
  while (fill_table && c->persistent_count < KERNEL_TABLE) {
    gt_status s = create_persistent(c, &d[2]);
    if (s != GT_OK) {
      fprintf(stderr, "fuzz_api: %s: a filler kernel: %s\n", c->name, gt_status_string(s));
      return false;
    }
  }
  return true;
}

static bool open_context(fz_context *c, const char *name, bool min_limits) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.logger.log = fz_log;
  d.min_limits = min_limits;
  memset(c, 0, sizeof *c);
  c->name = name;
  gt_status s = gt_context_init(NULL, 0, &d, &c->ctx);
  if (s != GT_OK) {
    fprintf(stderr, "fuzz_api: gt_context_init (%s): %s\n", name, gt_status_string(s));
    return false;
  }
  c->limits = gt_context_limits(c->ctx);
  c->default_tile = gt_context_default_tile(c->ctx);
  c->auto_strategy = gt_context_auto_strategy(c->ctx);
  c->atomics = gt_context_has_atomics(c->ctx);
  return true;
}

#ifndef GT_LIBFUZZER
static void fixture_close(void) {
  if (!fx.ready) return;
  gt_context_release(fx.main.ctx);
  gt_context_release(fx.min.ctx);
  gt_context_release(fx.img.ctx);
  for (int i = 0; i < NBUF; i++)
    glDeleteBuffers(1, &fx.buf[i].name);
  for (int i = 0; i < NTEX; i++) {
    glDeleteTextures(1, &fx.tex[i].name);
    for (int l = 0; l < 2; l++) {
      free(fx.tex[i].shadow[l]);
      free(fx.tex[i].want[l]);
    }
  }
  glDeleteBuffers(1, &fx.unbound_buffer);
  glDeleteTextures(1, &fx.unbound_texture);
  glDeleteFramebuffers(1, &fx.fbo);
  free(fx.arena);
  gt_egl_close(&fx.egl);
  fx.ready = false;
}
#endif

/* Names the target hands out that must be no buffer / no texture. */
static const GLuint stray_names[] = {0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 100000u};

static bool fixture_open(void) {
  if (fx.tried) return fx.ready;
  fx.tried = true;
  if (gt_egl_open(&fx.egl) != GT_OK) return false;
  if (!open_context(&fx.main, "main", false) || !open_context(&fx.min, "min_limits", true) ||
      !open_context(&fx.img, "images", false))
    return false;
  static const size_t sizes[NBUF] = {4096, 4096, 4096, 10, 0};
  static uint32_t data[BUF_WORDS];
  for (int b = 0; b < NBUF; b++) {
    fz_buffer *fb = &fx.buf[b];
    fb->bytes = sizes[b];
    fb->words = (uint32_t)(sizes[b] / 4);
    for (uint32_t i = 0; i < BUF_WORDS; i++)
      data[i] = fb->shadow[i] = noise(i, 0xB0F + (uint32_t)b);
    glGenBuffers(1, &fb->name);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, fb->name);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)fb->bytes, fb->bytes ? data : NULL, GL_DYNAMIC_COPY);
  }
  /* Each context's staging buffer is made now, by a read, so the names
   * the library owns are known before any input runs (a texture name that
   * is one of them is never handed out as a buffer name), and before the
   * deleted name is freed, which a driver may hand out again. */
  fz_context *contexts[3] = {&fx.main, &fx.min, &fx.img};
  for (int i = 0; i < 3; i++) {
    uint32_t word;
    gt_view first = {fx.buf[0].name, 0, 1, 1, 0, GT_U32};
    if (gt_read(contexts[i]->ctx, first, &word, 0) != GT_OK) return false;
  }
  glGenBuffers(1, &fx.unbound_buffer);
  glGenBuffers(1, &fx.deleted_buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, fx.deleted_buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glDeleteBuffers(1, &fx.deleted_buffer);
  glGenFramebuffers(1, &fx.fbo);
  make_texture(&fx.tex[0], GL_TEXTURE_2D, GT_FORMAT_R32UI, true, 1, 16, 16, 1);
  make_texture(&fx.tex[1], GL_TEXTURE_2D, GT_FORMAT_R32F, true, 2, 12, 20, 2);
  make_texture(&fx.tex[2], GL_TEXTURE_2D, GT_FORMAT_RGBA8, true, 1, 8, 8, 3);
  make_texture(&fx.tex[3], GL_TEXTURE_2D, GT_FORMAT_R32I, true, 1, 16, 16, 4);
  make_texture(&fx.tex[4], GL_TEXTURE_2D, GT_FORMAT_R32UI, false, 1, 8, 8, 5); /* mutable */
  make_texture(&fx.tex[5], GL_TEXTURE_2D_ARRAY, GT_FORMAT_R32UI, true, 1, 4, 4, 6);
  make_texture(&fx.tex[6], GL_TEXTURE_2D, GT_FORMAT_R32UI, true, 1, 24, 8, 7);
  make_texture(&fx.tex[7], GL_TEXTURE_2D, GT_FORMAT_RGBA8, true, 1, 12, 6, 8);
  glGenTextures(1, &fx.unbound_texture);
  if (glGetError() != GL_NO_ERROR) {
    fprintf(stderr, "fuzz_api: GL error while making the fixture\n");
    return false;
  }
  /* The model takes every name it does not own for no object at all. */
  for (size_t i = 0; i < sizeof stray_names / sizeof stray_names[0]; i++)
    if (glIsBuffer(stray_names[i]) || glIsTexture(stray_names[i])) return false;
  if (glIsBuffer(fx.unbound_buffer) || glIsBuffer(fx.deleted_buffer) || glIsTexture(fx.unbound_texture))
    return false;
  /* A buffer's name may also name a texture: a TEXELS context's texture
   * buffers. Those are no GL_TEXTURE_2D, so an image of one is refused as
   * an image of no texture is, which the model expects of buffer names. */
  for (int t = 0; t < NTEX; t++)
    if (buffer_index(fx.tex[t].name) < 0 && glIsBuffer(fx.tex[t].name)) fx.tex_names_staging |= 1u << t;
  gt_context_desc largest;
  memset(&largest, 0, sizeof largest);
  largest.program_slots = FUZZ_MOST_SLOTS;
  fx.arena_size = gt_context_size(&largest) + 32;
  fx.arena = malloc(fx.arena_size);
  if (fx.arena == NULL) return false;
  if (!make_kernels(&fx.main, false) || !make_kernels(&fx.min, true)) return false;
  fx.ready = true;
#ifndef GT_LIBFUZZER
  /* libFuzzer's leak check at exit needs Mesa still loaded: with the
   * driver unloaded its allocations have no module to be matched by. */
  atexit(fixture_close);
#endif
  return true;
}

/* ------------------------------------------------------------------ */
/* Calls with or without a current context.                            */

static void begin_call(void) {
  if (in.no_context)
    eglMakeCurrent((EGLDisplay)fx.egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

static void end_call(void) {
  if (in.no_context && !eglMakeCurrent((EGLDisplay)fx.egl.display, (EGLSurface)fx.egl.surface,
                                       (EGLSurface)fx.egl.surface, (EGLContext)fx.egl.context))
    die("could not make the context current again");
}

/* ------------------------------------------------------------------ */
/* The model.                                                          */

typedef struct expect {
  unsigned must; /* codes of checks that fail: the call must fail with one */
  unsigned may;  /* codes the device or compiler may add */
} expect;

static void must(expect *e, gt_status s) { e->must |= BIT(s); }
static void may(expect *e, gt_status s) { e->may |= BIT(s); }

/* The plan functions answer, with no GL, what their operation checks
 * before it looks at the buffers: a refusal there is the operation's own
 * status (unless the context check, which comes first in the operation,
 * fails), and leaves the plan unwritten; a plan names what runs. */
static const unsigned char plan_poison = 0xA5;

static void check_plan(const char *what, gt_status planned, const gt_plan *plan, gt_status s) {
  const unsigned char *bytes = (const unsigned char *)plan;
  if (planned != GT_OK) {
    for (size_t i = 0; i < sizeof *plan; i++)
      if (bytes[i] != plan_poison) die("%s refused (%s) but wrote its plan", what, gt_status_string(planned));
    if (s != planned && s != GT_ERR_CONTEXT_LOST && s != GT_ERR_NO_CONTEXT)
      die("%s refused with %s; the operation returned %s", what, gt_status_string(planned),
          gt_status_string(s));
    return;
  }
  if (plan->strategy == GT_STRATEGY_AUTO || plan->kernels[0] == '\0' || plan->reason[0] == '\0' ||
      memchr(plan->kernels, '\0', sizeof plan->kernels) == NULL ||
      memchr(plan->reason, '\0', sizeof plan->reason) == NULL)
    die("%s: a plan without its strategy, kernels or reason", what);
}

static void check_status(const char *what, const gt_context *g, gt_status s, expect e) {
  if (in.no_context && g != NULL) {
    /* The context check comes first, but an argument the model refuses
     * may be refused before it (the program-cache calls check their result
     * pointer first, to clear it). */
    e.may = e.must & BIT(GT_ERR_INVALID_ARGUMENT);
    e.must = BIT(GT_ERR_NO_CONTEXT);
  }
  if ((unsigned)s > STATUS_LAST) die("%s returned %d, which is no gt_status", what, (int)s);
  if (s == GT_OK) {
    if (e.must) die("%s returned GT_OK; the model expected one of: %s", what, mask_names(e.must));
    return;
  }
  if (!((e.must | e.may) & BIT(s)))
    die("%s returned %s; the model expected: %s", what, status_name(s), mask_names(e.must | e.may));
}

static uint32_t pitch_of(gt_view v) { return v.pitch ? v.pitch : v.cols; }
static bool known_type(gt_type t) { return type_bytes(t) != 0; }
/* Bytes per element, unknown types as 4 (as gt_views_alias takes them). */
static uint64_t size_of(gt_type t) { return known_type(t) ? type_bytes(t) : 4; }
/* The most elements before the last byte a size_t reaches, whole words. */
static uint64_t element_limit(gt_type t) { return (uint64_t)(SIZE_MAX / 4) * 4 / size_of(t); }
/* Kernels reach 2- and 1-byte elements through whole 32-bit words. */
static uint64_t word_end(uint64_t byte_end) { return (byte_end + 3) / 4 * 4; }
static bool known_format(gt_format f) { return internal_format(f) != 0; }

/* Elements from the first to one past the last; at most (2^32 - 1)^2. */
static uint64_t span_of(gt_view v) {
  if (v.rows == 0 || v.cols == 0) return 0;
  return (uint64_t)(v.rows - 1) * pitch_of(v) + v.cols;
}

static bool same_view(gt_view a, gt_view b) {
  return a.buffer == b.buffer && a.offset == b.offset && a.rows == b.rows && a.cols == b.cols &&
         pitch_of(a) == pitch_of(b) && a.type == b.type;
}

/* The header's view fields: buffer, extent, type, pitch >= cols, and the
 * byte past the last element addressable in a size_t. */
static bool view_fields(gt_view v, expect *e) {
  bool ok = true;
  if (v.buffer == 0 || v.rows == 0 || v.cols == 0 || !known_type(v.type) || (v.pitch && v.pitch < v.cols)) {
    must(e, GT_ERR_INVALID_ARGUMENT);
    ok = false;
  }
  uint64_t limit = element_limit(v.type), span = span_of(v);
  if (v.rows && v.cols && ((uint64_t)v.offset > limit || span > limit - v.offset)) {
    must(e, GT_ERR_OUT_OF_RANGE);
    ok = false;
  }
  return ok;
}

/* The view against its buffer (fields already valid). */
static bool view_buffer(const fz_context *c, gt_view v, expect *e) {
  int b = buffer_index(v.buffer);
  if (b < 0) {
    must(e, GT_ERR_INVALID_ARGUMENT);
    return false;
  }
  uint64_t size = size_of(v.type), end = word_end(((uint64_t)v.offset + span_of(v)) * size);
  if (end > fx.buf[b].bytes) {
    must(e, GT_ERR_OUT_OF_RANGE);
    return false;
  }
  uint64_t align = c->limits.storage_offset_alignment ? c->limits.storage_offset_alignment : 4;
  uint64_t bind = (uint64_t)v.offset * size / align * align;
  if (end - bind > c->limits.max_storage_block_bytes) {
    must(e, GT_ERR_UNSUPPORTED);
    return false;
  }
  return true;
}

/* Is element x in the view at o with pitch p? Rows may overlap (p < cols):
 * the row starting last at or before x decides. */
static bool in_rows(uint64_t x, uint64_t o, uint64_t p, uint64_t rows, uint64_t cols) {
  if (x < o) return false;
  uint64_t d = x - o, r = d / p;
  if (r >= rows) r = rows - 1;
  return d - r * p < cols;
}

/* Elements past 2^64 have no address: views that reach there (refused by
 * every call that takes views) have no answer to check. */
static bool addressable(gt_view v) { return (uint64_t)v.offset <= UINT64_MAX - span_of(v); }

/* A view's rows in units of the smaller element of two views compared:
 * views of different types share an element where they share a byte. */
typedef struct unit_view {
  uint64_t offset, pitch, cols, rows, span;
} unit_view;

/* false where a field passes 2^64. */
static bool in_units(gt_view v, uint64_t unit, unit_view *out) {
  uint64_t scale = size_of(v.type) / unit, span = span_of(v), pitch = pitch_of(v);
  if (!addressable(v) || (uint64_t)v.offset + span > UINT64_MAX / scale) return false;
  *out = (unit_view){v.offset * scale, pitch * scale, (uint64_t)v.cols * scale, v.rows, span * scale};
  return true;
}

/* Units a view covers, saturating at 2^64 - 1. */
static uint64_t cells(const unit_view *v) {
  return v->rows > UINT64_MAX / v->cols ? UINT64_MAX : v->rows * v->cols;
}

/* Do a and b share an element? 1 yes, 0 no, -1 too large to enumerate.
 * Only the difference of the offsets matters, so both move down by the
 * smaller one and no sum passes 2^64. */
static int alias_truth(gt_view va, gt_view vb) {
  if (va.buffer != vb.buffer || !va.rows || !va.cols || !vb.rows || !vb.cols) return 0;
  uint64_t unit = size_of(va.type) < size_of(vb.type) ? size_of(va.type) : size_of(vb.type);
  unit_view a, b;
  if (!in_units(va, unit, &a) || !in_units(vb, unit, &b)) return -1;
  uint64_t base = a.offset < b.offset ? a.offset : b.offset;
  a.offset -= base;
  b.offset -= base;
  if (a.offset + a.span <= b.offset || b.offset + b.span <= a.offset) return 0;
  if (cells(&a) > cells(&b)) {
    unit_view t = a;
    a = b;
    b = t;
  }
  if (cells(&a) > (1u << 18)) return -1;
  for (uint64_t r = 0; r < a.rows; r++)
    for (uint64_t c = 0; c < a.cols; c++)
      if (in_rows(a.offset + r * a.pitch + c, b.offset, b.pitch, b.rows, b.cols)) return 1;
  return 0;
}

/* gt_views_alias walks the rows of the view with fewer rows that lie in
 * the other's span: tens of seconds for two views of billions of rows, and
 * every call that takes two views asks it before it looks at their
 * buffers. Such pairs are left out (see the README) unless
 * GT_FUZZ_SLOW_ALIAS is set in the environment. */
enum { ALIAS_ROWS = 1 << 20 };
static unsigned long slow_skipped;

static bool slow_alias(gt_view a, gt_view b) {
  static int allow = -1;
  if (allow < 0) allow = getenv("GT_FUZZ_SLOW_ALIAS") != NULL;
  return !allow && a.buffer == b.buffer && a.rows > ALIAS_ROWS && b.rows > ALIAS_ROWS;
}

/* gt_views_alias against the truth, both ways round. */
static bool checked_alias(gt_view a, gt_view b) {
  bool ab = gt_views_alias(a, b), ba = gt_views_alias(b, a);
  if (ab != ba && addressable(a) && addressable(b))
    die("gt_views_alias is not symmetric: %d for %s, %s; %d the other way", ab, view_text(a), view_text(b),
        ba);
  int truth = alias_truth(a, b);
  if (truth >= 0 && ab != (truth == 1))
    die("gt_views_alias(%s, %s) = %d; they %s an element", view_text(a), view_text(b), ab,
        truth ? "share" : "do not share");
  return ab;
}

/* A written view w and another view o: ALIASED when they share elements. */
static void model_alias(gt_view w, gt_view o, expect *e) {
  int truth = alias_truth(w, o);
  if (truth == 1) must(e, GT_ERR_ALIASED);
  if (truth < 0) may(e, GT_ERR_ALIASED);
  checked_alias(w, o);
}

static bool valid_tile(uint32_t t) { return t == 0 || t == 8 || t == 16 || t == 32; }

/* A call that writes 2- or 1-byte elements (part of a word) may need
 * shader atomics: a context without them may refuse it. */
static void model_atomics(const fz_context *c, gt_type written, expect *e) {
  if (known_type(written) && size_of(written) < 4 && !c->atomics) may(e, GT_ERR_UNSUPPORTED);
}

/* ------------------------------------------------------------------ */
/* Buffer and texture checks after each call.                          */

/* What the buffers hold after a call and what the model wants them to
 * hold, byte by byte: 2- and 1-byte elements share words with their
 * neighbours, which must not change. */
static uint32_t now_words[NBUF][BUF_WORDS], want_words[NBUF][BUF_WORDS];
static uint8_t loose[NBUF][BUF_WORDS * 4]; /* bytes the call may set to anything */

static unsigned char *bytes_of(uint32_t *words) { return (unsigned char *)words; }

static void plan_reset(void) {
  for (int b = 0; b < NBUF; b++)
    memcpy(want_words[b], fx.buf[b].shadow, sizeof want_words[b]);
  memset(loose, 0, sizeof loose);
}

static size_t element(gt_view v, uint32_t r, uint32_t c) { return v.offset + (size_t)r * pitch_of(v) + c; }

/* dst's element (r, c) becomes src's element (r, c), or its (c, r)
 * when `transposed`. */
static void plan_move(gt_view src, gt_view dst, bool transposed) {
  int bs = buffer_index(src.buffer), bd = buffer_index(dst.buffer);
  size_t size = (size_t)size_of(src.type);
  for (uint32_t r = 0; r < src.rows; r++)
    for (uint32_t c = 0; c < src.cols; c++)
      memcpy(bytes_of(want_words[bd]) + element(dst, transposed ? c : r, transposed ? r : c) * size,
             bytes_of(fx.buf[bs].shadow) + element(src, r, c) * size, size);
}

static void plan_transpose(gt_view src, gt_view dst) { plan_move(src, dst, true); }
static void plan_copy(gt_view src, gt_view dst) { plan_move(src, dst, false); }

static void plan_loose(gt_view v) {
  int b = buffer_index(v.buffer);
  size_t size = (size_t)size_of(v.type);
  for (uint32_t r = 0; r < v.rows; r++)
    for (uint32_t c = 0; c < v.cols; c++)
      memset(&loose[b][element(v, r, c) * size], 1, size);
}

static void read_buffers(void) {
  for (int b = 0; b < NBUF; b++) {
    if (fx.buf[b].words == 0) continue;
    gt_view all = {fx.buf[b].name, 0, 1, fx.buf[b].words, 0, GT_U32};
    gt_status s = gt_read(fx.main.ctx, all, now_words[b], 0);
    if (s != GT_OK) die("reading buffer %u back: %s", fx.buf[b].name, status_name(s));
  }
}

/* No GL error may be left behind by a call, refused or not. */
static void check_gl_clean(const char *what) {
  GLenum err = glGetError();
  if (err != GL_NO_ERROR) die("%s left GL error 0x%04x pending", what, (unsigned)err);
}

static void verify_buffers(const char *what) {
  check_gl_clean(what);
  read_buffers();
  for (int b = 0; b < NBUF; b++) {
    const unsigned char *now = bytes_of(now_words[b]), *want = bytes_of(want_words[b]);
    for (uint32_t i = 0; i < fx.buf[b].words * 4; i++)
      if (!loose[b][i] && now[i] != want[i])
        die("%s: buffer %u byte %u is %02x; expected %02x (it held %02x)", what, fx.buf[b].name, i, now[i],
            want[i], bytes_of(fx.buf[b].shadow)[i]);
  }
  for (int b = 0; b < NBUF; b++)
    memcpy(fx.buf[b].shadow, now_words[b], fx.buf[b].words * 4);
  if (glIsBuffer(fx.unbound_buffer) || glIsBuffer(fx.deleted_buffer))
    die("%s made a buffer object of a name that had none", what);
}

static void plan_textures_reset(void) {
  for (int t = 0; t < NTEX; t++)
    for (uint32_t l = 0; l < fx.tex[t].levels && fx.tex[t].readable; l++)
      memcpy(fx.tex[t].want[l], fx.tex[t].shadow[l], (size_t)fx.tex[t].width[l] * fx.tex[t].height[l] * 4);
}

static void verify_textures(const char *what) {
  static uint32_t now[32 * 32];
  check_gl_clean(what);
  for (int t = 0; t < NTEX; t++) {
    fz_texture *tx = &fx.tex[t];
    for (uint32_t l = 0; l < tx->levels && tx->readable; l++) {
      uint32_t w = tx->width[l], h = tx->height[l];
      if (!read_level(tx, l, now)) die("%s: reading texture %u level %u back failed", what, tx->name, l);
      for (uint32_t i = 0; i < w * h; i++)
        if (now[i] != tx->want[l][i])
          die("%s: texture %u level %u texel (%u, %u) is %08x; expected %08x (it held %08x)", what, tx->name,
              l, i % w, i / w, (unsigned)now[i], (unsigned)tx->want[l][i], (unsigned)tx->shadow[l][i]);
      memcpy(tx->shadow[l], now, (size_t)w * h * 4);
    }
  }
  if (glIsTexture(fx.unbound_texture)) die("%s made a texture of a name that had none", what);
}

/* ------------------------------------------------------------------ */
/* Views.                                                              */

static void remember(gt_view v) { in.history[in.history_count++ % HISTORY] = v; }

static GLuint pick_buffer_name(reader *r) {
  uint8_t b = u8(r) % 16;
  if (b < 9) return fx.buf[b % 3].name;
  switch (b) {
  case 9: return fx.buf[3].name;
  case 10: return fx.buf[4].name;
  case 11: return 0;
  case 12: return fx.unbound_buffer;
  case 13: return fx.deleted_buffer;
  case 14: { /* a texture's name: a fixture buffer or none (never a staging buffer's) */
    GLuint t = fx.tex[u8(r) % NTEX].name;
    return fx.tex_names_staging & (1u << texture_index(t)) ? stray_names[0] : t;
  }
  default: return stray_names[u8(r) % (sizeof stray_names / sizeof stray_names[0])];
  }
}

/* A rows x cols view inside real buffer b when it fits, with or without a
 * pitch, at an offset that keeps it inside. */
static gt_view place(reader *r, int b, uint32_t rows, uint32_t cols, gt_type type) {
  gt_view v = {fx.buf[b].name, 0, rows, cols, 0, type};
  uint8_t k = u8(r);
  if (k & 1) v.pitch = cols + u8(r) % 8;
  if (k & 2) v.pitch = cols;
  uint64_t span = span_of(v), capacity = (uint64_t)fx.buf[b].words * 4 / size_of(type);
  if (span <= capacity) {
    uint32_t room = (uint32_t)(capacity - span);
    uint32_t hi = u8(r);
    v.offset = (size_t)((hi << 8 | u8(r)) % (room + 1));
    if (k & 4) v.offset = v.offset / (64 * 4 / size_of(type)) * (64 * 4 / size_of(type)); /* 256-byte aligned */
  }
  return v;
}

static gt_view place_small(reader *r, int b, gt_type type) {
  uint32_t rows = pick_dim(r);
  return place(r, b, rows, pick_dim(r), type);
}

static gt_view any_view(reader *r, gt_type type) {
  gt_view v;
  v.buffer = pick_buffer_name(r);
  v.offset = pick_size(r);
  v.rows = pick32(r);
  v.cols = pick32(r);
  v.pitch = coin(r, 3) ? 0 : pick32(r);
  v.type = pick_type(r, type);
  return v;
}

static void mutate(reader *r, gt_view *v) {
  switch (u8(r) % 8) {
  case 0: v->buffer = pick_buffer_name(r); break;
  case 1: v->offset = pick_size(r); break;
  case 2: v->offset += u8(r) % 9 - 4; break;
  case 3: v->rows = pick32(r); break;
  case 4: v->cols = pick32(r); break;
  case 5: v->pitch = pick32(r); break;
  case 6: v->pitch = v->cols - 1 + u8(r) % 3; break;
  default: v->type = pick_type(r, (gt_type)0); break;
  }
}

/* A view at the overflow boundary: its end at the last element a size_t
 * reaches or at 2^32 bytes, +- 2. */
static gt_view boundary_view(reader *r, gt_type type) {
  gt_view v = any_view(r, type);
  uint64_t span = span_of(v);
  uint64_t limit = coin(r, 2) ? element_limit(v.type) : ((uint64_t)1 << 32) / size_of(v.type);
  if (span <= limit) v.offset = (size_t)(limit - span + u8(r) % 5 - 2);
  return v;
}

static gt_view gen_view(reader *r, gt_type type) {
  gt_view v;
  uint8_t mode = u8(r) % 12;
  switch (mode) {
  case 0:
  case 1:
  case 2:
  case 3: v = place_small(r, u8(r) % 3, type); break;
  case 4:
    v = place_small(r, u8(r) % 3, type);
    mutate(r, &v);
    break;
  case 5: v = any_view(r, type); break;
  case 6:
    v = in.history_count ? in.history[u8(r) % (in.history_count < HISTORY ? in.history_count : HISTORY)]
                         : place_small(r, 0, type);
    break;
  case 7: {
    gt_view base = in.history_count
                       ? in.history[u8(r) % (in.history_count < HISTORY ? in.history_count : HISTORY)]
                       : place_small(r, 1, type);
    uint32_t row = coin(r, 4) ? pick32(r) : u8(r) % 8, col = coin(r, 4) ? pick32(r) : u8(r) % 8;
    uint32_t rows = coin(r, 4) ? pick32(r) : pick_dim(r), cols = coin(r, 4) ? pick32(r) : pick_dim(r);
    v = gt_section(base, row, col, rows, cols);
    break;
  }
  case 8: {
    int b = 3 + u8(r) % 2;
    uint32_t rows = 1 + u8(r) % 3;
    v = place(r, b, rows, 1 + u8(r) % 3, type);
    break;
  }
  case 9: {
    /* One element past the end of its buffer, or just inside it. */
    v = place_small(r, u8(r) % 3, type);
    uint64_t span = span_of(v), capacity = (uint64_t)fx.buf[buffer_index(v.buffer)].words * 4 / size_of(type);
    if (span <= capacity) v.offset = (size_t)(capacity - span + u8(r) % 3);
    break;
  }
  case 10: v = boundary_view(r, type); break;
  default: {
    /* Huge extents whose products pass 2^32 or 2^64. */
    v = place(r, u8(r) % 3, 1, 1, type);
    v.rows = pick32(r);
    v.cols = pick32(r);
    v.pitch = coin(r, 2) ? 0 : pick32(r);
    break;
  }
  }
  remember(v);
  return v;
}

/* A view of the given extent: mostly inside a real buffer. */
static gt_view shaped_view(reader *r, uint32_t rows, uint32_t cols, gt_type type) {
  uint8_t mode = u8(r) % 8;
  if (mode < 5) {
    gt_view v = place(r, u8(r) % 3, rows, cols, type);
    if (mode == 4) mutate(r, &v);
    remember(v);
    return v;
  }
  return gen_view(r, type);
}

/* ------------------------------------------------------------------ */
/* Contexts.                                                           */

/* NULL for a NULL gt_context. */
static fz_context *pick_ctx(reader *r) {
  uint8_t b = u8(r) % 16;
  if (b == 0) return NULL;
  return b < 4 ? &fx.min : &fx.main;
}

static gt_context *ctx_of(const fz_context *c) { return c ? c->ctx : NULL; }

/* ------------------------------------------------------------------ */
/* Pure functions.                                                     */

static void check_pad(uint32_t n, uint32_t t, uint32_t got) {
  bool ok;
  if (t == 0)
    ok = got == n;
  else if (got % t)
    ok = false;
  else if (got >= n)
    ok = got - n < t; /* the least multiple of t not below n */
  else
    ok = UINT32_MAX - got < t; /* none fits: the largest multiple there is */
  if (!ok) die("gt_extent_pad: %u by tile %u gave %u", n, t, got);
}

static void check_truncate(uint32_t n, uint32_t t, uint32_t got) {
  bool ok = t == 0 ? got == n : got % t == 0 && got <= n && n - got < t;
  if (!ok) die("gt_extent_truncate: %u by tile %u gave %u", n, t, got);
}

static void op_pure(reader *r) {
  gt_extent e;
  e.rows = pick32(r);
  e.cols = pick32(r);
  uint32_t tr = coin(r, 2) ? pick_tile(r) : pick32(r), tc = coin(r, 2) ? pick_tile(r) : pick32(r);
  trace("gt_extent_pad / _truncate(%ux%u, %u, %u)", e.rows, e.cols, tr, tc);
  gt_extent p = gt_extent_pad(e, tr, tc), t = gt_extent_truncate(e, tr, tc);
  check_pad(e.rows, tr, p.rows);
  check_pad(e.cols, tc, p.cols);
  check_truncate(e.rows, tr, t.rows);
  check_truncate(e.cols, tc, t.cols);

  uint32_t x = coin(r, 2) ? u8(r) % 16 : pick32(r) & 0x7FFFFFFFu;
  const char *text = gt_status_string((gt_status)x);
  if (text == NULL || text[0] == '\0') die("gt_status_string(%u) gave no text", x);
  text = gt_strategy_name((gt_strategy)x);
  if (text == NULL || text[0] == '\0') die("gt_strategy_name(%u) gave no text", x);
  size_t size = gt_type_size((gt_type)x);
  if (size != type_bytes((gt_type)x)) die("gt_type_size(%u) = %zu", x, size);

  gt_limits zero, l = gt_context_limits(NULL);
  memset(&zero, 0, sizeof zero);
  if (memcmp(&l, &zero, sizeof l) != 0) die("gt_context_limits(NULL) is not all zero");
  if (gt_context_default_tile(NULL) != 0) die("gt_context_default_tile(NULL) is not 0");
  if (gt_context_auto_strategy(NULL) == GT_STRATEGY_AUTO) die("gt_context_auto_strategy(NULL) is AUTO");
  if (gt_context_matmul_kernel(NULL) != GT_MATMUL_KERNEL_REGISTERS) die("gt_context_matmul_kernel(NULL)");
  const char *renderer = gt_context_renderer(NULL);
  if (renderer == NULL || renderer[0] != '\0') die("gt_context_renderer(NULL) is not \"\"");
  if (gt_egl_open(NULL) != GT_ERR_INVALID_ARGUMENT) die("gt_egl_open(NULL)");
  gt_egl none;
  memset(&none, 0, sizeof none);
  gt_egl_close(NULL);
  gt_egl_close(&none);
  if (gt_finish(NULL) != GT_ERR_INVALID_ARGUMENT) die("gt_finish(NULL)");
  gt_kernel_destroy(NULL, pick32(r));
  gt_context_release(NULL);
  if (gt_context_size(NULL) == 0) die("gt_context_size(NULL) is 0");
}

static void op_section(reader *r) {
  gt_view v = gen_view(r, any_type(r));
  uint32_t row = pick32(r), col = pick32(r), rows = pick32(r), cols = pick32(r);
  if (coin(r, 2)) {
    row %= 9;
    col %= 9;
    rows = pick_dim(r);
    cols = pick_dim(r);
  }
  trace("gt_section(%s, %u, %u, %u, %u)", view_text(v), row, col, rows, cols);
  gt_view s = gt_section(v, row, col, rows, cols);
  uint64_t p = pitch_of(v);
  bool inside = (uint64_t)row + rows <= v.rows && (uint64_t)col + cols <= v.cols;
  uint64_t skip = (uint64_t)row * p; /* at most (2^32 - 1)^2 */
  bool fits = skip <= UINT64_MAX - col && (uint64_t)v.offset <= UINT64_MAX - (skip + col) &&
              (uint64_t)v.offset + skip + col <= (uint64_t)SIZE_MAX;
  if (inside && fits) {
    if (s.buffer != v.buffer || s.type != v.type || s.rows != rows || s.cols != cols || s.pitch != p ||
        (uint64_t)s.offset != (uint64_t)v.offset + skip + col)
      die("gt_section(%s, %u, %u, %u, %u) = %s", view_text(v), row, col, rows, cols, view_text(s));
    if (rows && cols && addressable(v) && !slow_alias(s, v) && !checked_alias(s, v))
      die("section %s of %s shares no element with it", view_text(s), view_text(v));
  } else if (s.rows != 0 || s.cols != 0) {
    die("gt_section(%s, %u, %u, %u, %u) = %s: a window outside gave an extent", view_text(v), row, col, rows,
        cols, view_text(s));
  }
  remember(s);
}

static void op_views_alias(reader *r) {
  gt_view a = gen_view(r, any_type(r)), b;
  switch (u8(r) % 4) {
  case 0: b = gen_view(r, any_type(r)); break;
  case 1: /* interleaved rows: b starts in a's gap */
    b = a;
    b.offset += a.cols + u8(r) % 4 - 1;
    if (coin(r, 2)) b.pitch = pick32(r);
    break;
  case 2:
    b = a;
    b.offset += pick_size(r);
    b.rows = coin(r, 2) ? pick32(r) : b.rows;
    break;
  default:
    b = a;
    mutate(r, &b);
    break;
  }
  if (coin(r, 4)) b.type = any_type(r); /* views of different element sizes meet by bytes */
  if (slow_alias(a, b)) {
    slow_skipped++;
    return;
  }
  trace("gt_views_alias(%s, %s)", view_text(a), view_text(b));
  checked_alias(a, b);
  bool self = gt_views_alias(a, a);
  if (alias_truth(a, a) >= 0 && self != (a.rows && a.cols))
    die("gt_views_alias(%s, itself) = %d", view_text(a), self);
}

/* ------------------------------------------------------------------ */
/* Images.                                                             */

static GLuint pick_texture_name(reader *r) {
  uint8_t b = u8(r) % 16;
  if (b < 12) return fx.tex[b % NTEX].name;
  switch (b) {
  case 12: return 0;
  case 13: return fx.unbound_texture;
  case 14: return fx.buf[u8(r) % NBUF].name;
  default: return stray_names[u8(r) % (sizeof stray_names / sizeof stray_names[0])];
  }
}

static gt_format pick_format(reader *r, gt_format usual) {
  uint8_t b = u8(r);
  if (b < 200) return usual;
  static const uint32_t formats[] = {1, 2, 3, 4, 0, 5, 255, 0x7FFFFFFF};
  return (gt_format)formats[b % 8];
}

/* A w x h window (0 = any size) of a texture: mostly inside a level. */
static gt_image gen_image(reader *r, GLuint texture, uint32_t w, uint32_t h) {
  gt_image im;
  memset(&im, 0, sizeof im);
  im.texture = texture;
  int t = texture_index(texture);
  const fz_texture *tx = t >= 0 ? &fx.tex[t] : &fx.tex[0];
  im.level = coin(r, 8) ? (coin(r, 2) ? pick32(r) : 1u) : 0u;
  uint32_t l = im.level < tx->levels && im.level < 2 ? im.level : 0;
  uint32_t lw = tx->width[l] ? tx->width[l] : 4, lh = tx->height[l] ? tx->height[l] : 4;
  im.width = w ? w : 1 + u8(r) % lw;
  im.height = h ? h : 1 + u8(r) % lh;
  im.x = im.width <= lw ? u8(r) % (lw - im.width + 1) : 0;
  im.y = im.height <= lh ? u8(r) % (lh - im.height + 1) : 0;
  im.format = pick_format(r, tx->format ? tx->format : GT_FORMAT_R32UI);
  if (coin(r, 6)) {
    switch (u8(r) % 6) {
    case 0: im.x = pick32(r); break;
    case 1: im.y = pick32(r); break;
    case 2: im.width = pick32(r); break;
    case 3: im.height = pick32(r); break;
    case 4: im.x = 0x7FFFFFFFu - im.width + u8(r) % 3; break;
    default: im.level = pick32(r); break;
    }
  }
  return im;
}

static bool images_truth(gt_image a, gt_image b) {
  if (a.texture != b.texture || a.level != b.level || !a.width || !a.height || !b.width || !b.height)
    return false;
  uint64_t ax = a.x, ay = a.y, bx = b.x, by = b.y;
  return ax < bx + b.width && bx < ax + a.width && ay < by + b.height && by < ay + a.height;
}

static bool checked_images_alias(gt_image a, gt_image b) {
  bool ab = gt_images_alias(a, b), ba = gt_images_alias(b, a), truth = images_truth(a, b);
  if (ab != ba || ab != truth)
    die("gt_images_alias(%s, %s) = %d, the other way %d; they %s a texel", image_text(a), image_text(b), ab,
        ba, truth ? "share" : "do not share");
  return ab;
}

static void op_images_alias(reader *r) {
  gt_image a = gen_image(r, pick_texture_name(r), 0, 0);
  gt_image b = coin(r, 2) ? gen_image(r, a.texture, 0, 0) : gen_image(r, pick_texture_name(r), 0, 0);
  if (coin(r, 4)) b.level = a.level;
  trace("gt_images_alias(%s, %s)", image_text(a), image_text(b));
  checked_images_alias(a, b);
}

static bool image_fields(gt_image im, expect *e) {
  bool ok = true;
  if (!im.texture || !im.width || !im.height || !known_format(im.format)) {
    must(e, GT_ERR_INVALID_ARGUMENT);
    ok = false;
  }
  /* No texture reaches 2^31 texels: a window past that is outside. */
  if ((uint64_t)im.x + im.width > INT32_MAX || (uint64_t)im.y + im.height > INT32_MAX) {
    must(e, GT_ERR_OUT_OF_RANGE);
    ok = false;
  }
  return ok;
}

static void image_texture(gt_image im, expect *e) {
  int t = texture_index(im.texture);
  if (t < 0) {
    must(e, GT_ERR_INVALID_ARGUMENT);
    return;
  }
  const fz_texture *tx = &fx.tex[t];
  if (tx->target != GL_TEXTURE_2D) {
    must(e, GT_ERR_INVALID_ARGUMENT);
  } else if (!tx->immutable) {
    must(e, GT_ERR_UNSUPPORTED);
  } else if (im.level >= tx->levels) {
    must(e, GT_ERR_OUT_OF_RANGE);
  } else if (im.format != tx->format) {
    must(e, GT_ERR_INVALID_ARGUMENT);
  } else if ((uint64_t)im.x + im.width > tx->width[im.level] ||
             (uint64_t)im.y + im.height > tx->height[im.level]) {
    must(e, GT_ERR_OUT_OF_RANGE);
  }
}

/* Where source texel (r, c) of an R x C window lands after `turns`
 * quarter turns clockwise (0 = the transpose). */
static void destination(uint32_t turns, uint32_t R, uint32_t C, uint32_t r, uint32_t c, uint32_t *dr,
                        uint32_t *dc) {
  switch (turns) {
  case 0: *dr = c, *dc = r; break;
  case 1: *dr = c, *dc = R - 1 - r; break;
  case 2: *dr = R - 1 - r, *dc = C - 1 - c; break;
  default: *dr = C - 1 - c, *dc = r; break;
  }
}

static void plan_image(gt_image src, gt_image dst, uint32_t turns) {
  const fz_texture *ts = &fx.tex[texture_index(src.texture)], *td = &fx.tex[texture_index(dst.texture)];
  if (!ts->readable || !td->readable) return;
  uint32_t sw = ts->width[src.level], dw = td->width[dst.level];
  for (uint32_t r = 0; r < src.height; r++)
    for (uint32_t c = 0; c < src.width; c++) {
      uint32_t i, j;
      destination(turns, src.height, src.width, r, c, &i, &j);
      td->want[dst.level][(size_t)(dst.y + i) * dw + dst.x + j] =
          ts->shadow[src.level][(size_t)(src.y + r) * sw + src.x + c];
    }
}

static void op_image(reader *r) {
  fz_context *c = coin(r, 8) ? NULL : &fx.img;
  gt_context *g = ctx_of(c);
  bool rotate = coin(r, 2);
  uint32_t turns = rotate ? 1u + u8(r) % 3 : 0u;
  if (rotate && coin(r, 10)) turns = coin(r, 2) ? 0u : pick32(r);
  gt_transpose_desc d;
  d.strategy = pick_strategy(r);
  d.tile = pick_tile(r);
  bool null_desc = coin(r, 4);
  gt_image src = gen_image(r, pick_texture_name(r), 0, 0), dst;
  bool swaps = turns != 2;
  uint32_t w = swaps ? src.height : src.width, h = swaps ? src.width : src.height;
  if (coin(r, 6)) {
    dst = gen_image(r, pick_texture_name(r), 0, 0);
  } else {
    /* Most often a texture of the same format; sometimes src's own. */
    GLuint t = src.texture;
    if (!coin(r, 4)) {
      int ti = texture_index(src.texture);
      gt_format f = ti >= 0 ? fx.tex[ti].format : GT_FORMAT_R32UI;
      for (int tries = 0; tries < 8; tries++) {
        int k = u8(r) % NTEX;
        if (fx.tex[k].format == f) {
          t = fx.tex[k].name;
          break;
        }
      }
    }
    dst = gen_image(r, t, w, h);
    dst.format = src.format;
  }

  expect e = {0, 0};
  const gt_transpose_desc *dp = null_desc ? NULL : &d;
  if (!g) {
    must(&e, GT_ERR_INVALID_ARGUMENT);
  } else {
    gt_transpose_desc z = {GT_STRATEGY_AUTO, 0};
    const gt_transpose_desc *dd = dp ? dp : &z;
    /* Images' AUTO: SIMPLE where the context's is, else the padded kernel
     * (the even one only where the tile divides, so nothing else differs),
     * on a truncating context too. */
    gt_strategy st = dd->strategy;
    if (st == GT_STRATEGY_AUTO)
      st = c->auto_strategy == GT_STRATEGY_SIMPLE ? GT_STRATEGY_SIMPLE : GT_STRATEGY_TILED_PAD;
    if (st != GT_STRATEGY_SIMPLE && st != GT_STRATEGY_TILED_EVEN && st != GT_STRATEGY_TILED_PAD)
      must(&e, GT_ERR_INVALID_ARGUMENT);
    if (!valid_tile(dd->tile)) must(&e, GT_ERR_INVALID_ARGUMENT);
    if (rotate && (turns < 1 || turns > 3)) must(&e, GT_ERR_INVALID_ARGUMENT);
    bool fs = image_fields(src, &e), fd = image_fields(dst, &e);
    if (src.format != dst.format) must(&e, GT_ERR_SHAPE_MISMATCH);
    if (dst.width != w || dst.height != h) must(&e, GT_ERR_SHAPE_MISMATCH);
    uint32_t tile = dd->tile ? dd->tile : c->default_tile;
    if (swaps && st != GT_STRATEGY_SIMPLE) may(&e, GT_ERR_UNSUPPORTED); /* a tile beyond the device */
    if (swaps && st == GT_STRATEGY_TILED_EVEN && valid_tile(dd->tile) &&
        (src.width % tile || src.height % tile))
      must(&e, GT_ERR_SHAPE_MISMATCH);
    if (checked_images_alias(src, dst)) must(&e, GT_ERR_ALIASED);
    if (fs) image_texture(src, &e);
    if (fd) image_texture(dst, &e);
  }
  trace("%s(%s, src %s, dst %s, turns %u, desc %s{%d, %u})",
        rotate ? "gt_image_rotate" : "gt_image_transpose", c ? c->name : "NULL", image_text(src),
        image_text(dst), turns, null_desc ? "NULL " : "", (int)d.strategy, d.tile);
  plan_textures_reset();
  begin_call();
  gt_status s = rotate ? gt_image_rotate(g, src, dst, turns, dp) : gt_image_transpose(g, src, dst, dp);
  end_call();
  count(OP_IMAGE, s);
  check_status(rotate ? "gt_image_rotate" : "gt_image_transpose", g, s, e);
  if (s == GT_OK) plan_image(src, dst, turns);
  verify_textures(rotate ? "gt_image_rotate" : "gt_image_transpose");
}

/* ------------------------------------------------------------------ */
/* Transpose, copy, matmul.                                            */

static void op_transpose(reader *r) {
  fz_context *c = pick_ctx(r);
  gt_context *g = ctx_of(c);
  gt_transpose_desc d;
  d.strategy = pick_strategy(r);
  d.tile = pick_tile(r);
  bool null_desc = coin(r, 4);
  gt_type type = pick_type(r, any_type(r));
  gt_view src = gen_view(r, type), dst;
  switch (u8(r) % 5) {
  case 0: /* in place when square */
    dst = src;
    if (coin(r, 2)) dst.pitch = pitch_of(src);
    break;
  case 1: dst = gen_view(r, type); break;
  default: dst = shaped_view(r, src.cols, src.rows, type); break;
  }
  const gt_transpose_desc *dp = null_desc ? NULL : &d;
  if (!same_view(src, dst) && slow_alias(src, dst)) {
    slow_skipped++;
    return;
  }

  expect e = {0, 0};
  if (!g) {
    must(&e, GT_ERR_INVALID_ARGUMENT);
  } else {
    gt_transpose_desc z = {GT_STRATEGY_AUTO, 0};
    const gt_transpose_desc *dd = dp ? dp : &z;
    if ((unsigned)dd->strategy > GT_STRATEGY_TRUNCATE_B || !valid_tile(dd->tile))
      must(&e, GT_ERR_INVALID_ARGUMENT);
    bool fs = view_fields(src, &e), fd = view_fields(dst, &e);
    if (src.type != dst.type || dst.rows != src.cols || dst.cols != src.rows) must(&e, GT_ERR_SHAPE_MISMATCH);
    gt_strategy st = dd->strategy == GT_STRATEGY_AUTO ? c->auto_strategy : dd->strategy;
    uint32_t tile = dd->tile ? dd->tile : c->default_tile;
    /* A tile beyond the device, or blocks that do not fit it; AUTO moves
     * 2- and 1-byte elements in tiled blocks of words, whatever its
     * strategy for 4-byte ones. */
    if (st != GT_STRATEGY_SIMPLE || (dd->strategy == GT_STRATEGY_AUTO && size_of(src.type) < 4))
      may(&e, GT_ERR_UNSUPPORTED);
    if (dd->strategy == GT_STRATEGY_TILED_EVEN && valid_tile(dd->tile) &&
        (src.rows % tile || src.cols % tile))
      must(&e, GT_ERR_SHAPE_MISMATCH);
    if (!same_view(src, dst)) model_alias(dst, src, &e);
    if (fs) view_buffer(c, src, &e);
    if (fd) view_buffer(c, dst, &e);
    model_atomics(c, dst.type, &e);
  }
  trace("gt_transpose(%s, %s, %s, desc %s{%d, %u})", c ? c->name : "NULL", view_text(src), view_text(dst),
        null_desc ? "NULL " : "", (int)d.strategy, d.tile);
  gt_plan plan;
  memset(&plan, plan_poison, sizeof plan);
  gt_status planned = gt_transpose_plan(g, src, dst, dp, &plan);
  begin_call();
  gt_status s = gt_transpose(g, src, dst, dp);
  end_call();
  check_plan("gt_transpose_plan", planned, &plan, s);
  count(OP_TRANSPOSE, s);
  narrow_ok += s == GT_OK && size_of(src.type) < 4;
  check_status("gt_transpose", g, s, e);
  plan_reset();
  if (s == GT_OK) plan_transpose(src, dst);
  verify_buffers("gt_transpose");
}

static void op_copy(reader *r) {
  fz_context *c = pick_ctx(r);
  gt_context *g = ctx_of(c);
  gt_type type = pick_type(r, any_type(r));
  gt_view src = gen_view(r, type);
  gt_view dst = coin(r, 5) ? gen_view(r, type) : shaped_view(r, src.rows, src.cols, type);
  if (slow_alias(src, dst)) {
    slow_skipped++;
    return;
  }
  expect e = {0, 0};
  if (!g) {
    must(&e, GT_ERR_INVALID_ARGUMENT);
  } else {
    bool fs = view_fields(src, &e), fd = view_fields(dst, &e);
    if (src.type != dst.type || src.rows != dst.rows || src.cols != dst.cols) must(&e, GT_ERR_SHAPE_MISMATCH);
    model_alias(dst, src, &e);
    if (fs) view_buffer(c, src, &e);
    if (fd) view_buffer(c, dst, &e);
    model_atomics(c, dst.type, &e);
  }
  trace("gt_copy(%s, %s, %s)", c ? c->name : "NULL", view_text(src), view_text(dst));
  begin_call();
  gt_status s = gt_copy(g, src, dst);
  end_call();
  count(OP_COPY, s);
  narrow_ok += s == GT_OK && size_of(src.type) < 4;
  check_status("gt_copy", g, s, e);
  plan_reset();
  if (s == GT_OK) plan_copy(src, dst);
  verify_buffers("gt_copy");
}

static float pick_float(reader *r) {
  static const float values[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f};
  uint8_t b = u8(r);
  if (b < 200) return values[b % 5];
  uint32_t w = u32(r);
  float f;
  memcpy(&f, &w, 4);
  return f;
}

/* Batches: counts and strides at the edges. */
static uint32_t pick_count(reader *r) {
  static const uint32_t small[] = {0, 1, 2, 2, 3, 3, 4, 7}, large[] = {64, 65, 65536, UINT32_MAX};
  uint8_t b = u8(r);
  return b < 200 ? small[b % 8] : b < 240 ? large[b % 4] : 1u + u8(r) % 100u;
}

static size_t pick_stride(reader *r, gt_view v) {
  size_t span = (size_t)span_of(v);
  switch (u8(r) % 10) {
  case 0: return 0;
  case 1: return span;
  case 2: return span + 1;
  case 3: return span ? span - 1 : 0;
  case 4: return pitch_of(v);
  case 5: return v.cols;
  case 6: return (size_t)u8(r) % 24u;
  case 7: return coin(r, 2) ? SIZE_MAX : SIZE_MAX / 2 + 1;
  case 8: return (size_t)u32(r);
  default: return span + u8(r) % 8u;
  }
}

/* v moved on by i strides: false where the model finds the move or the
 * moved view's end past what a size_t addresses. */
static bool moved_view(gt_view v, size_t stride, uint64_t i, gt_view *out) {
  uint64_t limit = element_limit(v.type), end = (uint64_t)v.offset + span_of(v);
  if (stride != 0 && i > UINT64_MAX / stride) return false;
  uint64_t move = i * stride;
  if (end > limit || move > limit - end) return false;
  *out = v;
  out->offset = (size_t)((uint64_t)v.offset + move);
  return true;
}

/* The batch's own checks: every product's views inside their buffers, and
 * no c_i overlapping an a_j, a b_j or another c_j. */
enum { BATCH_PAIRS = 64 }; /* products whose every pair the model compares */
static void model_batch(const fz_context *c, const gt_view v[3], const gt_batch *batch, const bool fields[3],
                        bool inside, expect *e) {
  if (batch->count == 0) {
    must(e, GT_ERR_INVALID_ARGUMENT);
    return;
  }
  const size_t strides[3] = {batch->stride_a, batch->stride_b, batch->stride_c};
  for (int o = 0; o < 3; o++) {
    gt_view last;
    if (!fields[o]) continue;
    if (!moved_view(v[o], strides[o], batch->count - 1, &last)) {
      must(e, GT_ERR_OUT_OF_RANGE);
      inside = false;
    } else if (!view_buffer(c, last, e)) {
      inside = false;
    }
  }
  if (!inside) return;
  if (batch->count > 1 && batch->stride_c == 0) must(e, GT_ERR_ALIASED);
  if (batch->count > BATCH_PAIRS) {
    may(e, GT_ERR_ALIASED);
    return;
  }
  for (uint32_t i = 0; i < batch->count; i++)
    for (uint32_t j = 0; j < batch->count; j++) {
      gt_view ci, aj, bj, cj;
      moved_view(v[2], strides[2], i, &ci);
      moved_view(v[0], strides[0], j, &aj);
      moved_view(v[1], strides[1], j, &bj);
      moved_view(v[2], strides[2], j, &cj);
      model_alias(ci, aj, e);
      model_alias(ci, bj, e);
      if (i != j) model_alias(ci, cj, e);
    }
}

/* gt_matmul, or (batched) gt_matmul_batched over a batch of those views. */
/* A byte value of type t (operands' or c's). */
static bool in_bytes(gt_type t, int32_t v) { return t == GT_I8 ? v >= -128 && v <= 127 : v >= 0 && v <= 255; }

/* gt_quantization's checks, for a and b of one supported type and a c
 * that pairs with them: nothing on floats but zero; zero points in range;
 * requantisation for an 8-bit c and none for an I32 one; no scaling or
 * epilogue; K where no 32-bit sum overflows, one slice (4096) for an
 * 8-bit c. */
static void model_quantization(const fz_context *c, gt_type type, gt_view cv, const gt_matmul_desc *d,
                               uint32_t k, expect *e) {
  const gt_quantization *q = &d->quant;
  gt_type c_type = cv.type;
  bool columns = q->multipliers.buffer || q->shifts.buffer;
  bool zero = !q->zero_a && !q->zero_b && !q->multiplier && !q->shift && !q->zero_c && !columns;
  if (type != GT_U8 && type != GT_I8) {
    if (!zero) must(e, GT_ERR_INVALID_ARGUMENT);
    return;
  }
  if (!in_bytes(type, q->zero_a) || !in_bytes(type, q->zero_b)) must(e, GT_ERR_INVALID_ARGUMENT);
  bool requantized = c_type != GT_I32;
  if (requantized && columns) {
    if (!q->multipliers.buffer || !q->shifts.buffer || q->multiplier || q->shift ||
        !in_bytes(c_type, q->zero_c))
      must(e, GT_ERR_INVALID_ARGUMENT);
    const gt_view v[2] = {q->multipliers, q->shifts};
    for (int i = 0; i < 2; i++) {
      if (!v[i].buffer || !view_fields(v[i], e)) continue;
      if (v[i].rows != 1 || v[i].cols != cv.cols)
        must(e, GT_ERR_SHAPE_MISMATCH);
      else if (v[i].type != GT_I32)
        must(e, GT_ERR_UNSUPPORTED);
      if (view_buffer(c, v[i], e)) model_alias(cv, v[i], e);
      may(e, GT_ERR_ALIASED); /* another product's c */
    }
    may(e, GT_ERR_UNSUPPORTED); /* fewer than 6 storage blocks, or longer than one */
  } else if (requantized &&
             (q->multiplier <= 0 || q->shift < -31 || q->shift > 30 || !in_bytes(c_type, q->zero_c)))
    must(e, GT_ERR_INVALID_ARGUMENT);
  if (!requantized && (q->multiplier || q->shift || q->zero_c || columns)) must(e, GT_ERR_INVALID_ARGUMENT);
  if (d->scale) must(e, GT_ERR_UNSUPPORTED);
  if (d->act == GT_ACTIVATION_CLAMP) {
    const float bound[2] = {d->act_lo, d->act_hi};
    for (int i = 0; i < 2; i++) {
      bool whole =
          bound[i] >= -2147483648.0f && bound[i] < 2147483648.0f && bound[i] == (float)(int32_t)bound[i];
      if (!whole || (requantized && !in_bytes(c_type, (int32_t)bound[i]))) must(e, GT_ERR_INVALID_ARGUMENT);
    }
  }
  int64_t lo = type == GT_I8 ? -128 : 0, hi = lo + 255;
  int64_t da = q->zero_a - lo > hi - q->zero_a ? q->zero_a - lo : hi - q->zero_a;
  int64_t db = q->zero_b - lo > hi - q->zero_b ? q->zero_b - lo : hi - q->zero_b;
  int64_t most = da * db > 0 ? INT32_MAX / (da * db) : INT64_MAX;
  if (requantized && most > 4096) most = 4096;
  if (in_bytes(type, q->zero_a) && in_bytes(type, q->zero_b) && k > most) must(e, GT_ERR_UNSUPPORTED);
}

static void op_matmul(reader *r, bool batched) {
  fz_context *c = pick_ctx(r);
  gt_context *g = ctx_of(c);
  gt_matmul_desc d;
  memset(&d, 0, sizeof d);
  d.strategy = pick_strategy(r);
  d.tile = pick_tile(r);
  uint8_t f = u8(r);
  d.trans_a = f & 1;
  d.trans_b = (f & 2) != 0;
  d.scale = (f & 4) != 0;
  d.alpha = pick_float(r);
  d.beta = pick_float(r);
  bool null_desc = coin(r, 5);
  const gt_matmul_desc *dp = null_desc ? NULL : &d;
  gt_matmul_desc z;
  memset(&z, 0, sizeof z);
  const gt_matmul_desc *dd = dp ? dp : &z;
  /* f32 products, half ones into a half or a float c, 8-bit ones into
   * an I32 or 8-bit c, or other types. */
  uint8_t types = u8(r) % 10;
  gt_type usual = types < 5 ? GT_F32 : types < 8 ? GT_F16 : types % 2 ? GT_I8 : GT_U8;
  gt_type type = pick_type(r, usual), c_type = types == 5 ? GT_F32 : types == 8 ? GT_I32 : type;
  uint32_t M = pick_dim(r), N = pick_dim(r), K = pick_dim(r);
  gt_view a = dd->trans_a ? shaped_view(r, K, M, type) : shaped_view(r, M, K, type);
  gt_view b = coin(r, 8) ? a : dd->trans_b ? shaped_view(r, N, K, type) : shaped_view(r, K, N, type);
  gt_view cv;
  switch (u8(r) % 8) {
  case 0: cv = a; break;
  case 1: cv = gen_view(r, c_type); break;
  default: cv = shaped_view(r, M, N, c_type); break;
  }
  /* The epilogue: an activation (or an unknown one) with any bounds, and
   * no bias, one along c's columns or rows, c itself, or any view. */
  uint8_t ep = u8(r);
  d.act = (gt_activation)(ep % 8 < 6 ? ep % 3 : ep % 8 == 6 ? 3u : 0x7FFFFFFFu);
  d.act_lo = pick_float(r);
  d.act_hi = pick_float(r);
  switch (ep / 8 % 8) {
  case 0:
  case 1: break;
  case 2:
  case 3: d.bias = shaped_view(r, 1, N, GT_F32); break;
  case 4: d.bias = shaped_view(r, M, 1, GT_F32); break;
  case 5: d.bias = cv; break;
  default: d.bias = gen_view(r, pick_type(r, GT_F32)); break;
  }
  /* Quantisation: zero for most float products; for 8-bit ones zero
   * points and a requantisation in range or just past it. */
  uint8_t qf = u8(r);
  if (qf % 4 == 0 || (type == GT_U8 || type == GT_I8)) {
    int32_t lo = type == GT_I8 ? -128 : 0;
    d.quant.zero_a = lo + (int32_t)u8(r) + (qf & 16 ? 1 : 0);
    d.quant.zero_b = lo + (int32_t)u8(r) - (qf & 32 ? 1 : 0);
    d.quant.multiplier = qf & 64 ? 0 : (int32_t)(u8(r) << 23) + 1;
    d.quant.shift = (int32_t)(u8(r) % 64) - 32;
    d.quant.zero_c = qf & 128 ? 0 : lo + (int32_t)u8(r);
    if (qf & 8) d.scale = false;
    if (qf & 4) { /* per column: the views, and mostly no per-tensor fields */
      d.quant.multipliers = shaped_view(r, 1, N, pick_type(r, GT_I32));
      d.quant.shifts = coin(r, 6) ? cv : shaped_view(r, 1, N, pick_type(r, GT_I32));
      if (!(qf & 2)) d.quant.multiplier = d.quant.shift = 0;
    }
    if (qf & 2 && !(qf & 4)) d.bias = shaped_view(r, 1, N, GT_I32), d.act = GT_ACTIVATION_RELU;
  }
  if (slow_alias(cv, a) || slow_alias(cv, b) || (dd->bias.buffer && slow_alias(cv, dd->bias)) ||
      (dd->quant.multipliers.buffer && slow_alias(cv, dd->quant.multipliers)) ||
      (dd->quant.shifts.buffer && slow_alias(cv, dd->quant.shifts))) {
    slow_skipped++;
    return;
  }
  gt_batch batch = {1, 0, 0, 0};
  if (batched) {
    batch.count = pick_count(r);
    batch.stride_a = pick_stride(r, a);
    batch.stride_b = coin(r, 3) ? batch.stride_a : pick_stride(r, b);
    batch.stride_c = pick_stride(r, cv);
  }
  /* Where the sums run: mostly f32, else a known precision or not. */
  uint8_t pr = u8(r);
  d.precision = (gt_precision)(pr % 8 < 5 ? 0u : pr % 8 < 7 ? pr % 8 - 4u : pr % 16 == 7 ? 3u : 0x7FFFFFFFu);

  expect e = {0, 0};
  if (!g) {
    must(&e, GT_ERR_INVALID_ARGUMENT);
  } else {
    gt_strategy st = dd->strategy;
    if (st != GT_STRATEGY_AUTO && st != GT_STRATEGY_SIMPLE && st != GT_STRATEGY_TILED_EVEN &&
        st != GT_STRATEGY_TILED_PAD && st != GT_STRATEGY_TRUNCATE_B)
      must(&e, GT_ERR_INVALID_ARGUMENT);
    if (!valid_tile(dd->tile)) must(&e, GT_ERR_INVALID_ARGUMENT);
    bool fa = view_fields(a, &e), fb = view_fields(b, &e), fc = view_fields(cv, &e);
    bool quant = a.type == GT_U8 || a.type == GT_I8;
    if (a.type != b.type ||
        (cv.type != a.type && !(a.type == GT_F16 && cv.type == GT_F32) && !(quant && cv.type == GT_I32)))
      must(&e, GT_ERR_SHAPE_MISMATCH);
    else if (a.type != GT_F32 && a.type != GT_F16 && !quant)
      must(&e, GT_ERR_UNSUPPORTED);
    else
      model_quantization(c, a.type, cv, dd, dd->trans_a ? a.rows : a.cols, &e);
    /* Half sums only for half operands. */
    if ((uint32_t)dd->precision > GT_PRECISION_HALF || (dd->precision && a.type != GT_F16))
      must(&e, GT_ERR_INVALID_ARGUMENT);
    model_atomics(c, cv.type, &e);
    uint32_t m = dd->trans_a ? a.cols : a.rows, k = dd->trans_a ? a.rows : a.cols;
    uint32_t kb = dd->trans_b ? b.cols : b.rows, n = dd->trans_b ? b.rows : b.cols;
    if (k != kb || cv.rows != m || cv.cols != n) must(&e, GT_ERR_SHAPE_MISMATCH);
    uint32_t tile = dd->tile ? dd->tile : c->default_tile;
    if (st == GT_STRATEGY_TILED_EVEN || st == GT_STRATEGY_TILED_PAD || st == GT_STRATEGY_TRUNCATE_B) {
      may(&e, GT_ERR_UNSUPPORTED); /* a tile beyond the device */
      /* The seed's tiled kernel: f32 or f16 operands, f32 sums, one
       * product at a time. */
      if (quant || dd->precision == GT_PRECISION_HALF || dd->bias.buffer || dd->act || batched)
        must(&e, GT_ERR_UNSUPPORTED);
    }
    if (st == GT_STRATEGY_TILED_EVEN && valid_tile(dd->tile) && (m % tile || n % tile || k % tile))
      must(&e, GT_ERR_SHAPE_MISMATCH);
    model_alias(cv, a, &e);
    model_alias(cv, b, &e);
    bool inside = fa && fb && fc;
    if (fa) inside = view_buffer(c, a, &e) && inside;
    if (fb) inside = view_buffer(c, b, &e) && inside;
    if (fc) inside = view_buffer(c, cv, &e) && inside;
    /* The epilogue's fields: a known activation, CLAMP's bounds in order,
     * a GT_F32 bias of 1 x N or M x 1 inside its buffer, apart from c
     * (and from every product's c). */
    gt_activation act = dd->act;
    if (act != GT_ACTIVATION_NONE && act != GT_ACTIVATION_RELU && act != GT_ACTIVATION_CLAMP)
      must(&e, GT_ERR_INVALID_ARGUMENT);
    if (act == GT_ACTIVATION_CLAMP && !(dd->act_lo <= dd->act_hi)) must(&e, GT_ERR_INVALID_ARGUMENT);
    gt_view bias = dd->bias;
    if (bias.buffer && view_fields(bias, &e)) {
      if (!((bias.rows == 1 && bias.cols == n) || (bias.cols == 1 && bias.rows == m)))
        must(&e, GT_ERR_SHAPE_MISMATCH);
      else if (bias.type != (a.type == GT_U8 || a.type == GT_I8 ? GT_I32 : GT_F32))
        must(&e, GT_ERR_UNSUPPORTED);
      may(&e, GT_ERR_UNSUPPORTED); /* longer than a storage block */
      if (view_buffer(c, bias, &e)) {
        model_alias(cv, bias, &e);
        for (uint32_t i = 1; batched && i < batch.count && i <= BATCH_PAIRS; i++) {
          gt_view ci;
          if (moved_view(cv, batch.stride_c, i, &ci)) model_alias(ci, bias, &e);
        }
        if (batched && batch.count > BATCH_PAIRS) may(&e, GT_ERR_ALIASED);
      }
    }
    if (batched) {
      const gt_view v[3] = {a, b, cv};
      const bool fields[3] = {fa, fb, fc};
      model_batch(c, v, &batch, fields, inside, &e);
    }
  }
  const char *name = batched ? "gt_matmul_batched" : "gt_matmul";
  trace("%s(%s, a %s, b %s, c %s, batch {%u, %zu, %zu, %zu}, desc %s{%d, %u, %d, %d, %d, %g, %g, bias %s, "
        "act %d [%g, %g], quant {%d, %d, %d, %d, %d}})",
        name, c ? c->name : "NULL", view_text(a), view_text(b), view_text(cv), batch.count, batch.stride_a,
        batch.stride_b, batch.stride_c, null_desc ? "NULL " : "", (int)d.strategy, d.tile, d.trans_a,
        d.trans_b, d.scale, (double)d.alpha, (double)d.beta, view_text(d.bias), (int)d.act, (double)d.act_lo,
        (double)d.act_hi, d.quant.zero_a, d.quant.zero_b, d.quant.multiplier, d.quant.shift, d.quant.zero_c);
  gt_plan plan;
  memset(&plan, plan_poison, sizeof plan);
  gt_status planned = batched ? GT_OK : gt_matmul_plan(g, a, b, cv, dp, &plan);
  begin_call();
  gt_status s = batched ? gt_matmul_batched(g, a, b, cv, batch, dp) : gt_matmul(g, a, b, cv, dp);
  end_call();
  if (!batched) check_plan("gt_matmul_plan", planned, &plan, s);
  count(batched ? OP_MATMUL_BATCHED : OP_MATMUL, s);
  narrow_ok += s == GT_OK && size_of(a.type) < 4;
  check_status(name, g, s, e);
  plan_reset();
  /* Sums in f32: values not checked here, only that nothing else changed. */
  for (uint32_t i = 0; s == GT_OK && i < batch.count; i++) {
    gt_view ci;
    if (moved_view(cv, batch.stride_c, i, &ci)) plan_loose(ci);
  }
  verify_buffers(name);
}

/* ------------------------------------------------------------------ */
/* Transfers.                                                          */

static size_t pick_host_pitch(reader *r, gt_view v) {
  switch (u8(r) % 8) {
  case 0:
  case 1: return 0;
  case 2: return v.cols;
  case 3: return (size_t)v.cols + u8(r) % 9;
  case 4: return (size_t)v.cols - 1; /* one short; wraps for cols 0 */
  case 5:                            /* at the overflow boundary of (rows - 1) * pitch + cols */
    if (v.rows > 1) return (size_t)((SIZE_MAX / size_of(v.type) - v.cols) / (v.rows - 1)) + u8(r) % 3 - 1;
    return SIZE_MAX;
  default: return pick_size(r);
  }
}

/* Host elements the transfer touches: (rows - 1) * pitch + cols, or
 * false when their bytes pass SIZE_MAX. */
static bool host_extent(gt_view v, size_t host_pitch, uint64_t *out) {
  uint64_t hp = host_pitch ? host_pitch : v.cols, limit = (uint64_t)SIZE_MAX / size_of(v.type);
  uint64_t rows = v.rows ? v.rows - 1u : 0u;
  if (rows && hp > (UINT64_MAX - v.cols) / rows) return false;
  *out = rows * hp + v.cols;
  return *out <= limit;
}

static void model_transfer(const fz_context *c, gt_view v, const void *host, size_t host_pitch, expect *e) {
  if (!c) {
    must(e, GT_ERR_INVALID_ARGUMENT);
    return;
  }
  if (host == NULL) must(e, GT_ERR_INVALID_ARGUMENT);
  bool fields = view_fields(v, e);
  if (host_pitch != 0 && host_pitch < v.cols) must(e, GT_ERR_INVALID_ARGUMENT);
  uint64_t extent;
  if (v.rows && v.cols && !host_extent(v, host_pitch, &extent)) must(e, GT_ERR_OUT_OF_RANGE);
  if (fields) view_buffer(c, v, e);
  model_atomics(c, v.type, e); /* gt_write of rows off word boundaries */
}

static void op_transfer(reader *r, bool write) {
  fz_context *c = pick_ctx(r);
  gt_context *g = ctx_of(c);
  gt_view v = gen_view(r, pick_type(r, any_type(r)));
  size_t hp = pick_host_pitch(r, v);
  unsigned misalign = coin(r, 4) ? u8(r) % 4 : 0;
  bool null_host = coin(r, 16);
  unsigned char *host = (unsigned char *)(write ? fx.host_src : fx.host_dst) + misalign;
  expect e = {0, 0};
  model_transfer(c, v, null_host ? NULL : host, hp, &e);
  uint64_t extent = 0;
  if (e.must == 0 && (!host_extent(v, hp, &extent) || extent > (HOST_WORDS * 4 - misalign) / size_of(v.type))) {
    /* A valid call must not run past the host array: the caller's side of
     * the contract. */
    hp = 0;
    e.must = e.may = 0;
    model_transfer(c, v, null_host ? NULL : host, hp, &e);
  }
  uint32_t seed = u32(r);
  if (write)
    for (uint32_t i = 0; i <= HOST_WORDS; i++)
      fx.host_src[i] = noise(i, seed);
  else
    for (uint32_t i = 0; i <= HOST_WORDS; i++)
      fx.host_dst[i] = 0xA5A5A5A5u ^ i;
  memcpy(fx.host_old, write ? fx.host_src : fx.host_dst, sizeof fx.host_old);
  const char *what = write ? "gt_write" : "gt_read";
  trace("%s(%s, %s, host%s+%u, pitch %llu)", what, c ? c->name : "NULL", view_text(v),
        null_host ? " NULL" : "", misalign, (unsigned long long)hp);
  begin_call();
  gt_status s =
      write ? gt_write(g, v, null_host ? NULL : host, hp) : gt_read(g, v, null_host ? NULL : host, hp);
  end_call();
  count(write ? OP_WRITE : OP_READ, s);
  narrow_ok += s == GT_OK && size_of(v.type) < 4;
  check_status(what, g, s, e);
  plan_reset();
  size_t pitch = hp ? hp : v.cols, size = (size_t)size_of(v.type);
  if (s == GT_OK) {
    int b = buffer_index(v.buffer);
    for (uint32_t row = 0; row < v.rows; row++)
      for (uint32_t col = 0; col < v.cols; col++) {
        size_t at = ((size_t)row * pitch + col) * size;
        unsigned char *want = bytes_of(write ? want_words[b] : fx.buf[b].shadow) + element(v, row, col) * size;
        if (write) {
          memcpy(want, host + at, size);
        } else {
          if (memcmp(host + at, want, size) != 0)
            die("gt_read: host element (%u, %u) differs from the buffer's (%u bytes at byte %zu)", row, col,
                (unsigned)size, element(v, row, col) * size);
          memcpy((unsigned char *)fx.host_old + misalign + at, want, size);
        }
      }
  }
  if (memcmp(fx.host_old, write ? fx.host_src : fx.host_dst, sizeof fx.host_old) != 0)
    die("%s wrote host memory it should not have", what);
  verify_buffers(what);
}

/* ------------------------------------------------------------------ */
/* User kernels.                                                       */

static int live_kernels(const fz_context *c) {
  int n = 0;
  for (int i = 0; i < KERNEL_TABLE; i++)
    n += c->kernels[i].live;
  return n;
}

static const char *pick_name(reader *r, const char *usual, int *fate) {
  if (!coin(r, 12)) return usual;
  unsigned i = u8(r) % N_ODD;
  if (odd_names[i].fate > *fate) *fate = odd_names[i].fate;
  return odd_names[i].name;
}

/* The header's rule for a name on its own: a plain identifier, none of
 * GLSL's or the library's (the reserved words among the model's names). */
static bool valid_ident(const char *name) {
  static const char *const reserved[] = {"in",     "main",      "float",        "min",          "buffer",
                                         "layout", "sampler2D", "guarded_read", "guarded_write"};
  if (name == NULL || name[0] == '\0' || strlen(name) > GT_KERNEL_MAX_NAME) return false;
  if (name[0] >= '0' && name[0] <= '9') return false;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return false;
  for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
    if (strcmp(name, reserved[i]) == 0) return false;
  return strncmp(name, "gt_", 3) != 0 && strncmp(name, "gl_", 3) != 0 && strncmp(name, "GT_", 3) != 0 &&
         strncmp(name, "GL_", 3) != 0 && strstr(name, "__") == NULL;
}

/* name is a helper of the view called view: NAME_index, _extent, _read
 * or _write. */
static bool helper_name(const char *name, const char *view) {
  static const char *const suffixes[] = {"_index", "_extent", "_read", "_write"};
  size_t n = strlen(view);
  if (name == NULL || strncmp(name, view, n) != 0) return false;
  for (int i = 0; i < 4; i++)
    if (strcmp(name + n, suffixes[i]) == 0) return true;
  return false;
}

static void op_kernel_create(reader *r) {
  fz_context *c = pick_ctx(r);
  gt_context *g = ctx_of(c);
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  static const uint32_t tiles[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 2048};
  d.tile_rows = coin(r, 6) ? pick32(r) : tiles[u8(r) % 12];
  d.tile_cols = coin(r, 6) ? pick32(r) : tiles[u8(r) % 12];
  d.view_count = coin(r, 10) ? pick32(r) : u8(r) % 10;
  d.uniform_count = coin(r, 10) ? pick32(r) : u8(r) % 10;
  int name_fate = 0; /* the worst fate among the names used */
  unsigned first = u8(r);
  for (uint32_t i = 0; i < GT_KERNEL_MAX_VIEWS; i++) {
    int fate = 0;
    d.views[i].name = pick_name(r, safe_names[(first + i) % N_SAFE], &fate);
    d.views[i].type = pick_type(r, (gt_type)(1 + u8(r) % 3));
    d.views[i].access = (gt_access)(coin(r, 12) ? (coin(r, 2) ? 0u : 4u + u8(r) % 3) : 1u + u8(r) % 3);
    if (i < d.view_count && fate > name_fate) name_fate = fate;
  }
  for (uint32_t i = 0; i < GT_KERNEL_MAX_UNIFORMS; i++) {
    int fate = 0;
    d.uniforms[i].name = pick_name(r, safe_names[(first + GT_KERNEL_MAX_VIEWS + i) % N_SAFE], &fate);
    d.uniforms[i].type = (gt_uniform_type)(coin(r, 12) ? (coin(r, 2) ? 0u : 5u) : 1u + u8(r) % 4);
    if (i < d.uniform_count && fate > name_fate) name_fate = fate;
  }
  if (coin(r, 10) && d.view_count >= 2 && d.view_count <= GT_KERNEL_MAX_VIEWS)
    d.views[1].name = d.views[0].name; /* repeated */
  if (coin(r, 12) && d.view_count >= 1 && d.view_count <= GT_KERNEL_MAX_VIEWS && d.uniform_count >= 1 &&
      d.uniform_count <= GT_KERNEL_MAX_UNIFORMS)
    d.uniforms[0].name = d.views[0].name;

  /* The body: a template over the views (flavour 2 refused), one that does
   * nothing, a hostile one, garbage from the input, or none. */
  int flavour = -1, hostile = -1;
  bool garbage = false;
  switch (u8(r) % 10) {
  case 0: d.body = NULL; break;
  case 1: d.body = ""; break;
  case 2: d.body = "void main() {}"; break;
  case 3: {
    if (coin(r, 3)) {
      hostile = (int)(u8(r) % N_HOSTILE);
      d.body = hostile_bodies[hostile];
      break;
    }
    /* Bytes from the input, bare or inside main(). */
    static const char open[] = "void main() {\n";
    bool wrap = coin(r, 2);
    size_t n = u8(r) % 64, i = 0;
    if (wrap) i = (size_t)snprintf(body_text, sizeof body_text, "%s", open);
    while (n-- && r->n)
      body_text[i++] = (char)(u8(r) | 1); /* no NUL inside */
    if (wrap) body_text[i++] = '}';
    body_text[i] = '\0';
    d.body = body_text;
    garbage = true;
    break;
  }
  default:
    flavour = u8(r) % 4;
    template_body(&d, flavour, body_text, sizeof body_text);
    d.body = body_text;
    break;
  }
  bool null_desc = coin(r, 16), null_out = coin(r, 16);

  expect e = {0, 0};
  bool compiles = false;
  if (!g || null_desc || null_out) {
    must(&e, GT_ERR_INVALID_ARGUMENT);
  } else {
    if (d.body == NULL || d.body[0] == '\0') must(&e, GT_ERR_INVALID_ARGUMENT);
    if (flavour == 2) must(&e, GT_ERR_INVALID_ARGUMENT); /* return before a barrier */
    if (hostile >= 0) must(&e, GT_ERR_INVALID_ARGUMENT);
    if (hostile == (int)N_HOSTILE - 1) may(&e, GT_ERR_SHADER_BUILD); /* two words, no block */
    if (garbage) may(&e, GT_ERR_INVALID_ARGUMENT);                   /* the body's check */
    if (d.view_count > GT_KERNEL_MAX_VIEWS || d.uniform_count > GT_KERNEL_MAX_UNIFORMS) {
      must(&e, GT_ERR_INVALID_ARGUMENT);
    } else {
      const char *names[GT_KERNEL_MAX_VIEWS + GT_KERNEL_MAX_UNIFORMS];
      uint32_t n = 0;
      for (uint32_t i = 0; i < d.view_count; i++) {
        if (!known_type(d.views[i].type) || d.views[i].access < GT_ACCESS_READ ||
            d.views[i].access > GT_ACCESS_READ_WRITE)
          must(&e, GT_ERR_INVALID_ARGUMENT);
        else if (type_bytes(d.views[i].type) != 4)
          must(&e, GT_ERR_UNSUPPORTED); /* kernels' views are 32-bit arrays */
        names[n++] = d.views[i].name;
      }
      for (uint32_t i = 0; i < d.uniform_count; i++) {
        if (d.uniforms[i].type < GT_UNIFORM_INT || d.uniforms[i].type > GT_UNIFORM_VEC4)
          must(&e, GT_ERR_INVALID_ARGUMENT);
        names[n++] = d.uniforms[i].name;
      }
      for (uint32_t i = 0; i < n; i++) {
        if (!valid_ident(names[i])) must(&e, GT_ERR_INVALID_ARGUMENT);
        for (uint32_t j = i + 1; j < n; j++)
          if (names[i] && names[j] && strcmp(names[i], names[j]) == 0) must(&e, GT_ERR_INVALID_ARGUMENT);
        for (uint32_t j = 0; j < d.view_count; j++)
          if (d.views[j].name && helper_name(names[i], d.views[j].name)) must(&e, GT_ERR_INVALID_ARGUMENT);
      }
      if (name_fate == 1) must(&e, GT_ERR_INVALID_ARGUMENT);
    }
    uint64_t tr = d.tile_rows ? d.tile_rows : 16, tc = d.tile_cols ? d.tile_cols : 16;
    if (tr * tc > c->limits.max_invocations || tc > c->limits.max_group_size[0] ||
        tr > c->limits.max_group_size[1])
      must(&e, GT_ERR_UNSUPPORTED);
    if (d.view_count <= GT_KERNEL_MAX_VIEWS && d.view_count > c->limits.max_storage_blocks)
      must(&e, GT_ERR_UNSUPPORTED);
    if (garbage) may(&e, GT_ERR_SHADER_BUILD);
    if (live_kernels(c) >= KERNEL_TABLE && !e.must) must(&e, GT_ERR_OUT_OF_MEMORY);
    /* The last hostile body passes the check (two words to GLSL too) and
     * reaches the kernel table: a full one refuses it before compiling. */
    if (hostile == (int)N_HOSTILE - 1 && live_kernels(c) >= KERNEL_TABLE) may(&e, GT_ERR_OUT_OF_MEMORY);
    compiles = e.must == 0;
  }
  if (compiles && !in.no_context) {
    /* Compiling is the slow part: a few per input. */
    if (in.compile_budget <= 0) return;
    in.compile_budget--;
  }
  trace("gt_kernel_create(%s, desc %s{tile %ux%u, %u views, %u uniforms, body %s%.40s%s}, out%s)",
        c ? c->name : "NULL", null_desc ? "NULL " : "", d.tile_rows, d.tile_cols, d.view_count,
        d.uniform_count, d.body ? "\"" : "", d.body ? d.body : "NULL", d.body ? "\"" : "",
        null_out ? " NULL" : "");
  gt_kernel_id id = 0;
  begin_call();
  gt_status s = gt_kernel_create(g, null_desc ? NULL : &d, null_out ? NULL : &id);
  end_call();
  count(OP_KERNEL_CREATE, s);
  check_status("gt_kernel_create", g, s, e);
  if (s == GT_OK) {
    fz_kernel *k = new_kernel(c, id);
    k->tile_rows = d.tile_rows ? d.tile_rows : 16;
    k->tile_cols = d.tile_cols ? d.tile_cols : 16;
    k->view_count = d.view_count;
    k->uniform_count = d.uniform_count;
    for (uint32_t i = 0; i < d.view_count; i++) {
      k->types[i] = d.views[i].type;
      k->access[i] = d.views[i].access;
    }
    in.created[in.created_count].c = c;
    in.created[in.created_count++].id = id;
  }
  plan_reset();
  verify_buffers("gt_kernel_create");
}

static gt_kernel_id pick_kernel_id(reader *r, const fz_context *c) {
  uint8_t b = u8(r) % 12;
  if (c && b < 6 && c->persistent_count)
    return c->persistent[u8(r) % (c->persistent_count < 4 ? c->persistent_count : 4)];
  if (c && b < 9 && in.created_count) return in.created[u8(r) % in.created_count].id;
  if (c && b < 10 && c->destroyed) return c->destroyed;
  static const uint32_t odd[] = {0, 17, 0xFFFFFFFFu, 0x80000000u, 16, 15};
  return odd[u8(r) % 6];
}

static void op_kernel_dispatch(reader *r) {
  fz_context *c = pick_ctx(r);
  gt_context *g = ctx_of(c);
  gt_kernel_id id = pick_kernel_id(r, c);
  const fz_kernel *k = kernel_of(c, id);
  gt_dispatch_desc d;
  memset(&d, 0, sizeof d);
  d.extent.rows = coin(r, 3) ? pick32(r) : pick_dim(r);
  d.extent.cols = coin(r, 3) ? pick32(r) : pick_dim(r);
  if (k && coin(r, 3)) { /* whole tiles */
    d.extent.rows = k->tile_rows * (1u + u8(r) % 3);
    d.extent.cols = k->tile_cols * (1u + u8(r) % 3);
  }
  d.policy = (gt_policy)(coin(r, 12) ? (coin(r, 2) ? 3u : 0x7FFFFFFFu) : u8(r) % 3u);
  gt_view views[GT_KERNEL_MAX_VIEWS];
  gt_uniform_value uniforms[GT_KERNEL_MAX_UNIFORMS];
  for (uint32_t i = 0; i < GT_KERNEL_MAX_VIEWS; i++) {
    gt_type t = k && i < k->view_count ? k->types[i] : GT_U32;
    if (coin(r, 3)) {
      views[i] = gen_view(r, t);
    } else {
      uint32_t rows = pick_dim(r);
      views[i] = shaped_view(r, rows, pick_dim(r), t);
    }
  }
  for (uint32_t i = 0; i < GT_KERNEL_MAX_UNIFORMS; i++)
    for (int j = 0; j < 4; j++) {
      uint32_t w = coin(r, 2) ? u8(r) : u32(r);
      memcpy(&uniforms[i].v4[j], &w, 4);
    }
  d.views = coin(r, 16) ? NULL : views;
  d.uniforms = coin(r, 16) ? NULL : uniforms;
  bool null_desc = coin(r, 16), null_result = coin(r, 4);
  for (uint32_t i = 0; k && i < k->view_count; i++)
    for (uint32_t j = 0; j < i; j++)
      if (slow_alias(views[i], views[j])) {
        slow_skipped++;
        return;
      }

  expect e = {0, 0};
  gt_extent grid = d.extent;
  for (int attempt = 0; attempt < 2; attempt++) {
    e.must = e.may = 0;
    if (!g || null_desc || !k) {
      must(&e, GT_ERR_INVALID_ARGUMENT);
      break;
    }
    if (d.extent.rows == 0 || d.extent.cols == 0) must(&e, GT_ERR_INVALID_ARGUMENT);
    if ((unsigned)d.policy > GT_POLICY_TRUNCATE) must(&e, GT_ERR_INVALID_ARGUMENT);
    if (k->view_count && !d.views) must(&e, GT_ERR_INVALID_ARGUMENT);
    if (k->uniform_count && !d.uniforms) must(&e, GT_ERR_INVALID_ARGUMENT);
    for (uint32_t i = 0; d.views && i < k->view_count; i++) {
      if (view_fields(views[i], &e) && views[i].type == k->types[i]) view_buffer(c, views[i], &e);
      if (views[i].type != k->types[i]) must(&e, GT_ERR_SHAPE_MISMATCH);
    }
    uint64_t tr = k->tile_rows, tc = k->tile_cols, er = d.extent.rows, ec = d.extent.cols;
    if (d.policy == GT_POLICY_EXACT && (er % tr || ec % tc)) must(&e, GT_ERR_SHAPE_MISMATCH);
    uint64_t gr = er, gc = ec;
    if (d.policy == GT_POLICY_PAD) {
      gr = (er + tr - 1) / tr * tr;
      gc = (ec + tc - 1) / tc * tc;
      if (gr > UINT32_MAX || gc > UINT32_MAX) must(&e, GT_ERR_OUT_OF_RANGE);
    } else if (d.policy == GT_POLICY_TRUNCATE) {
      gr = er / tr * tr;
      gc = ec / tc * tc;
    }
    grid.rows = (uint32_t)gr;
    grid.cols = (uint32_t)gc;
    if (e.must || gr * gc <= DISPATCH_CAP || in.no_context) break;
    /* Valid, and too much work for one input: a smaller extent. */
    d.extent.rows = 1u + d.extent.rows % 48u;
    d.extent.cols = 1u + d.extent.cols % 48u;
    if (d.policy == GT_POLICY_EXACT) {
      d.extent.rows = k->tile_rows * (1u + d.extent.rows % 3u);
      d.extent.cols = k->tile_cols * (1u + d.extent.cols % 3u);
    }
  }
  trace("gt_kernel_dispatch(%s, %u, desc %s{%ux%u, policy %d, views%s, uniforms%s}, result%s)",
        c ? c->name : "NULL", id, null_desc ? "NULL " : "", d.extent.rows, d.extent.cols, (int)d.policy,
        d.views ? "" : " NULL", d.uniforms ? "" : " NULL", null_result ? " NULL" : "");
  for (uint32_t i = 0; k && i < k->view_count && i < GT_KERNEL_MAX_VIEWS; i++)
    trace("    view %u: %s", i, view_text(views[i]));
  gt_dispatch_result result;
  memset(&result, 0xCD, sizeof result);
  begin_call();
  gt_status s = gt_kernel_dispatch(g, id, null_desc ? NULL : &d, null_result ? NULL : &result);
  end_call();
  count(OP_KERNEL_DISPATCH, s);
  check_status("gt_kernel_dispatch", g, s, e);
  plan_reset();
  if (s == GT_OK) {
    /* Any body, garbage too, reaches a view only through its helpers,
     * which stay inside the view: bytes outside the written views keep
     * their values. */
    for (uint32_t i = 0; i < k->view_count; i++)
      if (k->access[i] != GT_ACCESS_READ) plan_loose(views[i]);
    if (!null_result) {
      gt_extent main = d.policy == GT_POLICY_TRUNCATE ? grid : d.extent;
      gt_extent bottom = {d.extent.rows - main.rows, main.cols},
                right = {d.extent.rows, d.extent.cols - main.cols};
      if (!bottom.rows || !bottom.cols) bottom.rows = bottom.cols = 0;
      if (!right.rows || !right.cols) right.rows = right.cols = 0;
      if (result.main.rows != main.rows || result.main.cols != main.cols ||
          result.bottom.rows != bottom.rows || result.bottom.cols != bottom.cols ||
          result.right.rows != right.rows || result.right.cols != right.cols)
        die("gt_kernel_dispatch result: main %ux%u bottom %ux%u right %ux%u; expected %ux%u, %ux%u, %ux%u",
            result.main.rows, result.main.cols, result.bottom.rows, result.bottom.cols, result.right.rows,
            result.right.cols, main.rows, main.cols, bottom.rows, bottom.cols, right.rows, right.cols);
    }
  }
  verify_buffers("gt_kernel_dispatch");
}

static void op_kernel_destroy(reader *r) {
  uint8_t b = u8(r) % 8;
  fz_context *c = b == 0 ? NULL : b < 3 ? &fx.min : b == 3 ? &fx.img : &fx.main;
  gt_kernel_id id;
  if (c && in.created_count && coin(r, 2)) {
    id = in.created[u8(r) % in.created_count].id; /* maybe another context's */
  } else {
    static const uint32_t odd[] = {0, 17, 0xFFFFFFFFu, 0x80000000u, 16, 12};
    id = odd[u8(r) % 6];
  }
  /* The persistent kernels stay. */
  for (uint32_t i = 0; c && i < c->persistent_count; i++)
    if (c->persistent[i] == id) return;
  trace("gt_kernel_destroy(%s, %u)", c ? c->name : "NULL", id);
  begin_call();
  gt_kernel_destroy(ctx_of(c), id);
  end_call();
  count(OP_KERNEL_DESTROY, GT_OK);
  fz_kernel *gone = in.no_context ? NULL : kernel_of(c, id);
  if (gone) {
    gone->live = false;
    c->destroyed = id;
  }
  check_gl_clean("gt_kernel_destroy");
}

/* ------------------------------------------------------------------ */
/* Context creation.                                                   */

static unsigned long alloc_calls, free_calls;

static void *counting_alloc(size_t size, void *user) {
  alloc_calls++;
  if (user == (void *)&fx.arena) return NULL; /* the failing allocator */
  return malloc(size);
}

static void counting_free(void *p, void *user) {
  (void)user;
  if (p) free_calls++;
  free(p);
}

static void op_context_init(reader *r) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  uint8_t a = u8(r) % 6;
  if (a == 1 || a == 2 || a == 5) {
    d.allocator.alloc = counting_alloc;
    d.allocator.free = counting_free;
    d.allocator.user = a == 2 ? (void *)&fx.arena : NULL;
  }
  if (a == 3) d.allocator.alloc = counting_alloc;
  if (a == 4) d.allocator.free = counting_free;
  if (coin(r, 2)) d.logger.log = fz_log;
  d.min_limits = coin(r, 2);
  d.matmul_kernel = (gt_matmul_kernel)(coin(r, 8) ? (coin(r, 2) ? 4u : 0x7FFFFFFFu) : u8(r) % 4u);
  /* The table's slots: the default, a table of one or two (every later
   * program then takes the least recent one's slot), the arena's most,
   * or past the library's most. */
  static const uint32_t slots[] = {0, 1, 2, FUZZ_MOST_SLOTS, 65537, 0xFFFFFFFFu};
  d.program_slots = coin(r, 4) ? slots[u8(r) % 6] : 0;
  bool null_desc = coin(r, 8), null_out = coin(r, 16), use_mem = coin(r, 2);
  size_t off = use_mem ? u8(r) % 17 : 0, need = gt_context_size(null_desc ? NULL : &d);
  size_t size;
  switch (u8(r) % 4) {
  case 0: size = need; break;
  case 1: size = need - 1 + u8(r) % 3; break;
  case 2: size = pick_size(r); break;
  default: size = 0; break;
  }
  if (need + off > fx.arena_size) die("gt_context_size grew to %zu bytes", need);
  void *mem = use_mem ? fx.arena + off : NULL;
  const gt_context_desc *dp = null_desc ? NULL : &d;

  expect e = {0, 0};
  gt_context_desc z;
  memset(&z, 0, sizeof z);
  const gt_context_desc *dd = dp ? dp : &z;
  if (null_out) must(&e, GT_ERR_INVALID_ARGUMENT);
  if ((dd->allocator.alloc == NULL) != (dd->allocator.free == NULL)) must(&e, GT_ERR_INVALID_ARGUMENT);
  if ((unsigned)dd->matmul_kernel > GT_MATMUL_KERNEL_REGISTERS_K1) must(&e, GT_ERR_INVALID_ARGUMENT);
  if (dd->program_slots > 65536) {
    must(&e, GT_ERR_INVALID_ARGUMENT);
    if (need != 0) die("gt_context_size of %u program slots: %zu, not 0", dd->program_slots, need);
  }
  if (mem) {
    if (size < need) must(&e, GT_ERR_OUT_OF_MEMORY);
    if (off % sizeof(void *) || off % 8) must(&e, GT_ERR_INVALID_ARGUMENT);
    if (off % 16) may(&e, GT_ERR_INVALID_ARGUMENT); /* "aligned for any object" */
  } else if (dd->allocator.alloc && dd->allocator.user == (void *)&fx.arena) {
    must(&e, GT_ERR_OUT_OF_MEMORY);
  }
  if (in.no_context) must(&e, GT_ERR_NO_CONTEXT);
  if (dd->matmul_kernel == GT_MATMUL_KERNEL_SHARED || dd->matmul_kernel == GT_MATMUL_KERNEL_TEXELS) {
    /* SHARED needs 256 invocations, the minimum is 128; TEXELS needs
     * texture buffers, which ES 3.1 has not. */
    if (dd->min_limits)
      must(&e, GT_ERR_UNSUPPORTED);
    else
      may(&e, GT_ERR_UNSUPPORTED);
  }
  trace("gt_context_init(mem %s+%zu, size %zu of %zu, desc %s{alloc %d, log %d, min %d, kernel %d, slots %u}, "
        "out%s)",
        mem ? "arena" : "NULL", off, size, need, null_desc ? "NULL " : "", a, d.logger.log != NULL,
        d.min_limits, (int)d.matmul_kernel, d.program_slots, null_out ? " NULL" : "");
  alloc_calls = free_calls = 0;
  gt_context *out = NULL;
  begin_call();
  gt_status s = gt_context_init(mem, size, dp, null_out ? NULL : &out);
  end_call();
  count(OP_CONTEXT_INIT, s);
  check_status("gt_context_init", NULL, s, e);
  if (s == GT_OK) {
    if (out == NULL) die("gt_context_init returned GT_OK and no context");
    if (mem && ((unsigned char *)out < (unsigned char *)mem ||
                (size_t)((unsigned char *)out - (unsigned char *)mem) > size - need))
      die("gt_context_init put the context outside the memory given");
    gt_limits l = gt_context_limits(out);
    uint32_t tile = gt_context_default_tile(out);
    gt_strategy st = gt_context_auto_strategy(out);
    gt_matmul_kernel mk = gt_context_matmul_kernel(out);
    if (l.storage_offset_alignment == 0 || l.storage_offset_alignment % 4 || l.max_invocations == 0)
      die("gt_context_limits of a new context: alignment %u, invocations %u", l.storage_offset_alignment,
          l.max_invocations);
    if (dd->min_limits && (l.max_invocations > 128 || l.max_shared_bytes > 16384 || l.max_storage_blocks > 4))
      die("min_limits context with limits above the ES 3.1 minimums");
    if (tile != 8 && tile != 16 && tile != 32) die("default tile %u", tile);
    if (st == GT_STRATEGY_AUTO || (unsigned)st > GT_STRATEGY_TRUNCATE_B) die("auto strategy %d", (int)st);
    if (mk != GT_MATMUL_KERNEL_REGISTERS && mk != GT_MATMUL_KERNEL_SHARED && mk != GT_MATMUL_KERNEL_TEXELS &&
        mk != GT_MATMUL_KERNEL_REGISTERS_K1)
      die("matmul kernel %d", (int)mk);
    if (dd->min_limits && mk == GT_MATMUL_KERNEL_TEXELS) die("TEXELS on a min_limits context");
    if (dd->matmul_kernel && mk != dd->matmul_kernel)
      die("matmul kernel %d asked, %d in effect", (int)dd->matmul_kernel, (int)mk);
    if (gt_context_renderer(out) == NULL) die("gt_context_renderer is NULL");
    gt_context_release(out);
  }
  bool failing = dd->allocator.user == (void *)&fx.arena;
  if (mem && alloc_calls) die("gt_context_init used the allocator although memory was given");
  if (!failing && alloc_calls != free_calls)
    die("gt_context_init: %lu allocations and %lu frees once released", alloc_calls, free_calls);
  if (s == GT_OK && !mem && dd->allocator.alloc && alloc_calls != 1)
    die("gt_context_init allocated %lu times", alloc_calls);
  check_gl_clean("gt_context_init");
}

/* ------------------------------------------------------------------ */
/* Calls with no current context, and queries.                         */

static void run_op(enum op_kind op, reader *r);

static void op_no_context(reader *r) {
  static const enum op_kind ops[] = {OP_TRANSPOSE,      OP_COPY,         OP_MATMUL,        OP_WRITE,
                                     OP_READ,           OP_IMAGE,        OP_KERNEL_CREATE, OP_KERNEL_DISPATCH,
                                     OP_KERNEL_DESTROY, OP_CONTEXT_INIT, OP_QUERIES,       OP_MATMUL_BATCHED};
  enum op_kind op = ops[u8(r) % (sizeof ops / sizeof ops[0])];
  trace("(no current context for the next call)");
  in.no_context = true;
  run_op(op, r);
  in.no_context = false;
}

static void op_queries(reader *r) {
  uint8_t b = u8(r) % 4;
  fz_context *c = b == 0 ? NULL : b == 1 ? &fx.min : b == 2 ? &fx.img : &fx.main;
  gt_context *g = ctx_of(c);
  trace("gt_finish(%s) and the context queries", c ? c->name : "NULL");
  expect e = {0, 0};
  if (!g) must(&e, GT_ERR_INVALID_ARGUMENT);
  begin_call();
  gt_status s = gt_finish(g);
  end_call();
  count(OP_QUERIES, s);
  check_status("gt_finish", g, s, e);
  if (c) {
    gt_limits l = gt_context_limits(g);
    if (memcmp(&l, &c->limits, sizeof l) != 0) die("gt_context_limits(%s) changed", c->name);
    if (gt_context_default_tile(g) != c->default_tile) die("gt_context_default_tile(%s) changed", c->name);
    if (gt_context_auto_strategy(g) != c->auto_strategy) die("gt_context_auto_strategy(%s) changed", c->name);
    const char *renderer = gt_context_renderer(g);
    if (renderer == NULL || renderer[0] == '\0') die("gt_context_renderer(%s) is empty", c->name);
  }
  check_gl_clean("gt_finish");
}

/* Program binaries: a cache saved into fuzzed sizes (nothing past
 * *written may change, and nothing at all on a refusal), then loaded
 * whole, cut short, with fuzzed bytes changed, or as fuzzed bytes alone.
 * Whatever loads must serve later calls, whose results are checked. */
static void op_program_cache(reader *r) {
  static unsigned char blob[1 << 19], copy[sizeof blob];
  fz_context *c = &fx.main;
  gt_context *g = ctx_of(c);
  size_t size = 0, written = 0;
  gt_status s = gt_program_cache_size(g, &size);
  count(OP_PROGRAM_CACHE, s);
  if (s != GT_OK || size > sizeof blob) {
    if (!in.no_context && s != GT_OK) die("gt_program_cache_size: %s", status_name(s));
    return;
  }
  size_t room = size;
  switch (u8(r) % 4) {
  case 0: room = 0; break;
  case 1: room = size - 1 - u8(r) % (size < 2 ? 1 : 2); break;
  case 2: room = sizeof blob; break;
  default: break;
  }
  memset(blob, 0xA5, sizeof blob);
  trace("gt_program_cache_save(main, %zu bytes of %zu)", room, size);
  begin_call();
  s = gt_program_cache_save(g, blob, room, &written);
  end_call();
  count(OP_PROGRAM_CACHE, s);
  expect e = {0, 0};
  if (room < size) must(&e, GT_ERR_OUT_OF_MEMORY);
  check_status("gt_program_cache_save", g, s, e);
  size_t untouched = s == GT_OK ? written : 0;
  if (s == GT_OK && written != size) die("gt_program_cache_save wrote %zu bytes of %zu", written, size);
  for (size_t i = untouched; i < sizeof blob; i++)
    if (blob[i] != 0xA5) die("gt_program_cache_save changed byte %zu past what it wrote", i);
  if (s != GT_OK) return;

  memcpy(copy, blob, written);
  size_t length = written;
  uint8_t how = u8(r) % 4;
  if (how == 1) length = written - u32(r) % (written + 1);
  if (how == 2)
    for (int flips = 1 + u8(r) % 4; flips > 0; flips--)
      copy[u32(r) % written] ^= (unsigned char)(1u << (u8(r) % 8));
  if (how == 3) {
    length = u8(r) % 200;
    for (size_t i = 0; i < length; i++)
      copy[i] = u8(r);
  }
  uint32_t loaded = 12345;
  trace("gt_program_cache_load(main, %zu bytes, way %u)", length, (unsigned)how);
  begin_call();
  s = gt_program_cache_load(g, copy, length, &loaded);
  end_call();
  count(OP_PROGRAM_CACHE, s);
  e = (expect){0, 0};
  /* A damaged or cut cache is refused; changed header text is ignored. */
  may(&e, GT_ERR_BAD_CACHE);
  check_status("gt_program_cache_load", g, s, e);
  if (how == 0 && s != GT_OK && !in.no_context)
    die("gt_program_cache_load of its own save: %s", status_name(s));
  if (s != GT_OK && loaded != 0) die("gt_program_cache_load failed but says %u loaded", loaded);
  /* Every program of the table is built already: none is taken twice. */
  if (s == GT_OK && loaded != 0) die("gt_program_cache_load took %u programs the table has", loaded);
  check_gl_clean("gt_program_cache_load");
}

/* ------------------------------------------------------------------ */
/* The input.                                                          */

/* Op selectors: the byte modulo the table; calls with GPU work and the
 * validation-heavy ones most often. */
static const enum op_kind op_table[32] = {OP_PURE,
                                          OP_SECTION,
                                          OP_VIEWS_ALIAS,
                                          OP_IMAGES_ALIAS,
                                          OP_TRANSPOSE,
                                          OP_COPY,
                                          OP_MATMUL,
                                          OP_WRITE,
                                          OP_READ,
                                          OP_IMAGE,
                                          OP_KERNEL_CREATE,
                                          OP_KERNEL_DISPATCH,
                                          OP_KERNEL_DESTROY,
                                          OP_CONTEXT_INIT,
                                          OP_NO_CONTEXT,
                                          OP_QUERIES,
                                          OP_TRANSPOSE,
                                          OP_TRANSPOSE,
                                          OP_COPY,
                                          OP_MATMUL,
                                          OP_MATMUL_BATCHED,
                                          OP_WRITE,
                                          OP_READ,
                                          OP_IMAGE,
                                          OP_KERNEL_DISPATCH,
                                          OP_KERNEL_DISPATCH,
                                          OP_KERNEL_CREATE,
                                          OP_SECTION,
                                          OP_VIEWS_ALIAS,
                                          OP_VIEWS_ALIAS,
                                          OP_PROGRAM_CACHE,
                                          OP_CONTEXT_INIT};

static void run_op(enum op_kind op, reader *r) {
  switch (op) {
  case OP_PURE: op_pure(r); break;
  case OP_SECTION: op_section(r); break;
  case OP_VIEWS_ALIAS: op_views_alias(r); break;
  case OP_IMAGES_ALIAS: op_images_alias(r); break;
  case OP_TRANSPOSE: op_transpose(r); break;
  case OP_COPY: op_copy(r); break;
  case OP_MATMUL: op_matmul(r, false); break;
  case OP_WRITE: op_transfer(r, true); break;
  case OP_READ: op_transfer(r, false); break;
  case OP_IMAGE: op_image(r); break;
  case OP_KERNEL_CREATE: op_kernel_create(r); break;
  case OP_KERNEL_DISPATCH: op_kernel_dispatch(r); break;
  case OP_KERNEL_DESTROY: op_kernel_destroy(r); break;
  case OP_CONTEXT_INIT: op_context_init(r); break;
  case OP_NO_CONTEXT:
    if (!in.no_context) op_no_context(r);
    break;
  case OP_QUERIES: op_queries(r); break;
  case OP_PROGRAM_CACHE: op_program_cache(r); break;
  case OP_MATMUL_BATCHED: op_matmul(r, true); break;
  case OP_COUNT: break;
  }
}

static int run_input(const uint8_t *data, size_t size) {
  if (!fixture_open()) return -1;
  memset(&in, 0, sizeof in);
  in.compile_budget = COMPILE_BUDGET;
  trace_count = 0;
  reader rd = {data, size};
  for (int i = 0; i < MAX_OPS && rd.n > 0; i++) {
    double start = seconds();
    int first = trace_count;
    run_op(op_table[u8(&rd) % 32], &rd);
    double ms = (seconds() - start) * 1e3;
    if (ms > 100 && first < trace_count) {
      size_t len = strlen(trace_lines[first]);
      snprintf(trace_lines[first] + len, sizeof trace_lines[0] - len, "  [%.0f ms]", ms);
    }
  }
  /* The input's kernels go, so the next input starts from the same table. */
  for (unsigned i = 0; i < in.created_count; i++) {
    fz_context *c = in.created[i].c;
    gt_kernel_id id = in.created[i].id;
    fz_kernel *k = kernel_of(c, id);
    c->destroyed = 0;
    if (k) {
      gt_kernel_destroy(c->ctx, id);
      k->live = false;
    }
  }
  return 0;
}

#ifdef GT_LIBFUZZER

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (run_input(data, size) != 0) {
    fprintf(stderr, "fuzz_api: no OpenGL ES 3.1 context (or the fixture failed): nothing to fuzz\n");
    exit(77);
  }
  return 0;
}

#else

/* ------------------------------------------------------------------ */
/* Replay without libFuzzer.                                           */

static uint64_t rng_state;

static uint64_t next_random(void) {
  /* xorshift64*: the same sequence everywhere. */
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static const char *const op_names[OP_COUNT] = {"pure",
                                               "gt_section",
                                               "gt_views_alias",
                                               "gt_images_alias",
                                               "gt_transpose",
                                               "gt_copy",
                                               "gt_matmul",
                                               "gt_write",
                                               "gt_read",
                                               "gt_image",
                                               "gt_kernel_create",
                                               "gt_kernel_dispatch",
                                               "gt_kernel_destroy",
                                               "gt_context_init",
                                               "no context",
                                               "queries",
                                               "program cache",
                                               "gt_matmul_batched"};

static unsigned long inputs_run;

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "fuzz_replay: cannot open %s\n", path);
    return 1;
  }
  static uint8_t data[1 << 16];
  size_t n = fread(data, 1, sizeof data, f);
  fclose(f);
  snprintf(input_name, sizeof input_name, "%s", path);
  if (run_input(data, n) != 0) return 77;
  inputs_run++;
  return 0;
}

static int run_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "fuzz_replay: no such file or directory: %s\n", path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) return run_file(path);
  DIR *dir = opendir(path);
  if (dir == NULL) return 1;
  int rc = 0;
  for (struct dirent *ent; rc == 0 && (ent = readdir(dir)) != NULL;) {
    if (ent->d_name[0] == '.') continue;
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", path, ent->d_name);
    if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) rc = run_file(full);
  }
  closedir(dir);
  return rc;
}

/* Seed inputs for the fuzzer: one starting with each kind of call, then a
 * few mixed ones; written as files seed-NN in dir. */
static int emit_seeds(const char *dir) {
  uint8_t data[192];
  int files = 0;
  for (int op = 0; op < OP_COUNT + 6; op++) {
    rng_state = 0x5EED0000u + (uint64_t)op;
    size_t n = op < OP_COUNT ? 96 : sizeof data;
    for (size_t i = 0; i < n; i++)
      data[i] = (uint8_t)(next_random() >> 56);
    if (op < OP_COUNT)
      for (int k = 0; k < 32; k++)
        if (op_table[k] == (enum op_kind)op) {
          data[0] = (uint8_t)k;
          break;
        }
    char path[4096];
    snprintf(path, sizeof path, "%s/seed-%02d-%s", dir, op, op < OP_COUNT ? op_names[op] : "mixed");
    for (char *p = path + strlen(dir) + 1; *p; p++)
      if (*p == ' ') *p = '_';
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, n, f) != n) {
      fprintf(stderr, "fuzz_replay: cannot write %s\n", path);
      if (f) fclose(f);
      return 1;
    }
    fclose(f);
    files++;
  }
  printf("%d seed inputs written to %s\n", files, dir);
  return 0;
}

static void usage(void) {
  fprintf(stderr, "usage: fuzz_replay [--random N] [--seed S] [--max-len L] [--only K [--save FILE]]\n"
                  "                   [FILE | DIR]...\n"
                  "       fuzz_replay --emit-seeds DIR\n"
                  "Runs the fuzz target's inputs without libFuzzer: the given files and the files\n"
                  "in the given directories, then N pseudo-random inputs of up to L bytes (512);\n"
                  "--only K runs only the K-th of them (--save: and writes it to FILE).\n"
                  "Inputs over 0.5 s are listed.\n");
}

int main(int argc, char **argv) {
  unsigned long random_inputs = 0, max_len = 512, only = 0;
  uint64_t seed = 1;
  const char *save = NULL;
  int rc = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--emit-seeds") == 0 && i + 1 < argc) return emit_seeds(argv[i + 1]);
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage();
      return 0;
    }
  }
  double t0 = seconds();
  if (!fixture_open()) {
    printf("no OpenGL ES 3.1 context: skipped\n");
    return 77;
  }
  for (int i = 1; i < argc && rc == 0; i++) {
    if (strcmp(argv[i], "--random") == 0 && i + 1 < argc) {
      random_inputs = strtoul(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--save") == 0 && i + 1 < argc) {
      save = argv[++i];
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = strtoul(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--max-len") == 0 && i + 1 < argc) {
      max_len = strtoul(argv[++i], NULL, 10);
    } else if (argv[i][0] == '-') {
      usage();
      return 2;
    } else {
      rc = run_path(argv[i]);
    }
  }
  if (rc != 0) return rc;
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
  static uint8_t data[1 << 16];
  if (max_len == 0 || max_len > sizeof data) max_len = sizeof data;
  for (unsigned long i = 0; i < random_inputs; i++) {
    size_t n = 1 + (size_t)(next_random() % max_len);
    for (size_t j = 0; j < n; j++)
      data[j] = (uint8_t)(next_random() >> 56);
    if (only && i + 1 != only) continue;
    snprintf(input_name, sizeof input_name, "--seed %llu --random %lu --only %lu", (unsigned long long)seed,
             i + 1, i + 1);
    if (save) {
      FILE *f = fopen(save, "wb");
      if (f == NULL || fwrite(data, 1, n, f) != n) {
        fprintf(stderr, "fuzz_replay: cannot write %s\n", save);
        if (f) fclose(f);
        return 1;
      }
      fclose(f);
    }
    double start = seconds();
    run_input(data, n);
    inputs_run++;
    double took = seconds() - start;
    if (took > 0.5) {
      printf("slow: random input %lu took %.2f s; its calls:\n", i + 1, took);
      for (int k = 0; k < trace_count; k++)
        printf("  %2d  %s\n", k, trace_lines[k]);
    }
  }
  double s = seconds() - t0;
  printf("%lu inputs in %.2f s (%.0f/s), no invariant violated\n", inputs_run, s,
         s > 0 ? (double)inputs_run / s : 0.0);
  if (slow_skipped)
    printf("%lu calls left out: two views of over 2^20 rows each (GT_FUZZ_SLOW_ALIAS)\n", slow_skipped);
  printf("%lu calls done on views of 2- or 1-byte elements\n", narrow_ok);
  printf("%-20s %10s %10s\n", "call", "ok", "refused");
  for (int k = 0; k < OP_COUNT; k++)
    if (op_ok[k] + op_refused[k]) printf("%-20s %10lu %10lu\n", op_names[k], op_ok[k], op_refused[k]);
  return 0;
}

#endif
