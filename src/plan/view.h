/* Views checked, bound to storage-block ranges and compared (view.c). */
#ifndef GT_VIEW_H
#define GT_VIEW_H

#include "plan/gt_internal.h"

/* A view checked against its buffer, ready to bind. */
typedef struct gt_bound_view {
  gt_view view;         /* pitch resolved (never 0) */
  intptr_t bind_offset; /* bytes, a multiple of the offset alignment (GLintptr) */
  intptr_t bind_size;   /* bytes from bind_offset to the view's last element (GLsizeiptr) */
  uint32_t elem_offset; /* elements from bind_offset to the view's start */
} gt_bound_view;

/* Checks v's fields, without GL: nonzero buffer and extent, known type,
 * pitch >= cols, element span without overflow. */
gt_status gt__view_check_fields(gt_view v);

/* The byte just past v's last element. */
uint64_t gt__view_end_bytes(gt_view v);

/* The end of the 32-bit word holding byte end - 1: kernels reach 2- and
 * 1-byte elements through whole words. */
static inline uint64_t gt__word_end(uint64_t end) { return (end + 3) / 4 * 4; }

/* GT_OK, or GT_ERR_UNSUPPORTED (logged, naming `what`) where the context
 * cannot run the shader atomics an operation needs. */
gt_status gt__need_atomics(gt_context *ctx, const char *what);

/* The program element of a kernel that only moves bits: GT_U32, GT_U16
 * or GT_U8, by size, so views of one size share programs. */
gt_type gt__bits_type(gt_type t);

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

/* A section of a prepared view: same bound range, moved offset uniform. */
gt_bound_view gt__bound_section(const gt_bound_view *parent, uint32_t row, uint32_t col, uint32_t rows,
                                uint32_t cols);

/* true when a and b are the very same window: same buffer, offset,
 * extent, effective pitch and type. */
bool gt__same_view(gt_view a, gt_view b);

#endif
