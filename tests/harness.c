#include "harness.h"

#include "plan/device_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Library messages go to stderr when GT_TEST_LOG is set: the tests make
 * many calls that must fail, and each failure is logged. */
static void log_to_stderr(int level, const char *msg, void *user) {
  (void)user;
  if (level <= GT_LOG_WARN || getenv("GT_TEST_LOG")) fprintf(stderr, "gltile: %s\n", msg);
}

bool gt_test_flag(int argc, char **argv, const char *flag) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], flag) == 0) return true;
  return false;
}

/* The suite's context allocates through these, so that a test can see
 * how many of the library's host blocks are live. */
static long live_blocks;

static void *counting_alloc(size_t size, void *user) {
  (void)user;
  void *p = malloc(size);
  if (p) live_blocks++;
  return p;
}

static void counting_free(void *p, void *user) {
  (void)user;
  if (p) live_blocks--;
  free(p);
}

long gt_test_live_blocks(void) { return live_blocks; }

int gt_test_open(int argc, char **argv, gt_test_env *env) {
  memset(env, 0, sizeof *env);
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--min-limits") == 0) env->min_limits = true;
    if (strcmp(argv[i], "--sampled") == 0) env->sampled = true;
    if (strcmp(argv[i], "--max-storage-block") == 0 && i + 1 < argc)
      desc.max_storage_block_bytes = strtoull(argv[++i], NULL, 10);
    if (strcmp(argv[i], "--max-dispatch-flops") == 0 && i + 1 < argc)
      desc.max_dispatch_flops = strtoull(argv[++i], NULL, 10);
    if (strcmp(argv[i], "--max-dispatch-bytes") == 0 && i + 1 < argc)
      desc.max_dispatch_bytes = strtoull(argv[++i], NULL, 10);
    if (strcmp(argv[i], "--staging-bytes") == 0 && i + 1 < argc)
      desc.staging_bytes = strtoull(argv[++i], NULL, 10);
    /* A program table of this many slots: with 2, most operations take the
     * least recent program's slot and build again as they go. */
    if (strcmp(argv[i], "--program-slots") == 0 && i + 1 < argc)
      desc.program_slots = (uint32_t)strtoul(argv[++i], NULL, 10);
    /* AUTO's transpose strategy TILED_PAD: no 4x4 blocks, shared tiles
     * instead, whatever the device. */
    if (strcmp(argv[i], "--auto-tiled") == 0) desc.transpose_strategy = GT_STRATEGY_TILED_PAD;
    /* The context's matmul kernel (skipped where the device refuses it). */
    /* The device-table entry of another renderer ("FD630", "V3D 4.2"):
     * its choices (tile, groups, kernels) run on this device. */
    if (strcmp(argv[i], "--device-entry") == 0 && i + 1 < argc) gt__device_entry_pretend(argv[++i]);
    if (strcmp(argv[i], "--matmul-kernel") == 0 && i + 1 < argc) {
      const char *k = argv[++i];
      desc.matmul_kernel = strcmp(k, "texels") == 0         ? GT_MATMUL_KERNEL_TEXELS
                           : strcmp(k, "shared") == 0       ? GT_MATMUL_KERNEL_SHARED
                           : strcmp(k, "registers-k1") == 0 ? GT_MATMUL_KERNEL_REGISTERS_K1
                                                            : GT_MATMUL_KERNEL_REGISTERS;
    }
  }
  gt_context_desc plain;
  memset(&plain, 0, sizeof plain);
  env->own_contexts_repeat = memcmp(&desc, &plain, sizeof desc) != 0;
  if (gt_egl_open(&env->egl) != GT_OK) {
    printf("no OpenGL ES 3.1 context: skipped\n");
    return GT_TEST_SKIP;
  }
  if (getenv("GT_TEST_LOG")) desc.logger.log = log_to_stderr;
  desc.min_limits = env->min_limits;
  desc.allocator = (gt_allocator){counting_alloc, counting_free, NULL};
  gt_status s = gt_context_init(NULL, 0, &desc, &env->ctx);
  if (s != GT_OK) {
    fprintf(stderr, "gt_context_init: %s\n", gt_status_string(s));
    gt_egl_close(&env->egl);
    return s == GT_ERR_UNSUPPORTED ? GT_TEST_SKIP : 1;
  }
  gt_limits l = gt_context_limits(env->ctx);
  printf("renderer: %s%s, device-table entry %s; storage blocks of %llu bytes, %llu FLOP per matmul "
         "dispatch, %llu bytes per transpose dispatch, %llu staging bytes, %u program slots\n",
         gt_context_renderer(env->ctx), env->min_limits ? " (ES 3.1 minimum limits)" : "",
         gt_context_device_name(env->ctx),
         (unsigned long long)l.max_storage_block_bytes, (unsigned long long)l.max_dispatch_flops,
         (unsigned long long)l.max_dispatch_bytes, (unsigned long long)l.staging_bytes,
         desc.program_slots ? desc.program_slots : 128);
  return 0;
}

