/* c = a b from host memory: the product most programs start with.
 *
 * a (M x K) and b (K x N) are row-major float arrays on the host. The
 * example makes three GL buffers, writes a and b into two of them with
 * gt_write, multiplies with gt_matmul (a NULL desc: AUTO's kernel for this
 * device, no transposes, no scaling), and reads c back with gt_read. Every
 * call's status is checked. Then each element of c is compared with a
 * double-precision product on the CPU, within the bound the header states
 * for f32 sums:
 *
 *   |c - ref| <= 2 (K + 2) FLT_EPSILON sum_k |a_ik b_kj|  (+ a term for
 *   devices that flush denormals, which these values never reach)
 *
 * The extents are multiples of no tile, so AUTO's edge handling runs too.
 * Exits 0 when every element is within the bound, 1 on any error or
 * mismatch, 77 where no OpenGL ES 3.1 context can be made. */
#include "example_common.h"

#include <float.h>
#include <math.h>

enum { M = 301, K = 259, N = 203 };

static float a[M * K], b[K * N], c[M * N];

/* Prints a failed call; returns whether the call succeeded. */
static int ok(gt_status s, const char *call) {
  if (s != GT_OK) fprintf(stderr, "%s: %s\n", call, gt_status_string(s));
  return s == GT_OK;
}

/* A buffer of `bytes` with no contents yet: gltile writes it. */
static GLuint empty_buffer(size_t bytes) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return buffer;
}

/* How many elements of c lie outside the bound; a NaN counts as outside. */
static size_t count_wrong(void) {
  size_t wrong = 0;
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      double ref = 0, mag = 0;
      for (size_t k = 0; k < K; k++) {
        double p = (double)a[i * K + k] * b[k * N + j];
        ref += p;
        mag += fabs(p);
      }
      double bound = 2.0 * (K + 2) * FLT_EPSILON * mag + (2.0 * K + 2) * FLT_MIN;
      double got = c[i * N + j];
      if (!(fabs(got - ref) <= bound)) {
        if (wrong < 5) fprintf(stderr, "c[%zu][%zu] = %.9g, CPU %.9g (bound %.3g)\n", i, j, got, ref, bound);
        wrong++;
      }
    }
  return wrong;
}

int main(void) {
  uint32_t seed = 2026;
  for (size_t i = 0; i < (size_t)M * K; i++)
    a[i] = (float)example_rand(&seed) / 8388608.0f - 1.0f; /* in [-1, 1) */
  for (size_t i = 0; i < (size_t)K * N; i++)
    b[i] = (float)example_rand(&seed) / 8388608.0f - 1.0f;
  for (size_t i = 0; i < (size_t)M * N; i++)
    c[i] = NAN; /* any element gt_read leaves alone fails the check */

  gt_egl egl;
  gt_context *ctx;
  int rc = example_open(&egl, &ctx);
  if (rc) return rc;

  GLuint buf[3] = {empty_buffer(sizeof a), empty_buffer(sizeof b), empty_buffer(sizeof c)};
  gt_view av = {.buffer = buf[0], .rows = M, .cols = K, .type = GT_F32};
  gt_view bv = {.buffer = buf[1], .rows = K, .cols = N, .type = GT_F32};
  gt_view cv = {.buffer = buf[2], .rows = M, .cols = N, .type = GT_F32};

  /* Host pitch 0: the host rows are as long as the view's. */
  int done = ok(gt_write(ctx, av, a, 0), "gt_write(a)") && ok(gt_write(ctx, bv, b, 0), "gt_write(b)") &&
             ok(gt_matmul(ctx, av, bv, cv, NULL), "gt_matmul") && ok(gt_read(ctx, cv, c, 0), "gt_read(c)");

  /* What AUTO ran for this shape, as `gltile bench` labels its rows. */
  gt_plan plan;
  if (done && ok(gt_matmul_plan(ctx, av, bv, cv, NULL, &plan), "gt_matmul_plan"))
    printf("AUTO ran %s (%s)\n", plan.kernels, plan.reason);

  size_t wrong = done ? count_wrong() : 0;
  if (done) printf("c = a b, %dx%dx%d: %zu of %d elements outside the bound\n", M, N, K, wrong, M * N);

  glDeleteBuffers(3, buf);
  gt_context_release(ctx);
  gt_egl_close(&egl);
  return done && wrong == 0 ? 0 : 1;
}
