/* The calls `gltile compile` makes with AUTO so the library itself builds
 * every program AUTO chooses on this device: transposes (in place too)
 * and copies of 4-, 2- and 1-byte elements, frames of odd width among
 * them, matmul in every layout, f32, f16 (summed in f32 and in half) and
 * 8-bit (into an I32 or a requantised c), small and large c, batch-1 and
 * batch-8 products, one product and a batch, and the images, each on
 * views aligned and not, extents even and not. Each program is named by
 * the calls that asked for it (its `calls`, the first its `call`). What is built is what the
 * library chose: nothing here re-derives its choices. */
#include "compile.h"
#include "ir3_listing.h"
#include "stderr_capture.h"
#include "v3d_listing.h"

#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* 8 MiB each: a 1918 x 1079 frame of 4-byte pixels, b of 1024 x 1024
 * floats */
enum { BUFFER_WORDS = 1u << 21 };

typedef struct catalogue {
  gt_context *ctx;
  GLuint buffers[3];
  int refused, failed;
  chosen_program *chosen; /* each call's programs, in the order of the calls */
  size_t count, capacity;
  uint32_t clock; /* the program table's, after the last call */
} catalogue;

/* The programs the last call asked for: this call's. */
static void attribute(catalogue *c, const char *call) {
  static gt_program_id used[GT_COMPILE_MAX_PROGRAMS];
  size_t n = gt_context_programs_used(c->ctx, &c->clock, used, GT_COMPILE_MAX_PROGRAMS);
  for (size_t i = 0; i < n && i < GT_COMPILE_MAX_PROGRAMS; i++) {
    if (c->count < c->capacity) {
      c->chosen[c->count].key = used[i];
      snprintf(c->chosen[c->count].call, sizeof c->chosen[c->count].call, "%s", call);
    }
    c->count++; /* past capacity: counted, so the caller sees it */
  }
}

/* One AUTO call's outcome, then its programs; call says what it was. */
static void note(catalogue *c, const char *call, gt_status s) {
  attribute(c, call);
  if (s == GT_OK) return;
  if (s == GT_ERR_UNSUPPORTED) { /* the device cannot (shader atomics, texel buffers): said, not failed */
    c->refused++;
    return;
  }
  fprintf(stderr, "gltile compile: AUTO %s: %s\n", call, gt_status_string(s));
  c->failed++;
}

/* Rows on 16 bytes (offset and pitch), as the vector kernels want them. */
static bool aligned(size_t offset, uint32_t pitch, gt_type t) {
  size_t bytes = gt_type_size(t);
  return offset * bytes % 16 == 0 && pitch * bytes % 16 == 0;
}

static gt_view view(GLuint buffer, size_t offset, uint32_t rows, uint32_t cols, uint32_t pitch, gt_type t) {
  gt_view v = {buffer, offset, rows, cols, pitch, t};
  return v;
}

static void transposes(catalogue *c, gt_type t) {
  /* rows x cols at offset, pitch: even and 16-byte aligned, a multiple of
   * 64; uneven with rows on words; odd offset and pitch; a frame of odd
   * width (1918 x 1079, 4-byte pixels such as RGBA8 where t is 4 bytes
   * wide), the whole buffer. */
  static const uint32_t shapes[][4] = {
      {256, 256, 0, 256}, {260, 132, 0, 132}, {257, 131, 1, 133}, {1079, 1918, 0, 1918}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    const uint32_t *s = shapes[i];
    gt_view src = view(c->buffers[0], s[2], s[0], s[1], s[3], t);
    gt_view dst = view(c->buffers[1], s[2], s[1], s[0], s[0] + 2 * s[2], t);
    char call[GT_COMPILE_CALL_TEXT];
    const char *rows = aligned(s[2], s[3], t) ? "aligned" : "unaligned";
    snprintf(call, sizeof call, "transpose %s %ux%u %s", gt_type_name(t), s[0], s[1], rows);
    note(c, call, gt_transpose(c->ctx, src, dst, NULL));
    snprintf(call, sizeof call, "copy %s %ux%u %s", gt_type_name(t), s[0], s[1], rows);
    note(c, call, gt_copy(c->ctx, src, view(c->buffers[1], s[2], s[0], s[1], s[3], t)));
  }
  /* In place: a square the tile divides, and one it does not. */
  for (uint32_t n = 96; n <= 97; n++) {
    gt_view square = view(c->buffers[0], 0, n, n, 0, t);
    char call[GT_COMPILE_CALL_TEXT];
    snprintf(call, sizeof call, "transpose %s %ux%u in place", gt_type_name(t), n, n);
    note(c, call, gt_transpose(c->ctx, square, square, NULL));
  }
}

