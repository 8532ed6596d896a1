/* The plan of a matrix multiply (matmul_plan.c): the operands as bound
 * views, the blocks the product goes in, the programs it runs, and each
 * block's route. A pure function of the checked views, the description
 * and the context's device entry and limits; gt_matmul and
 * gt_matmul_batched build what it names and run it. */
#ifndef GT_MATMUL_PLAN_H
#define GT_MATMUL_PLAN_H

#include "plan/blocking.h"
#include "plan/context.h"
#include "plan/group_shape.h"
#include "plan/matmul_check.h"
#include "plan/plan.h"
#include "plan/view.h"

/* The kernels' shapes: SIMPLE's group, 16 x 8 = 128 invocations (the
 * ES 3.1 minimum); the shared kernel's, 16 x 16 invocations of 8 x 8
 * results; the texels kernel's, 8 x 8 invocations of 8 x 8 results (the
 * registers kernel's shape is in program.h). */
enum {
  GT_MATMUL_SIMPLE_GROUP_COLS = 16,
  GT_MATMUL_SIMPLE_GROUP_ROWS = 8,
  GT_MATMUL_SHARED_GROUP = 16,
  GT_MATMUL_SHARED_TILE = 128,
  GT_MATMUL_TEXELS_GROUP = 8,
  GT_MATMUL_TEXELS_TILE = 8 * GT_MATMUL_TEXELS_GROUP
};

/* A multiply's epilogue: c = act(alpha * sum + beta * c + bias). */
typedef struct gt_epilogue {
  gt_bias_kind bias;
  gt_activation act;
  float lo, hi; /* CLAMP's bounds */
} gt_epilogue;

/* One multiply over bound views: m x n results, the K slice [k_begin,
 * k_end), c = alpha * sum + beta * c, and where it writes c's final
 * values the epilogue; or a series of such multiplies, one per layer of
 * groups, layer l's views moved on by l * layer_stride (the bias stays). */
typedef struct gt_product {
  gt_bound_view a, b, c;
  gt_bound_view bias; /* the section along this product's c, where epilogue.bias */
  uint32_t k_begin, k_end;
  float alpha, beta;
  gt_epilogue epilogue;
  gt_quantization quant;    /* 8-bit a and b: zero points; 8-bit c: requantisation */
  bool quant_columns;       /* requantised per column of c: */
  gt_bound_view multipliers, shifts; /* their sections along this product's c */
  bool finishes;            /* the last slice of K: the epilogue runs */
  uint32_t layers;          /* 1 = one multiply */
  uint32_t layer_stride[3]; /* elements between layers' a, b and c */
} gt_product;

/* The programs a plan may run, one slot each; a key whose group_cols is 0
 * is not needed. */
enum {
  GT_MATMUL_MAIN,   /* the strategy's kernel; AUTO's registers or shared kernel */
  GT_MATMUL_VEC4,   /* AUTO: the same moving aligned operands as vec4s */
  GT_MATMUL_SIMPLE, /* TRUNCATE_B's bands and K leftover */
  GT_MATMUL_TEXELS, /* AUTO: the texels kernel, a and b as texture buffers */
  GT_MATMUL_BANDS,  /* AUTO: the bands kernel, beside the shared kernel */
  GT_MATMUL_INTERIOR, /* AUTO: the registers kernel on whole tiles, unguarded (matmul_interior) */
  GT_MATMUL_SLOTS
};
GT__PLAN_SLOTS_FIT(GT_MATMUL_SLOTS);

/* How one block of the product runs. */
typedef enum gt_matmul_route {
  GT_MATMUL_ROUTE_MAIN,            /* the main program, one dispatch */
  GT_MATMUL_ROUTE_VEC4,            /* the vec4 program, one dispatch */
  GT_MATMUL_ROUTE_TEXELS,          /* the texels program, a and b as texels */
  GT_MATMUL_ROUTE_MAIN_AND_BANDS,  /* TRUNCATE_B: even tiles, SIMPLE on the rest */
  GT_MATMUL_ROUTE_BLOCKS_AND_BANDS, /* AUTO: whole blocks by their route, the bands kernel on thin bands */
  GT_MATMUL_ROUTE_INTERIOR          /* AUTO: whole tiles by the interior program, the rest by its route */
} gt_matmul_route;

/* Everything a multiply runs, decided before anything is built. */
typedef struct gt_matmul_choices {
  /* The programs by GT_MATMUL_* slot, those some block runs (built);
   * atomics for a half or 8-bit c, written in part of a word; the blocks
   * (K slices, work per dispatch, storage blocks), in_blocks where an
   * operand is longer than a storage block and each block binds its own. */
  gt_op_plan op;
  gt_strategy strategy;    /* the caller's (AUTO stays AUTO: the kernels below) */
  gt_matmul_kernel kernel; /* AUTO: the kernel of the blocks the texels kernel does not take */
  bool stream;             /* AUTO: the stream kernel instead, c of a few rows (matmul_stream.comp) */
  uint32_t m, n, k;
  bool trans_a, trans_b;
  uint32_t tile, group_rows; /* the tiled strategies' */
  uint32_t vec4_needs;       /* the GT_VARIANT_VEC4_* a block must allow to run vec4 */
  gt_product whole;          /* the operands, bound unless op.in_blocks */
  /* op.keys before the blocks were walked: what a plan of these views and
   * this desc names where its blocks take every route (the program
   * list's). */
  gt_program_key candidates[GT_MATMUL_SLOTS];
} gt_matmul_choices;

/* What a TEXELS context's AUTO runs for the products the texels kernel
 * cannot take: what a SHARED context would (matmul_kernel.c). */
gt_matmul_kernel gt__matmul_texel_fallback(const gt_context *ctx, uint32_t m, uint32_t n);

