/* The programs plans can name: every operation's planner run over a
 * catalogue of calls, so the list holds what the planners decide and
 * nothing written beside them. The catalogue is chosen to take each turn
 * a planner takes; the program list test walks random calls of every
 * operation and holds the list to the planners both ways (a named
 * program missing here, a listed one no plan names). No GL. */
#include "plan/program_list.h"
#include "plan/copy_plan.h"
#include "plan/image_plan.h"
#include "plan/matmul_plan.h"
#include "plan/plan.h"
#include "plan/transfer_rows.h"
#include "plan/transpose_plan.h"

#include <string.h>

typedef struct lister {
  const gt_context *ctx;
  gt_program_each each;
  void *user;
} lister;

/* The programs of a plan its operation builds: not those of one the
 * operation refuses for want of shader atomics. */
static void emit(const lister *l, const gt_program_key *keys, int count, bool needs_atomics) {
  if (needs_atomics && !l->ctx->has_atomics) return;
  for (int i = 0; i < count; i++)
    if (keys[i].group_cols) l->each(&keys[i], l->user);
}

/* How a catalogue view lies in its buffer: its first element, and its
 * pitch past the row rounded up to 16 elements (GAPLESS: pitch = cols).
 * Rows then start on 1, 2, 4, 8 or 16 elements. */
enum { GAPLESS = -1, LAYOUTS = 8, HUGE_LAYOUT = LAYOUTS };
static const struct {
  uint32_t offset;
  int pitch_past;
} layouts[LAYOUTS] = {{0, 0}, {1, 1}, {2, 2}, {4, 4}, {16, 16}, {8, 8}, {0, GAPLESS}, {4, GAPLESS}};

/* A rows x cols view in `layout`; HUGE_LAYOUT spans more than any storage
 * block (a pitch of 2^31 elements), so the view goes in blocks. */
static gt_view lay_out(uint32_t buffer, uint32_t rows, uint32_t cols, gt_type type, int layout) {
  gt_view v = {buffer, 0, rows, cols, 0, type};
  if (layout == HUGE_LAYOUT) {
    v.pitch = 1u << 31;
    return v;
  }
  v.offset = layouts[layout].offset;
  int past = layouts[layout].pitch_past;
  v.pitch = past == GAPLESS ? cols : (cols + 15) / 16 * 16 + (uint32_t)past;
  return v;
}

/* ---- transposes, copies, transfers ------------------------------------ */

/* Extents against every tile (8 to 64) and a word's elements (2, 4):
 * under a tile, dividing some tiles and not others, dividing none. */
static const uint32_t sides[] = {3, 4, 16, 40, 48, 64, 66};
enum { SIDES = sizeof sides / sizeof sides[0] };
/* Transposes and copies move bits: one type of each element size. */
static const gt_type moved_types[] = {GT_U32, GT_U16, GT_U8};
static const uint32_t tiles[] = {0, 8, 16, 32};
/* The layouts a transpose's views take: on 16, 4, 2 and 1 elements (two
 * ways to 16: gapless or not); the source past a storage block too. */
static const int transpose_layouts[] = {0, 4, 3, 2, 1};
enum { TRANSPOSE_LAYOUTS = sizeof transpose_layouts / sizeof transpose_layouts[0] };

static void transpose(const lister *l, const gt_transpose_desc *d, gt_view src, gt_view dst) {
  gt_transpose_choices p;
  if (gt__transpose_check(d, src, dst) != GT_OK || gt__transpose_choose(l->ctx, src, dst, d, &p) != GT_OK) return;
  emit(l, p.op.keys, GT_TRANSPOSE_SLOTS, p.op.needs_atomics);
}

static void list_transposes(const lister *l) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO,      GT_STRATEGY_SIMPLE,     GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
  for (size_t t = 0; t < sizeof moved_types / sizeof moved_types[0]; t++)
    for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++)
      for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++) {
        gt_transpose_desc d = {strategies[s], tiles[i]};
        for (int r = 0; r < SIDES; r++)
          for (int c = 0; c < SIDES; c++) {
            uint32_t rows = sides[r], cols = sides[c];
            if (rows != cols && (r + c) % 3 != 0) continue; /* a third of the oblong shapes */
            for (int a = 0; a <= TRANSPOSE_LAYOUTS; a++) {
              int from = a == TRANSPOSE_LAYOUTS ? HUGE_LAYOUT : transpose_layouts[a];
              gt_view src = lay_out(1, rows, cols, moved_types[t], from);
              if (rows == cols && from != HUGE_LAYOUT) transpose(l, &d, src, src); /* in place */
              /* dst alike, or one of the two on 16 elements. */
              for (int b = 0; b < TRANSPOSE_LAYOUTS; b++)
                if (a == b || a == 0 || b == 0)
                  transpose(l, &d, src, lay_out(2, cols, rows, moved_types[t], transpose_layouts[b]));
            }
          }
      }
}

