/* The process's stderr sent to a temporary file for a while, then given
 * back line by line: `gltile compile` reads the code a driver prints while
 * it builds a program (v3d_listing.h, ir3_listing.h) and passes every
 * other line on. */
#ifndef GT_STDERR_CAPTURE_H
#define GT_STDERR_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct stderr_capture {
  int stderr_copy; /* the process's stderr while captured */
  FILE *file;
} stderr_capture;

/* Whether a captured line is kept back (true) or goes on to stderr. */
typedef bool (*stderr_keep_fn)(const char *line, void *user);

/* Sends stderr to a temporary file until stderr_capture_end; false
 * (stderr untouched) where that cannot be done. */
bool stderr_capture_begin(stderr_capture *c);

/* Gives stderr back and offers it each captured line, in order (with its
 * newline; a line longer than a buffer in pieces, each piece going where
 * the first went). Lines keep() does not keep are written to stderr. */
void stderr_capture_end(stderr_capture *c, stderr_keep_fn keep, void *user);

#endif