/* The GT_VARIANT_VEC4_* bits of the operands whose quads a block can move
 * whole, given which views' rows are aligned (matmul_blocks.c). */
uint32_t gt__matmul_vec4_operands(bool a_rows, bool b_rows, bool c_rows, uint32_t m, uint32_t n,
                                  uint32_t k_begin, uint32_t k_end, bool trans_a, bool trans_b);

/* Whether s runs the seed's tiled kernel: TILED_EVEN, TILED_PAD and
 * TRUNCATE_B, which take f32 and f16 operands with f32 sums, no epilogue
 * and no batch (GT_ERR_UNSUPPORTED otherwise). */
bool gt__matmul_strategy_tiled(gt_strategy s);

/* The plan of a multiply of checked views, as one product (layers 1) or
 * as `layers` products layer_stride elements apart bound as one.
 * GT_ERR_UNSUPPORTED where the tile, no block or a binding does not fit
 * the device, GT_ERR_SHAPE_MISMATCH where TILED_EVEN's tile does not
 * divide the extent; p->op.refusal says which. Pure: no GL. */
gt_status gt__matmul_choose(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                            uint32_t layers, const uint32_t layer_stride[3], gt_matmul_choices *p);

/* How the products of a batch run: in `count` series, series r holding
 * products r, r + count, r + 2 count, ... (count 2 or 4 where strides are
 * not multiples of 4 elements, so each series keeps its products' row
 * alignment); a series runs as layers of one dispatch where its layers fit
 * one binding each, else product by product. */
typedef struct gt_matmul_series {
  uint32_t count;           /* 1, 2 or 4, at most the batch's count */
  uint32_t products[4];     /* products in series r */
  bool layered[4];          /* series r as layers of one dispatch */
  uint32_t layer_stride[3]; /* elements between a layer's a, b and c and the next's */
} gt_matmul_series;

/* The series of a checked batch. Pure: no GL. */
void gt__matmul_series(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_batch *batch,
                       const gt_matmul_desc *d, gt_matmul_series *s);

/* Product i's views of a, b and c (the caller has checked no offset
 * overflows). */
void gt__matmul_product_views(gt_view a, gt_view b, gt_view c, const gt_batch *batch, uint64_t i,
                              gt_view v[3]);

/* The block of the plan at `at` (its (m, n, k) origin) as a product of
 * its own, bound. */
gt_status gt__matmul_block_at(const gt_context *ctx, const gt_matmul_choices *p, const uint32_t at[3],
                              gt_product *q);

/* Which of the slots main, vec4, texels, bands and interior some block's route
 * takes: a walk over the blocks, so only programs some block runs are
 * built (every candidate where the walk stops at GT_BLOCK_WALK_MAX). */
gt_status gt__matmul_routes_taken(const gt_context *ctx, const gt_matmul_choices *p, bool taken[GT_MATMUL_SLOTS]);

/* The longest K slice one dispatch of the plan sums: GT_MATMUL_K_CHUNK,
 * or GT_MATMUL_SHARED_K_CHUNK where AUTO runs the shared kernel alone. */
uint32_t gt__matmul_k_chunk(const gt_matmul_choices *p);

/* The route of block q of the plan. */
gt_matmul_route gt__matmul_route(const gt_context *ctx, const gt_matmul_choices *p, const gt_product *q);

/* Block q of the plan cut for GT_MATMUL_ROUTE_BLOCKS_AND_BANDS: its
 * whole blocks of the shared kernel (parts[0]), then the band of rows
 * below them across all of c, then the band of columns beside them, each
 * present only where q has it. Returns how many parts. */
int gt__matmul_band_parts(const gt_matmul_choices *p, const gt_product *q, gt_product parts[3]);

/* Block q of the plan cut for GT_MATMUL_ROUTE_INTERIOR: its whole tiles
 * of the registers kernel (parts[0]), then the rows below them across all
 * of c, then the columns beside them, each present only where q has it.
 * Returns how many parts. */
int gt__matmul_interior_parts(const gt_product *q, bool trans_a, bool trans_b, gt_product parts[3]);

/* q cut at row `rows` and column `cols` of c: parts[0] the rows x cols
 * corner, then the rows below it across all of c, then the columns right
 * of parts[0], each with the sections of op(a) and op(b) it reads (all of
 * K) and present only where not empty (parts[0] always, perhaps empty).
 * The parts write apart. Returns how many. */
int gt__product_cut(const gt_product *q, bool trans_a, bool trans_b, uint32_t rows, uint32_t cols,
                    gt_product parts[3]);

/* p with c, and the bias along it, cut to the section of c at (row, col). */
gt_product gt__product_c_section(const gt_product *p, uint32_t row, uint32_t col, uint32_t rows,
                                 uint32_t cols);

/* The section of op(x) at (row, col), as a section of the stored view. */
gt_bound_view gt__op_section(const gt_bound_view *x, bool trans, uint32_t row, uint32_t col, uint32_t rows,
                             uint32_t cols);

/* Whether the shared-memory matmul kernel fits: 16x16 invocations, 16,384
 * bytes of shared memory (its programs of halves on whole words; the ES 3.1
 * minimum). */
bool gt__shared_kernel_fits(const gt_limits *l);

/* The kernel a context's AUTO multiplies with: `wanted` (the desc's), else
 * the device entry's; where the entry's does not fit the limits, SHARED
 * becomes REGISTERS, and TEXELS without texture buffers what SHARED would.
 * GT_ERR_UNSUPPORTED where `wanted` does not fit; *refusal says why. */
gt_status gt__matmul_context_kernel(const gt_device_entry *e, const gt_limits *l, gt_matmul_kernel wanted,
                                    bool texture_buffers, gt_matmul_kernel *out, const char **refusal);

#endif