static void list_copies_and_writes(const lister *l) {
  for (size_t t = 0; t < sizeof moved_types / sizeof moved_types[0]; t++)
    for (int r = 0; r < SIDES; r += 3)
      for (int c = 0; c < SIDES; c++)
        for (int a = 0; a <= LAYOUTS; a++) {
          gt_view src = lay_out(1, sides[r], sides[c], moved_types[t], a);
          if (gt__view_check_fields(src) != GT_OK) continue;
          gt_program_key write = gt__write_program(src, 0);
          emit(l, &write, 1, true);
          for (int b = 0; b < LAYOUTS; b++) {
            gt_copy_choices p;
            if (gt__copy_choose(l->ctx, src, lay_out(2, sides[r], sides[c], moved_types[t], b), &p) == GT_OK)
              emit(l, p.op.keys, GT_COPY_SLOTS, p.op.needs_atomics);
          }
        }
}

/* ---- images -------------------------------------------------------- */

static void list_images(const lister *l) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD};
  /* Every tile divides the first, none the second. */
  static const uint32_t extents[][2] = {{64, 64}, {66, 40}};
  for (uint32_t f = 1; f <= GT_FORMAT_COUNT; f++)
    for (uint32_t turns = 0; turns < 4; turns++)
      for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++)
        for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
          for (int e = 0; e < 2; e++) {
            gt_image src = {1, 0, 0, 0, extents[e][0], extents[e][1], (gt_format)f};
            gt_transpose_desc d = {strategies[s], tiles[i]};
            gt_image_choices p;
            if (gt__image_choose(l->ctx, src, turns, &d, &p) == GT_OK) emit(l, p.op.keys, 1, false);
          }
}

/* ---- matrix multiplies ------------------------------------------------ */

/* Each pairing of operand and result types gt_matmul takes, with the
 * precisions of half sums and a per-column requantisation. */
static const struct {
  gt_type ab, c;
  gt_precision precision;
  bool per_column;
} products[] = {
    {GT_F32, GT_F32, GT_PRECISION_FLOAT, false},         {GT_F16, GT_F32, GT_PRECISION_FLOAT, false},
    {GT_F16, GT_F32, GT_PRECISION_HALF_IF_FASTER, false}, {GT_F16, GT_F32, GT_PRECISION_HALF, false},
    {GT_F16, GT_F16, GT_PRECISION_FLOAT, false},         {GT_F16, GT_F16, GT_PRECISION_HALF_IF_FASTER, false},
    {GT_F16, GT_F16, GT_PRECISION_HALF, false},          {GT_U8, GT_I32, GT_PRECISION_FLOAT, false},
    {GT_U8, GT_U8, GT_PRECISION_FLOAT, false},           {GT_U8, GT_U8, GT_PRECISION_FLOAT, true},
    {GT_I8, GT_I32, GT_PRECISION_FLOAT, false},          {GT_I8, GT_I8, GT_PRECISION_FLOAT, false},
    {GT_I8, GT_I8, GT_PRECISION_FLOAT, true}};

/* c's extents: one row and 4 (the stream kernel's programs), 9 rows;
 * rows and columns on 4 or not; products small enough for layers of them
 * to share a 4 KiB storage block; enough 128 x 128 blocks for the shared
 * kernel, with thin bands past them or not. */
static const uint32_t matmul_extents[][2] = {{1, 32},      {1, 33},      {4, 4},       {9, 3},
                                             {32, 32},     {33, 32},     {32, 33},     {33, 35},
                                             {1024, 1024}, {1028, 1024}, {1024, 1030}, {1030, 1028},
                                             {1100, 1100}};
enum { BIG_EXTENTS = 8 }; /* matmul_extents from here on */
/* K: a short K padding a 16-k step (8, 9), on 4 or not. */
static const uint32_t matmul_ks[] = {8, 9, 32, 70};

/* The operands' layouts of a catalogue multiply: bit i of the first 8
 * puts operand i (a, b, c) on 16 elements, else on 1; the last two put a
 * (then c) past a storage block, so every block binds its own. */
enum { OPERAND_LAYOUTS = 10 };
static int operand_layout(int layout, int operand) {
  if (layout >= 8) return operand == layout - 8 ? HUGE_LAYOUT : operand == 1 ? 1 : 0;
  return layout >> operand & 1 ? 0 : 1;
}

