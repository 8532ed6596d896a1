/* The OpenCL peer of `gltile bench --op matmul`: CLBlast's SGEMM on the
 * first OpenCL device, loaded at run time (no build or link dependency). */
#ifndef GT_BENCH_CLBLAST_H
#define GT_BENCH_CLBLAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Loads libOpenCL.so.1 and libclblast.so.1 and makes a context and queue
 * on the first device of the first platform. On failure returns false and
 * says why in why[size] (the library that did not load, or the call that
 * failed); nothing stays loaded then. */
bool tool_clblast_open(char *why, size_t size);

/* The device's name, for the table ("" when not open). */
const char *tool_clblast_device(void);

/* c = op(a) op(b), row-major, op(a) m x k and op(b) k x n, a stored k x m
 * when trans_a and b n x k when trans_b, on the device: a warm-up call
 * (CLBlast compiles its kernels on the first), then reps timed calls,
 * each between two clFinish, wall clock. *ms gets the median and c the
 * product (read back after the last call) for the caller to check.
 * Returns 0, or 1 with a message on stderr when a call failed. */
int tool_clblast_sgemm(uint32_t m, uint32_t n, uint32_t k, bool trans_a, bool trans_b, const float *a,
                       const float *b, float *c, unsigned reps, double *scratch, double *ms);

/* Releases the queue and context and unloads both libraries. */
void tool_clblast_close(void);

#endif
