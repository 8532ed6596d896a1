/* Views: sections, the aliasing predicate, the checks of a view's fields
 * and its binding ranges. The check against the buffer it names asks GL:
 * gl/buffer_check.c. */
#include "plan/view.h"
#include "plan/context.h"

gt_status gt__need_atomics(gt_context *ctx, const char *what) {
  if (ctx->has_atomics) return GT_OK;
  gt__log(ctx, GT_LOG_ERROR, "%s needs shader atomics, which crash llvmpipe in a 32-bit ARM process", what);
  return GT_ERR_UNSUPPORTED;
}

gt_type gt__bits_type(gt_type t) {
  switch (gt_type_size(t)) {
  case 2: return GT_U16;
  case 1: return GT_U8;
  default: return GT_U32;
  }
}

uint32_t gt__view_pitch(gt_view v) { return v.pitch ? v.pitch : v.cols; }

bool gt__same_view(gt_view a, gt_view b) {
  return a.buffer == b.buffer && a.offset == b.offset && a.rows == b.rows && a.cols == b.cols &&
         gt__view_pitch(a) == gt__view_pitch(b) && a.type == b.type;
}

bool gt__view_rows_aligned(gt_view v) { return v.offset % 4 == 0 && gt__view_pitch(v) % 4 == 0; }

bool gt__bound_rows_aligned(const gt_bound_view *v) {
  return v->bind_offset % 16 == 0 && v->elem_offset % 4 == 0 && v->view.pitch % 4 == 0;
}

uint64_t gt__view_span(gt_view v) {
  if (v.rows == 0 || v.cols == 0) return 0;
  return (uint64_t)(v.rows - 1) * gt__view_pitch(v) + v.cols;
}

gt_view gt_section(gt_view v, uint32_t row, uint32_t col, uint32_t rows, uint32_t cols) {
  gt_view s = v;
  uint32_t pitch = gt__view_pitch(v);
  bool inside = (uint64_t)row + rows <= v.rows && (uint64_t)col + cols <= v.cols;
  s.pitch = pitch;
  if (!inside) {
    s.rows = s.cols = 0;
    return s;
  }
  /* row * pitch + col stays below 2^64, but on a 32-bit host it can pass
   * SIZE_MAX alone, and added to an offset near SIZE_MAX it would wrap on
   * any host. */
  uint64_t skip = (uint64_t)row * pitch + col;
  if (skip > (uint64_t)(SIZE_MAX - v.offset)) {
    s.rows = s.cols = 0;
    return s;
  }
  s.offset = v.offset + (size_t)skip;
  s.rows = rows;
  s.cols = cols;
  return s;
}

/* Does any row of b intersect the element interval [lo, lo + len)? Rows of
 * b are the disjoint intervals [ob + k*pb, ob + k*pb + cb), k < rb; those
 * starting before lo + len and ending after lo form one contiguous run of
 * k, so the answer is whether that run is non-empty. */
static bool rows_hit_interval(uint64_t ob, uint64_t pb, uint64_t cb, uint64_t rb, uint64_t lo, uint64_t len) {
  uint64_t hi = lo + len; /* exclusive */
  if (hi <= ob) return false;
  /* Last k with ob + k*pb < hi. */
  uint64_t k_last = (hi - 1 - ob) / pb;
  if (k_last >= rb) k_last = rb - 1;
  /* First k with ob + k*pb + cb > lo. */
  uint64_t k_first = 0;
  if (ob + cb <= lo) k_first = (lo - ob - cb) / pb + 1;
  return k_first <= k_last;
}

/* A view's rows as intervals of units: elements of the smaller type of
 * the two views compared, so views of different element sizes compare by
 * the bytes they cover. */
typedef struct unit_rows {
  uint64_t offset, pitch, cols, rows, span;
} unit_rows;

/* v in units of `unit` bytes; false where they would pass 2^64. */
static bool units_of(gt_view v, uint64_t unit, unit_rows *out) {
  uint64_t size = gt_type_size(v.type) ? gt_type_size(v.type) : 4, scale = size / unit;
  uint64_t span = gt__view_span(v);
  *out = (unit_rows){v.offset * scale, (uint64_t)gt__view_pitch(v) * scale, (uint64_t)v.cols * scale, v.rows,
                     span * scale};
  if (scale <= 1) return true;
  return (uint64_t)v.offset <= UINT64_MAX / scale && span <= UINT64_MAX / scale &&
         out->offset <= UINT64_MAX - out->span;
}

