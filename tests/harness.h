/* Shared set-up for the GL tests: a headless context, a gltile context,
 * buffers filled with known words, and a small deterministic RNG. */
#ifndef GT_TESTS_HARNESS_H
#define GT_TESTS_HARNESS_H

#include <gltile/gltile.h>

#include <GLES3/gl31.h>

#define GT_TEST_SKIP 77

typedef struct gt_test_env {
  gt_egl egl;
  gt_context *ctx;
  bool min_limits;
  bool sampled; /* --sampled: the long sections run a fixed third of their cases */
  /* Whether the run's flags changed the suite's context desc (its limits,
   * program slots, strategy or kernel; not --min-limits, not the device
   * entry, a global). A context the test makes from a desc of its own
   * ignores those, so its sections run only where this is false:
   * elsewhere they repeat another run's cases through the same programs,
   * compiling each again. */
  bool own_contexts_repeat;
} gt_test_env;

/* Opens EGL and a gltile context; `--min-limits` in argv clamps the limits
 * to the ES 3.1 minimums, `--max-storage-block BYTES`,
 * `--max-dispatch-flops N`, `--max-dispatch-bytes N` and `--staging-bytes N`
 * set those context fields (to test blocks, budgets and staging rounds). Returns 0, or GT_TEST_SKIP when no
 * GLES 3.1 context exists, or 1 on any other failure. */
int gt_test_open(int argc, char **argv, gt_test_env *env);
void gt_test_close(gt_test_env *env);

/* Host blocks the library holds through the allocator gt_test_open gives
 * env->ctx (the context itself, and whatever else it allocates). */
long gt_test_live_blocks(void);

/* true when argv holds `flag` (a test's own option, such as --packed). */
bool gt_test_flag(int argc, char **argv, const char *flag);

/* true when the library binds view v in one piece: from the aligned byte
 * at or below it to the end of the 32-bit word holding its last element
 * (src/plan/view.c), within one storage block of ctx. */
bool gt_test_view_fits(gt_context *ctx, gt_view v);

/* true when a rows x cols window of v (at any offset) fits one storage
 * block of ctx: where it does not, work cut into blocks no smaller than
 * that window is refused (GT_ERR_UNSUPPORTED). */
bool gt_test_window_fits(gt_context *ctx, gt_view v, uint32_t rows, uint32_t cols);

/* A new buffer object of `words` 32-bit words, each set by fill(i). */
GLuint gt_test_buffer(size_t words, uint32_t (*fill)(size_t i, uint32_t seed), uint32_t seed);

/* A fresh buffer holding the `words` words at host. */
GLuint gt_test_buffer_of(const uint32_t *host, size_t words);

/* Reads every word of a buffer back through gt_read (a 1 x words view). */
int gt_test_read_all(gt_context *ctx, GLuint buffer, size_t words, uint32_t *out);

/* Fill functions: a poison word, and pseudo-random words (NaN payloads and
 * denormals included when read as floats, so transposes must move bits). */
uint32_t gt_test_poison(size_t i, uint32_t seed);
uint32_t gt_test_noise(size_t i, uint32_t seed);

/* Whether the next case of a long section runs: always, or in a sampled
 * run one in three, chosen by a hash of the number of calls so far, so
 * that the cases left out do not follow a loop's period. */
bool gt_test_runs(bool sampled);

/* The seed's tiled matmul kernel (TILED_EVEN, TILED_PAD, TRUNCATE_B)
 * multiplies f32 or f16 a and b with f32 sums, one product at a time:
 * GT_ERR_UNSUPPORTED for a call with 8-bit a and b, sums in half, an
 * epilogue, or through gt_matmul_batched (batch); GT_OK for every other
 * call, and for the other strategies. */
gt_status gt_test_tiled_matmul_status(const gt_matmul_desc *d, gt_type a_type, bool batch);

/* Counts the programs a context builds of one kernel file ("matmul_blocked.comp")
 * whose variant holds every bit of `bits`, from its debug log. */
typedef struct gt_test_build_counter {
  const char *kernel;
  uint32_t bits;
  unsigned count;
} gt_test_build_counter;

/* A context of the default desc whose logger counts into counter: GT_OK
 * and *out, or the status of gt_context_init (and *out NULL). */
gt_status gt_test_counting_context(gt_test_build_counter *counter, gt_context **out);

/* xorshift32: deterministic across platforms. */
uint32_t gt_test_rand(uint32_t *state);
uint32_t gt_test_rand_range(uint32_t *state, uint32_t lo, uint32_t hi); /* [lo, hi] */

#endif
