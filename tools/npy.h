/* A small reader and writer of NumPy .npy files holding one 2-D matrix of
 * 4-, 2- or 1-byte elements, for the gltile program's transpose and matmul
 * commands.
 * No GL here, so the tests can run it on any host.
 *
 * What is read:
 *   - format versions 1.0, 2.0 and 3.0 (3.0 differs only in allowing UTF-8
 *     in the header, which the accepted keys never need);
 *   - descr '<f4', '<i4', '<u4' (little-endian float32, int32, uint32),
 *     '<f2', '<i2', '<u2' (float16, int16, uint16), '|i1' or '|u1' (int8,
 *     uint8), exactly as NumPy writes them, the whole quoted string (a NUL
 *     or anything after the three characters is another dtype); any other
 *     dtype is refused, and the message lists every dtype read;
 *   - exactly 2 dimensions (npy_read_stack: or 3, a stack of matrices),
 *     each below 2^32. 0-D and 1-D arrays are
 *     refused rather than guessed at: NumPy itself treats a 1-D operand of
 *     matmul as a row or a column depending on its side, so the caller must
 *     reshape to (1, n) or (n, 1). npy_read_vector, for a bias, where NumPy's
 *     broadcasting settles it, reads (n,) as (1, n);
 *   - C order, or Fortran order, which is transposed on read: a Fortran
 *     file of shape (rows, cols) stores the C-order (cols, rows) matrix,
 *     and npy_read returns the rows x cols matrix in C order either way;
 *   - data exactly as long as the shape says: shorter is a truncated file,
 *     longer a file that is not what its header claims (NumPy never writes
 *     trailing bytes), both refused.
 * Empty matrices (a zero dimension) are read; callers decide about them.
 *
 * What is written: C order, format 1.0 unless the header needs 2.0 (never,
 * for two or three dimensions), the header padded with spaces and ended with '\n'
 * so the data starts at a multiple of 64 bytes, as NumPy does; through an
 * output_file (output_file.h): a file is written under a temporary name in
 * the same directory and renamed over the destination only when complete
 * (a destination is complete or absent, or, when it existed, left as it
 * was), a FIFO or character device is written through, a symlink
 * followed.
 *
 * Data is copied as stored, so both functions refuse to run on a
 * big-endian host rather than produce swapped words. */
#ifndef GT_TOOL_NPY_H
#define GT_TOOL_NPY_H

#include <gltile/gltile.h>

#include "output_file.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A rows x cols matrix in C order: element (r, c) is data[r * cols + c];
 * or (stacked) a 3-D stack of count such matrices, shape (count, rows,
 * cols): element (s, r, c) is data[(s * rows + r) * cols + c]. */
typedef struct npy_array {
  gt_type type; /* GT_F32 ('<f4'), GT_I32 ('<i4'), GT_U32 ('<u4'), GT_F16 ('<f2'), ... */
  uint32_t rows, cols;
  void *data;     /* (count *) rows * cols * gt_type_size(type) bytes from malloc; npy_free releases it */
  bool stacked;   /* a 3-D file; false: 2-D, and count is ignored */
  uint32_t count; /* matrices in the stack */
} npy_array;

/* Reads path into *out.
 * Returns    0; or -1 with *out zeroed, nothing allocated, and a message
 *            that starts with the path in err (when err_size > 0). */
int npy_read(const char *path, npy_array *out, char *err, size_t err_size);

/* npy_read, taking a 3-D file too, as a stack (Fortran order: each
 * matrix as it would read alone). */
int npy_read_stack(const char *path, npy_array *out, char *err, size_t err_size);

/* npy_read, taking a 1-D file of n elements too, as a 1 x n matrix. */
int npy_read_vector(const char *path, npy_array *out, char *err, size_t err_size);

/* Writes a to path (see above for the format and the temporary name).
 * Returns    0; or -1 with a message naming the path in err, no temporary
 *            left behind and an existing path untouched. */
int npy_write(const char *path, const npy_array *a, char *err, size_t err_size);

/* Writes a into an output opened with output_open, leaving the commit (or
 * the discard) to the caller: a command prepares its output before the
 * work, so that an -o it cannot write is reported first.
 * Returns    0; or -1 with a message naming the output in err. */
int npy_write_output(output_file *o, const npy_array *a, char *err, size_t err_size);

/* Frees a->data and zeroes *a. NULL is a no-op. */
void npy_free(npy_array *a);

/* The descr of a type as written in a header ("<f4"); "?" for others. */
const char *npy_descr(gt_type t);

#endif