bool gt_views_alias(gt_view va, gt_view vb) {
  if (va.buffer != vb.buffer) return false;
  /* An unknown type compares as 4 bytes, as every type did before the
   * narrower ones; the operations refuse it anyway. */
  size_t size_a = gt_type_size(va.type) ? gt_type_size(va.type) : 4;
  size_t size_b = gt_type_size(vb.type) ? gt_type_size(vb.type) : 4;
  uint64_t unit = size_a < size_b ? size_a : size_b;
  unit_rows a, b;
  bool fits_a = units_of(va, unit, &a), fits_b = units_of(vb, unit, &b);
  if (a.span == 0 || b.span == 0) return false;
  if (!fits_a || !fits_b) return true; /* past 2^64 bytes: see gltile.h */
  if (a.offset + a.span <= b.offset || b.offset + b.span <= a.offset) return false;
  /* Walk the rows of the view with fewer rows, keeping only those inside
   * the other's span; each row costs O(1). */
  if (a.rows > b.rows) {
    unit_rows t = a;
    a = b;
    b = t;
  }
  uint64_t first = 0;
  if (b.offset > a.offset + a.cols) first = (b.offset - a.offset - a.cols) / a.pitch;
  for (uint64_t i = first; i < a.rows; i++) {
    uint64_t lo = a.offset + i * a.pitch;
    if (lo >= b.offset + b.span) break;
    if (rows_hit_interval(b.offset, b.pitch, b.cols, b.rows, lo, a.cols)) return true;
  }
  return false;
}