/* The library logs each build as "built KERNEL ... variant V ...". */
static void count_builds(int level, const char *msg, void *user) {
  gt_test_build_counter *counter = user;
  size_t length = strlen(counter->kernel);
  const char *v = strstr(msg, " variant ");
  if (level != GT_LOG_DEBUG || strncmp(msg, "built ", 6) != 0 ||
      strncmp(msg + 6, counter->kernel, length) != 0 || msg[6 + length] != ' ' || v == NULL)
    return;
  if ((strtoul(v + 9, NULL, 10) & counter->bits) == counter->bits) counter->count++;
}

gt_status gt_test_counting_context(gt_test_build_counter *counter, gt_context **out) {
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.logger.log = count_builds;
  desc.logger.user = counter;
  *out = NULL;
  return gt_context_init(NULL, 0, &desc, out);
}

void gt_test_close(gt_test_env *env) {
  gt_context_release(env->ctx);
  gt_egl_close(&env->egl);
  env->ctx = NULL;
}

GLuint gt_test_buffer_of(const uint32_t *host, size_t words) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(words * 4), host, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return b;
}

GLuint gt_test_buffer(size_t words, uint32_t (*fill)(size_t i, uint32_t seed), uint32_t seed) {
  uint32_t *data = malloc(words * 4);
  if (data == NULL) return 0;
  for (size_t i = 0; i < words; i++)
    data[i] = fill(i, seed);
  GLuint b = gt_test_buffer_of(data, words);
  free(data);
  return b;
}

int gt_test_read_all(gt_context *ctx, GLuint buffer, size_t words, uint32_t *out) {
  gt_view all = {buffer, 0, 1, (uint32_t)words, 0, GT_U32};
  gt_status s = gt_read(ctx, all, out, 0);
  if (s != GT_OK) fprintf(stderr, "gt_read of %zu words: %s\n", words, gt_status_string(s));
  return s == GT_OK ? 0 : 1;
}

uint32_t gt_test_poison(size_t i, uint32_t seed) {
  (void)i;
  return 0xDEADBEEFu ^ seed;
}

uint32_t gt_test_noise(size_t i, uint32_t seed) {
  /* A 32-bit mix of the index: distinct enough that a misplaced element
   * shows, and covering every bit pattern class of a float. */
  uint32_t x = (uint32_t)i * 0x9E3779B1u + seed * 0x85EBCA77u + 1u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  x *= 0x297A2D39u;
  x ^= x >> 15;
  return x;
}

uint32_t gt_test_rand(uint32_t *state) {
  uint32_t x = *state ? *state : 1u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

gt_status gt_test_tiled_matmul_status(const gt_matmul_desc *d, gt_type a_type, bool batch) {
  gt_strategy s = d->strategy;
  bool tiled = s == GT_STRATEGY_TILED_EVEN || s == GT_STRATEGY_TILED_PAD || s == GT_STRATEGY_TRUNCATE_B;
  bool outside = a_type == GT_U8 || a_type == GT_I8 || d->precision == GT_PRECISION_HALF || d->bias.buffer ||
                 d->act != GT_ACTIVATION_NONE || batch;
  return tiled && outside ? GT_ERR_UNSUPPORTED : GT_OK;
}

uint32_t gt_test_rand_range(uint32_t *state, uint32_t lo, uint32_t hi) {
  return lo + gt_test_rand(state) % (hi - lo + 1);
}

bool gt_test_view_fits(gt_context *ctx, gt_view v) {
  gt_limits l = gt_context_limits(ctx);
  uint64_t size = gt_type_size(v.type), pitch = v.pitch ? v.pitch : v.cols;
  uint64_t end = ((uint64_t)v.offset + (uint64_t)(v.rows - 1) * pitch + v.cols) * size;
  uint64_t start = v.offset * size / l.storage_offset_alignment * l.storage_offset_alignment;
  return (end + 3) / 4 * 4 - start <= l.max_storage_block_bytes;
}

bool gt_test_window_fits(gt_context *ctx, gt_view v, uint32_t rows, uint32_t cols) {
  gt_limits l = gt_context_limits(ctx);
  uint64_t pitch = v.pitch ? v.pitch : v.cols;
  uint64_t span = (uint64_t)(rows - 1) * pitch + cols;
  /* A binding starts at the aligned byte at or below the window. */
  uint64_t slack = l.storage_offset_alignment - 4;
  return l.max_storage_block_bytes > slack && span <= (l.max_storage_block_bytes - slack) / 4;
}

bool gt_test_runs(bool sampled) {
  static uint32_t drawn;
  return !sampled || ((++drawn * 2654435761u) >> 24) % 3 == 0;
}