static const char *const layouts[] = {"a b", "a^T b", "a b^T", "a^T b^T"};

static void matmuls(catalogue *c, gt_type in, gt_type out, gt_precision precision) {
  /* m, n, k, whether the views' rows are 16-byte aligned, and what else
   * runs on them (EXTRA_EPILOGUE: the epilogue and, quantised, per-column
   * requantisation; EXTRA_BATCH: a batch of two): small c, c of 64 blocks
   * of 128 x 128 (the shared kernel's threshold on some devices), K short
   * and long, uneven extents, 3 rows past whole blocks (the shared
   * kernel's thin band), aligned rows past whole tiles of the registers
   * kernel (the interior program beside the edges' programs, each with an
   * epilogue and batched too), and batch-1 and batch-8 products, an
   * inference layer's (in the layout a b^T its weights are out x in). */
  enum { EXTRA_EPILOGUE = 1, EXTRA_BATCH = 2 };
  static const uint32_t shapes[][5] = {{64, 64, 64, 1, EXTRA_EPILOGUE | EXTRA_BATCH},
                                       {61, 67, 53, 0, EXTRA_EPILOGUE},
                                       {1024, 1024, 16, 1, 0},
                                       {1023, 1021, 17, 0, 0},
                                       {96, 96, 5000, 1, 0},
                                       {1027, 1020, 17, 0, 0},
                                       {100, 68, 33, 1, EXTRA_EPILOGUE | EXTRA_BATCH},
                                       {1, 1024, 1024, 1, 0},
                                       {8, 1024, 1024, 1, 0}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (int layout = 0; layout < 4; layout++) {
      uint32_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
      size_t off = shapes[i][3] ? 0 : 1;
      gt_matmul_desc d = {.strategy = GT_STRATEGY_AUTO,
                          .trans_a = layout & 1,
                          .trans_b = layout >> 1,
                          .alpha = 1.0f,
                          .precision = precision};
      bool bytes = in == GT_U8 || in == GT_I8, requantized = bytes && out != GT_I32;
      if (bytes)
        d.quant = (gt_quantization){
            .zero_a = 1, .zero_b = 2, .multiplier = requantized ? 1 << 30 : 0, .shift = requantized ? -8 : 0};
      if (requantized && k > 4096) continue; /* one slice of K: refused */
      gt_view a = d.trans_a ? view(c->buffers[0], off, k, m, 0, in) : view(c->buffers[0], off, m, k, 0, in);
      gt_view b = d.trans_b ? view(c->buffers[1], off, n, k, 0, in) : view(c->buffers[1], off, k, n, 0, in);
      gt_view cv = view(c->buffers[2], off, m, n, 0, out);
      char call[GT_COMPILE_CALL_TEXT];
      int at = snprintf(call, sizeof call, "matmul %s>%s%s %s %ux%ux%u %s", gt_type_name(in), gt_type_name(out),
                        precision == GT_PRECISION_HALF ? " half sums" : "", layouts[layout], m, n, k,
                        shapes[i][3] ? "aligned" : "unaligned");
      char *more = call + at;
      size_t room = sizeof call - (size_t)at;
      note(c, call, gt_matmul(c->ctx, a, b, cv, &d));
      uint32_t extra = shapes[i][4];
      if (extra & EXTRA_EPILOGUE) { /* a bias per column (b's first row, or column) and CLAMP */
        gt_matmul_desc e = d;
        e.bias = view(c->buffers[1], off, 1, n, 0, bytes ? GT_I32 : GT_F32);
        e.act = GT_ACTIVATION_CLAMP;
        e.act_hi = bytes ? 100.0f : 1.0f;
        snprintf(more, room, " epilogue");
        note(c, call, gt_matmul(c->ctx, a, b, cv, &e));
      }
      if ((extra & EXTRA_EPILOGUE) && requantized) { /* per column, from a's buffer */
        gt_matmul_desc e = d;
        e.quant.multiplier = e.quant.shift = 0;
        e.quant.multipliers = view(c->buffers[0], off, 1, n, 0, GT_I32);
        e.quant.shifts = view(c->buffers[0], off + n, 1, n, 0, GT_I32);
        snprintf(more, room, " per column");
        note(c, call, gt_matmul(c->ctx, a, b, cv, &e));
      }
      if (extra & EXTRA_BATCH) { /* a batch of two, each operand its own */
        gt_batch batch = {2, (size_t)m * k, (size_t)k * n, (size_t)m * n};
        snprintf(more, room, " batch 2");
        note(c, call, gt_matmul_batched(c->ctx, a, b, cv, batch, &d));
      }
    }
}

static void images(catalogue *c) {
  static const GLenum internal[] = {GL_R32F, GL_RGBA8};
  static const gt_format formats[] = {GT_FORMAT_R32F, GT_FORMAT_RGBA8};
  static const char *const format_names[] = {"r32f", "rgba8"};
  for (int f = 0; f < 2; f++) {
    GLuint tex[2];
    glGenTextures(2, tex);
    for (int i = 0; i < 2; i++) {
      glBindTexture(GL_TEXTURE_2D, tex[i]);
      glTexStorage2D(GL_TEXTURE_2D, 1, internal[f], 96, 96);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    /* A window the tile divides and one it does not. */
    for (uint32_t side = 64; side <= 65; side++) {
      gt_image src = {tex[0], 0, 0, 0, side, side, formats[f]},
               dst = {tex[1], 0, 0, 0, side, side, formats[f]};
      char call[GT_COMPILE_CALL_TEXT];
      snprintf(call, sizeof call, "image transpose %s %ux%u", format_names[f], side, side);
      note(c, call, gt_image_transpose(c->ctx, src, dst, NULL));
      for (uint32_t turns = 1; turns <= 3; turns++) {
        snprintf(call, sizeof call, "image rotate %u %s %ux%u", 90 * turns, format_names[f], side, side);
        note(c, call, gt_image_rotate(c->ctx, src, dst, turns, NULL));
      }
    }
    glDeleteTextures(2, tex);
  }
}

/* The headline calls, first so that their programs are named by them:
 * an aligned f32 1024^2 transpose and 1024^3 c = a b, the figures every
 * other call's are held to (tests/mobile_targets.csv). */
static void headlines(catalogue *c) {
  gt_view a = view(c->buffers[0], 0, 1024, 1024, 0, GT_F32), b = view(c->buffers[1], 0, 1024, 1024, 0, GT_F32);
  note(c, "transpose f32 1024x1024 aligned", gt_transpose(c->ctx, a, b, NULL));
  gt_matmul_desc d = {.strategy = GT_STRATEGY_AUTO, .alpha = 1.0f};
  note(c, "matmul f32>f32 a b 1024x1024x1024 aligned",
       gt_matmul(c->ctx, a, b, view(c->buffers[2], 0, 1024, 1024, 0, GT_F32), &d));
}

int compile_auto_calls(gt_context *ctx, int *refused, chosen_program *chosen, size_t capacity, size_t *count) {
  catalogue c = {ctx, {0, 0, 0}, 0, 0, chosen, 0, capacity, 0};
  for (int i = 0; i < 3; i++) {
    c.buffers[i] = tool_buffer(BUFFER_WORDS, NULL);
    if (c.buffers[i] == 0) {
      fprintf(stderr, "gltile compile: no buffer of %u words\n", BUFFER_WORDS);
      return 1;
    }
  }
  headlines(&c);
  static const gt_type moved[] = {GT_F32, GT_F16, GT_U8};
  for (int i = 0; i < 3; i++)
    transposes(&c, moved[i]);
  matmuls(&c, GT_F32, GT_F32, GT_PRECISION_FLOAT);
  static const gt_precision half_sums[] = {GT_PRECISION_FLOAT, GT_PRECISION_HALF};
  for (int i = 0; i < 2; i++) {
    matmuls(&c, GT_F16, GT_F32, half_sums[i]);
    matmuls(&c, GT_F16, GT_F16, half_sums[i]);
  }
  matmuls(&c, GT_U8, GT_I32, GT_PRECISION_FLOAT);
  matmuls(&c, GT_I8, GT_I8, GT_PRECISION_FLOAT);
  images(&c);
  note(&c, "finish", gt_finish(ctx));
  glDeleteBuffers(3, c.buffers);
  *refused = c.refused;
  *count = c.count;
  return c.failed;
}

/* Writes all of size bytes, or fails. */
static bool write_all(int fd, const void *data, size_t size) {
  const unsigned char *p = data;
  while (size > 0) {
    ssize_t n = write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= (size_t)n;
  }
  return true;
}

/* Reads up to size bytes; returns how many came before the end. */
static size_t read_all(int fd, void *data, size_t size) {
  unsigned char *p = data;
  size_t got = 0;
  while (got < size) {
    ssize_t n = read(fd, p + got, size - got);
    if (n <= 0) break;
    got += (size_t)n;
  }
  return got;
}

/* The code drivers print, read only to be kept back. */
typedef struct code_listings {
  v3d_listing v3d;
  ir3_listing ir3;
} code_listings;

static bool keep_listings(const char *line, void *user) {
  code_listings *l = user;
  return v3d_listing_line(&l->v3d, line) || ir3_listing_line(&l->ir3, line);
}

/* In the child: the catalogue, then (failed, refused, count) and the
 * programs with their calls down the pipe. */
static int child(const gt_context_desc *desc, int out, chosen_program *chosen, size_t capacity) {
  gt_egl egl;
  gt_context *ctx;
  if (tool_open(desc, &egl, &ctx)) return 1;
  int counts[2] = {0, 0};
  size_t built = 0;
  counts[0] = compile_auto_calls(ctx, &counts[1], chosen, capacity, &built);
  tool_close(&egl, ctx);
  uint64_t count = built;
  size_t sent = built < capacity ? built : capacity;
  bool ok = write_all(out, counts, sizeof counts) && write_all(out, &count, sizeof count) &&
            write_all(out, chosen, sent * sizeof *chosen);
  return ok ? 0 : 1;
}

int compile_auto_keys(const gt_context_desc *desc, chosen_program *chosen, size_t capacity, size_t *count,
                      int *refused) {
  *count = 0;
  *refused = 0;
  int fds[2];
  if (pipe(fds) != 0) {
    perror("gltile compile: pipe");
    return 1;
  }
  fflush(NULL); /* nothing buffered twice */
  pid_t pid = fork();
  if (pid < 0) {
    perror("gltile compile: fork");
    close(fds[0]);
    close(fds[1]);
    return 1;
  }
  if (pid == 0) {
    close(fds[0]);
    /* The code V3D and Adreno print for the AUTO calls' programs
     * (hundreds of lines a program) is kept out of stderr; compile reads
     * it in its own builds. */
    code_listings listings;
    v3d_listing_start(&listings.v3d);
    ir3_listing_start(&listings.ir3);
    stderr_capture capture;
    bool filtered = (v3d_listing_printed() || ir3_listing_printed()) && stderr_capture_begin(&capture);
    int rc = child(desc, fds[1], chosen, capacity);
    if (filtered) stderr_capture_end(&capture, keep_listings, &listings);
    close(fds[1]);
    fflush(NULL);
    _exit(rc);
  }
  close(fds[1]);
  int counts[2] = {0, 0};
  uint64_t total = 0;
  bool ok = read_all(fds[0], counts, sizeof counts) == sizeof counts &&
            read_all(fds[0], &total, sizeof total) == sizeof total;
  size_t expected = ok ? (total < capacity ? (size_t)total : capacity) : 0;
  ok = ok && read_all(fds[0], chosen, expected * sizeof *chosen) == expected * sizeof *chosen;
  close(fds[0]);
  int status = 0;
  bool exited = waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok || !exited) {
    fprintf(stderr, "gltile compile: the AUTO calls' process did not finish\n");
    return 1;
  }
  *count = (size_t)total;
  *refused = counts[1];
  return counts[0];
}