gt_status gt__view_check_fields(gt_view v) {
  GT__CHECK(v.buffer != 0, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(v.rows != 0 && v.cols != 0, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(gt_type_size(v.type) != 0, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(v.pitch == 0 || v.pitch >= v.cols, GT_ERR_INVALID_ARGUMENT);
  /* The last element's byte address must be representable: offset + span
   * elements, rounded up to a whole 32-bit word, within size_t (and so
   * within 64 bits). The span alone can pass the limit ((2^32 - 1)^2
   * elements): compare it first, or limit - span wraps and a view whose
   * end wraps past 2^64 gets through. */
  uint64_t span = gt__view_span(v), limit = (uint64_t)(SIZE_MAX / 4) * 4 / gt_type_size(v.type);
  GT__CHECK(span <= limit && (uint64_t)v.offset <= limit - span, GT_ERR_OUT_OF_RANGE);
  return GT_OK;
}

uint64_t gt__view_end_bytes(gt_view v) {
  return ((uint64_t)v.offset + gt__view_span(v)) * gt_type_size(v.type);
}

/* The aligned range a binding of v needs: from the aligned byte below the
 * view to the end of the word holding its last element; the rest of the
 * offset travels in the view's uniform. Bindings start on whole words, so
 * a packed element's word is its index in the binding over the elements
 * per word. */
static uint64_t bind_start(const gt_context *ctx, gt_view v) {
  uint64_t align = ctx->limits.storage_offset_alignment; /* a multiple of 4 */
  return (uint64_t)v.offset * gt_type_size(v.type) / align * align;
}

static uint64_t bind_size(const gt_context *ctx, gt_view v) {
  return gt__word_end(gt__view_end_bytes(v)) - bind_start(ctx, v);
}

bool gt__view_fits(const gt_context *ctx, gt_view v) {
  uint64_t size = bind_size(ctx, v);
  /* Kernels index elements of the binding with 32-bit uints. */
  return size <= ctx->limits.max_storage_block_bytes && size / gt_type_size(v.type) <= UINT32_MAX;
}

gt_status gt__view_bind(const gt_context *ctx, gt_view v, gt_bound_view *out) {
  if (!gt__view_fits(ctx, v)) {
    gt__log(ctx, GT_LOG_ERROR, "view of buffer %u needs a %llu-byte binding; the device allows %llu",
            v.buffer, (unsigned long long)bind_size(ctx, v),
            (unsigned long long)ctx->limits.max_storage_block_bytes);
    return GT_ERR_UNSUPPORTED;
  }
  v.pitch = gt__view_pitch(v);
  uint64_t start = bind_start(ctx, v);
  out->view = v;
  out->bind_offset = (intptr_t)start;
  out->bind_size = (intptr_t)bind_size(ctx, v);
  out->elem_offset = (uint32_t)(v.offset - start / gt_type_size(v.type));
  return GT_OK;
}

gt_status gt__view_bind_layers(const gt_context *ctx, gt_view v, uint32_t layers, uint64_t stride,
                               gt_bound_view *out) {
  GT__TRY(gt__view_bind(ctx, v, out));
  /* The shader adds layer * stride to uint element offsets: the last
   * layer's last element must stay below 2^32 as well as in the block,
   * and the binding ends with the word holding it. */
  uint64_t extra = (uint64_t)(layers - 1) * stride, elem = gt_type_size(v.type);
  if (stride > UINT32_MAX || extra > UINT32_MAX) return GT_ERR_UNSUPPORTED;
  uint64_t size = gt__word_end(gt__view_end_bytes(v) + extra * elem) - (uint64_t)out->bind_offset;
  if (size > ctx->limits.max_storage_block_bytes || size / elem > UINT32_MAX) return GT_ERR_UNSUPPORTED;
  out->bind_size = (intptr_t)size;
  return GT_OK;
}

/* v moved on by `elements`; the caller has checked the sum fits. */
static gt_view moved(gt_view v, uint64_t elements) {
  v.offset += (size_t)elements;
  return v;
}

/* v and its stride in elements `scale` times smaller, of type t; false
 * where a field would overflow. */
static bool rescale(gt_view *v, uint64_t *stride, uint32_t scale, gt_type t) {
  uint64_t pitch = gt__view_pitch(*v);
  if (v->offset > SIZE_MAX / scale || pitch * scale > UINT32_MAX || *stride > UINT64_MAX / scale)
    return false;
  v->offset *= scale;
  v->pitch = (uint32_t)(pitch * scale);
  v->cols *= scale; /* <= pitch */
  v->type = t;
  *stride *= scale;
  return true;
}

bool gt__batches_alias(gt_view x, uint64_t stride_x, gt_view y, uint64_t stride_y, uint32_t count,
                       bool same) {
  if (x.buffer != y.buffer || count == 0) return false;
  /* Elements of different sizes (a float c of half products): both in
   * the smaller, where sharing a byte is sharing an element. Fields that
   * would overflow count as overlapping (the call is refused). */
  size_t size_x = gt_type_size(x.type), size_y = gt_type_size(y.type);
  if (size_x > size_y && !rescale(&x, &stride_x, (uint32_t)(size_x / size_y), y.type)) return true;
  if (size_y > size_x && !rescale(&y, &stride_y, (uint32_t)(size_y / size_x), x.type)) return true;
  if (same && count > 1 && stride_x == 0) return true;
  if (stride_x == stride_y) {
    /* x_i and y_j overlap as x and y moved apart by (j - i) strides:
     * 2 count - 1 tests instead of count^2. */
    for (uint32_t d = 0; d < count; d++) {
      uint64_t apart = (uint64_t)d * stride_x;
      if ((!same || d > 0) && gt_views_alias(x, moved(y, apart))) return true;
      if (d > 0 && !same && gt_views_alias(moved(x, apart), y)) return true;
      if (stride_x == 0) break;
    }
    return false;
  }
  /* Strides differ: for each x_i, the y_j whose element ranges meet it
   * form one run of j. */
  uint64_t span_x = gt__view_span(x), span_y = gt__view_span(y);
  for (uint32_t i = 0; i < count; i++) {
    uint64_t lo = x.offset + (uint64_t)i * stride_x, hi = lo + span_x; /* x_i's [lo, hi) */
    uint64_t j_first = 0, j_last = count - 1;
    if (stride_y == 0) {
      j_last = 0;
    } else {
      if (hi <= y.offset) continue;
      uint64_t last = (hi - 1 - y.offset) / stride_y;
      if (last < j_last) j_last = last;
      if (lo >= y.offset + span_y) j_first = (lo - y.offset - span_y) / stride_y + 1;
    }
    for (uint64_t j = j_first; j <= j_last; j++)
      if (gt_views_alias(moved(x, (uint64_t)i * stride_x), moved(y, j * stride_y))) return true;
  }
  return false;
}

gt_bound_view gt__bound_section(const gt_bound_view *parent, uint32_t row, uint32_t col, uint32_t rows,
                                uint32_t cols) {
  gt_bound_view s = *parent;
  s.view = gt_section(parent->view, row, col, rows, cols);
  s.elem_offset = parent->elem_offset + row * parent->view.pitch + col;
  return s;
}