/* One call: a (M x K, or K x M transposed), b, c in `layout`, as `layers`
 * products a span apart. */
static void multiply(const lister *l, gt_matmul_desc d, int product, uint32_t m, uint32_t n, uint32_t k, int layout,
                     uint32_t layers) {
  gt_type ab = products[product].ab, ct = products[product].c;
  int la = operand_layout(layout, 0), lb = operand_layout(layout, 1), lc = operand_layout(layout, 2);
  gt_view a = d.trans_a ? lay_out(1, k, m, ab, la) : lay_out(1, m, k, ab, la);
  gt_view b = d.trans_b ? lay_out(2, n, k, ab, lb) : lay_out(2, k, n, ab, lb);
  gt_view c = lay_out(3, m, n, ct, lc);
  bool bytes = ab == GT_U8 || ab == GT_I8;
  d.precision = products[product].precision;
  if (bytes && ct != GT_I32) {
    d.quant.zero_c = 0;
    if (products[product].per_column) {
      d.quant.multipliers = (gt_view){5, 0, 1, n, 0, GT_I32};
      d.quant.shifts = (gt_view){6, 0, 1, n, 0, GT_I32};
    } else {
      d.quant.multiplier = 1 << 30;
    }
  }
  if (d.act != GT_ACTIVATION_NONE) d.bias = (gt_view){4, 0, 1, n, 0, bytes ? GT_I32 : GT_F32};
  if (gt__matmul_check(l->ctx, a, b, c, &d) != GT_OK) return;
  /* Layers a span apart, rounded to 4 elements as a batch's series are. */
  uint32_t stride[3] = {0, 0, 0};
  if (layers > 1) {
    stride[0] = (uint32_t)(gt__view_span(a) + 3) / 4 * 4;
    stride[1] = (uint32_t)(gt__view_span(b) + 3) / 4 * 4;
    stride[2] = (uint32_t)(gt__view_span(c) + 3) / 4 * 4;
  }
  /* The candidates: the catalogue's small products have few blocks, which
   * may not take every route that views of the same alignments take in
   * other blocks. */
  gt_matmul_choices p;
  if (gt__matmul_choose(l->ctx, a, b, c, &d, layers, stride, &p) == GT_OK)
    emit(l, p.candidates, GT_MATMUL_SLOTS, p.op.needs_atomics);
}

static void list_matmuls(const lister *l) {
  /* c's of 1024 and more tell only the shared kernel's choices (whether
   * it pays, thin bands), and cost a walk of many blocks where storage
   * blocks are small. */
  size_t extents = sizeof matmul_extents / sizeof matmul_extents[0];
  if (!gt__shared_kernel_fits(&l->ctx->limits)) extents = BIG_EXTENTS;
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
  for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++)
    for (int product = 0; product < (int)(sizeof products / sizeof products[0]); product++)
      for (int t = 0; t < 16; t++) {
        /* Every transpose case, an epilogue or none, one product or layers. */
        gt_matmul_desc d;
        memset(&d, 0, sizeof d);
        d.strategy = strategies[s];
        d.trans_a = t & 1;
        d.trans_b = (t & 2) != 0;
        d.act = t & 4 ? GT_ACTIVATION_RELU : GT_ACTIVATION_NONE;
        uint32_t layers = t & 8 ? 3 : 1;
        if (d.strategy != GT_STRATEGY_AUTO) {
          /* The other strategies' programs follow the tile, not the views. */
          for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++) {
            d.tile = tiles[i];
            multiply(l, d, product, 64, 64, 64, 7, layers);
            multiply(l, d, product, 5, 3, 7, 0, layers);
          }
          continue;
        }
        for (size_t e = 0; e < extents; e++)
          for (size_t k = 0; k < sizeof matmul_ks / sizeof matmul_ks[0]; k++)
            for (int layout = 0; layout < (e < BIG_EXTENTS ? OPERAND_LAYOUTS : 8); layout++)
              multiply(l, d, product, matmul_extents[e][0], matmul_extents[e][1], matmul_ks[k], layout, layers);
      }
}

/* The programs of transposes, copies, writes and images. */
static void list_data_moves(const lister *l) {
  list_transposes(l);
  list_copies_and_writes(l);
  list_images(l);
}

void gt__program_list(const gt_context *ctx, gt_program_each each, void *user) {
  lister l = {ctx, each, user};
  list_data_moves(&l);
  list_matmuls(&l);
}

/* ---- every device ------------------------------------------------------ */

