/* What the examples share: a headless context, buffers, and a small
 * deterministic random number generator. Each example checks its results
 * against the CPU and exits 0 (all correct), 1 (a mismatch or an error) or
 * 77 (no OpenGL ES 3.1 context here). */
#ifndef GT_EXAMPLE_COMMON_H
#define GT_EXAMPLE_COMMON_H

#include <gltile/gltile.h>

#include <GLES3/gl31.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int example_open(gt_egl *egl, gt_context **ctx) {
  if (gt_egl_open(egl) != GT_OK) {
    printf("no OpenGL ES 3.1 context: skipped\n");
    return 77;
  }
  gt_status s = gt_context_init(NULL, 0, NULL, ctx);
  if (s != GT_OK) {
    fprintf(stderr, "gt_context_init: %s\n", gt_status_string(s));
    gt_egl_close(egl);
    return 1;
  }
  return 0;
}

/* A buffer of `words` 32-bit words copied from data (NULL: zeros). */
static inline GLuint example_buffer(size_t words, const void *data) {
  void *zeros = data ? NULL : calloc(words, 4);
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(words * 4), data ? data : zeros, GL_STATIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  free(zeros);
  return b;
}

static inline uint32_t example_rand(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

#endif