/* The context options that change a plan, and the fields they set. Shader
 * atomics only take programs away (emit), so every context here has them. */
static const gt_strategy transpose_options[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD,
                                                GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
static const gt_matmul_kernel matmul_options[] = {GT_MATMUL_KERNEL_DEVICE, GT_MATMUL_KERNEL_REGISTERS,
                                                  GT_MATMUL_KERNEL_REGISTERS_K1, GT_MATMUL_KERNEL_SHARED,
                                                  GT_MATMUL_KERNEL_TEXELS};

/* The choice of AUTO that each kind of context option changes. */
static uint32_t transpose_choice(const gt_context *ctx) {
  return (uint32_t)ctx->auto_strategy << 1 | ctx->auto_quads;
}

static uint32_t matmul_choice(const gt_context *ctx) { return (uint32_t)ctx->matmul_kernel; }

enum {
  MAX_DESCS = 8,
  TRANSPOSE_OPTIONS = sizeof transpose_options / sizeof transpose_options[0],
  MATMUL_OPTIONS = sizeof matmul_options / sizeof matmul_options[0]
};
typedef char gt__options_fit[TRANSPOSE_OPTIONS <= MAX_DESCS && MATMUL_OPTIONS <= MAX_DESCS ? 1 : -1];

/* Runs `list` on entry's contexts of limit set `set` made from descs[0..n),
 * once for each distinct choice (choice_of) among them. */
static void list_distinct(const gt_device_entry *entry, int set, const gt_context_desc *descs, size_t n,
                          uint32_t (*choice_of)(const gt_context *), void (*list)(const lister *),
                          gt_program_each each, void *user) {
  uint32_t seen[MAX_DESCS];
  size_t seen_count = 0;
  for (size_t o = 0; o < n; o++) {
    gt_context ctx;
    if (gt__context_for_plans(&ctx, entry, set, &descs[o], true) != GT_OK) continue;
    uint32_t choice = choice_of(&ctx);
    bool known = false;
    for (size_t j = 0; j < seen_count; j++)
      known = known || seen[j] == choice;
    if (known) continue;
    seen[seen_count++] = choice;
    lister l = {&ctx, each, user};
    list(&l);
  }
}

void gt__program_list_every_device(gt_program_each each, void *user) {
  gt_context_desc transposes[TRANSPOSE_OPTIONS], matmuls[MATMUL_OPTIONS];
  memset(transposes, 0, sizeof transposes);
  memset(matmuls, 0, sizeof matmuls);
  for (size_t o = 0; o < TRANSPOSE_OPTIONS; o++)
    transposes[o].transpose_strategy = transpose_options[o];
  for (size_t o = 0; o < MATMUL_OPTIONS; o++)
    matmuls[o].matmul_kernel = matmul_options[o];
  const gt_device_entry *entry;
  for (size_t e = 0; (entry = gt__device_entry_at(e)) != NULL; e++)
    for (int set = 0; set < GT_LIMIT_SETS; set++) {
      /* Transposes, copies and images: once per distinct choice of AUTO's
       * strategy and its 4x4 blocks. The desc's tile only sets the tile
       * of calls that name none, which the catalogue's calls naming each
       * tile take already. Matmuls: once per kernel AUTO may run; the
       * tiled strategies name every tile themselves. */
      list_distinct(entry, set, transposes, TRANSPOSE_OPTIONS, transpose_choice, list_data_moves, each, user);
      list_distinct(entry, set, matmuls, MATMUL_OPTIONS, matmul_choice, list_matmuls, each, user);
    }
}

/* ---- distinct programs ------------------------------------------------ */

typedef struct collector {
  gt_program_key *keys;
  size_t count, capacity, found;
} collector;

/* Keeps keys sorted: a binary search for each program named, and an
 * insertion for each new one (a few thousand at most). */
static void collect(const gt_program_key *key, void *user) {
  collector *c = user;
  size_t lo = 0, hi = c->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int order = gt__program_key_order(&c->keys[mid], key);
    if (order == 0) return;
    if (order < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  c->found++;
  if (c->count == c->capacity) return;
  memmove(&c->keys[lo + 1], &c->keys[lo], (c->count - lo) * sizeof *key);
  c->keys[lo] = *key;
  c->count++;
}

size_t gt__program_list_collect(const gt_context *ctx, gt_program_key *out, size_t capacity) {
  collector c = {out, 0, capacity, 0};
  if (ctx)
    gt__program_list(ctx, collect, &c);
  else
    gt__program_list_every_device(collect, &c);
  return c.found;
}
