/* The program list (src/plan/program_list.c) against the planners, both ways,
 * on the host. On contexts of every device-table entry and limit set,
 * with context options drawn at random (AUTO's transpose strategy, the
 * default tile, the matmul kernel, shader atomics), random calls of every
 * operation go through their planners as the operations do: every
 * program a plan names must be on that context's list. Over all of them,
 * every program on the list of every device (what the build validates)
 * must have been named by some plan. The calls are drawn apart from the
 * list's catalogue: other extents, offsets and pitches, so a turn of a
 * planner the catalogue misses shows here. */
#include "check.h"
#include "harness.h"
#include "plan/copy_plan.h"
#include "plan/image_plan.h"
#include "plan/matmul_plan.h"
#include "plan/program_list.h"
#include "plan/transfer_rows.h"
#include "plan/transpose_plan.h"
#include "plan_contexts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 77;

enum { MAX_KEYS = 8192 };

/* A sorted set of keys. */
typedef struct key_set {
  gt_program_key keys[MAX_KEYS];
  size_t count;
} key_set;

static bool set_has(const key_set *s, const gt_program_key *k) {
  size_t lo = 0, hi = s->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int order = gt__program_key_order(&s->keys[mid], k);
    if (order == 0) return true;
    if (order < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

static void set_add(key_set *s, const gt_program_key *k) {
  size_t lo = 0, hi = s->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int order = gt__program_key_order(&s->keys[mid], k);
    if (order == 0) return;
    if (order < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (s->count == MAX_KEYS) {
    CHECK(!"key set full");
    return;
  }
  memmove(&s->keys[lo + 1], &s->keys[lo], (s->count - lo) * sizeof *k);
  s->keys[lo] = *k;
  s->count++;
}

static key_set listed, named, every;
static const gt_context *ctx;
static int limit_set;
/* The call being planned, for a failure's message. */
static char call[256];
static unsigned long calls, outside;

static void describe(const gt_program_key *k, char *out, size_t size) {
  snprintf(out, size, "%s tile %u group %ux%u variant 0x%x elem %d format %d", gt__kernel_name(k->kernel), k->tile,
           k->group_cols, k->group_rows, k->variant, (int)k->elem, (int)k->format);
}

/* A plan's programs, as its operation builds them (not where it refuses
 * for want of atomics): each on the context's list. */
static void named_by(const gt_program_key *keys, int count, bool needs_atomics, const char *what) {
  calls++;
  if (needs_atomics && !ctx->has_atomics) return;
  for (int i = 0; i < count; i++) {
    if (!keys[i].group_cols) continue;
    set_add(&named, &keys[i]);
    if (!set_has(&listed, &keys[i])) {
      char text[160];
      describe(&keys[i], text, sizeof text);
      if (outside++ < 10)
        fprintf(stderr, "%s on %s (limit set %d, matmul kernel %d, AUTO %s): %s names %s, not on the list\n", what,
                ctx->device->name, limit_set,
                (int)ctx->matmul_kernel, gt_strategy_name(ctx->auto_strategy), call, text);
      check_failed++;
    }
  }
}

/* Extents: small ones of every remainder, a few around 1024 (the shared
 * kernel's count of blocks, thin bands). */
static uint32_t side(void) {
  uint32_t r = gt_test_rand(&rng) % 16;
  if (r < 7) return 1 + gt_test_rand(&rng) % 140;
  if (r < 10) return 8 * (1 + gt_test_rand(&rng) % 32);
  if (r < 12) return 32 * (1 + gt_test_rand(&rng) % 8);
  if (r < 15) return 1016 + gt_test_rand(&rng) % 96;
  return 1 + gt_test_rand(&rng) % 4;
}

/* A side of c the shared kernel takes: 1,016 and more. */
static uint32_t big_side(void) {
  uint32_t side = 1016 + gt_test_rand(&rng) % 96;
  return gt_test_rand(&rng) % 2 ? side & ~3u : side;
}

/* A view: rows on any count of elements, gapless or not, rarely past any
 * storage block. */
static bool aligned_views; /* every view's rows on 16 elements */

static gt_view view(uint32_t buffer, uint32_t rows, uint32_t cols, gt_type type) {
  gt_view v = {buffer, gt_test_rand(&rng) % 20, rows, cols, 0, type};
  uint32_t r = aligned_views ? 4 : gt_test_rand(&rng) % 8;
  if (r < 2) v.pitch = cols;
  else if (r < 3) v.pitch = cols + gt_test_rand(&rng) % 20;
  else if (r < 7) v.pitch = (cols + 15) / 16 * 16 + 4 * (gt_test_rand(&rng) % 5), v.offset &= ~3u;
  else v.pitch = gt_test_rand(&rng) % 4 ? cols : (uint32_t)1 << (30 + gt_test_rand(&rng) % 2);
  if (gt_test_rand(&rng) % 4 == 0) v.offset = 0;
  return v;
}

static gt_type any_type(void) { return (gt_type)(1 + gt_test_rand(&rng) % GT_TYPE_COUNT); }

static const uint32_t tiles[] = {0, 8, 16, 32};

/* A wanted program, for the search after the walk (NULL: any call).
 * The search draws calls of the operation and layout its key says,
 * read from the variant's flags, with extents, offsets and pitches
 * drawn as the walk draws them. */
static const gt_program_key *want;

static bool wants(uint32_t flag) { return want && (want->variant & flag); }


static void random_transpose(void) {
  gt_transpose_desc d = {(gt_strategy)(gt_test_rand(&rng) % 6), tiles[gt_test_rand(&rng) % 4]};
  gt_type t = any_type();
  uint32_t rows = side(), cols = gt_test_rand(&rng) % 3 == 0 ? rows : side();
  bool in_place = rows == cols && gt_test_rand(&rng) % 3 == 0;
  if (want) {
    /* Its element size, in place or not, and whole tiles of it or not. */
    while (gt_type_size(t) != gt_type_size(want->elem))
      t = any_type();
    in_place = wants(GT_VARIANT_ALIASED);
    if (want->tile && gt_test_rand(&rng) % 2) {
      rows = want->tile * (1 + gt_test_rand(&rng) % 4);
      cols = in_place ? rows : want->tile * (1 + gt_test_rand(&rng) % 4);
    }
    if (in_place) cols = rows;
  }
  gt_view src = view(1, rows, cols, t);
  gt_view dst = in_place ? src : view(2, cols, rows, t);
  gt_transpose_choices p;
  if (gt__transpose_check(&d, src, dst) != GT_OK || gt__transpose_choose(ctx, src, dst, &d, &p) != GT_OK) return;
  named_by(p.op.keys, GT_TRANSPOSE_SLOTS, p.op.needs_atomics, "transpose");
}

static void random_copy_and_write(void) {
  gt_type t = any_type();
  uint32_t rows = side(), cols = side();
  gt_view src = view(1, rows, cols, t), dst = view(2, rows, cols, t);
  gt_copy_choices p;
  if (gt__view_check_fields(src) != GT_OK || gt__view_check_fields(dst) != GT_OK) return;
  if (gt__copy_choose(ctx, src, dst, &p) == GT_OK) named_by(p.op.keys, GT_COPY_SLOTS, p.op.needs_atomics, "copy");
  gt_program_key write = gt__write_program(dst, gt_test_rand(&rng) % 2 ? 0 : cols + 1);
  named_by(&write, 1, true, "gt_write");
}

static void random_image(void) {
  gt_format format = want ? want->format : (gt_format)(1 + gt_test_rand(&rng) % GT_FORMAT_COUNT);
  uint32_t turns = want ? want->variant >> GT_VARIANT_ROTATE_SHIFT & 3u : gt_test_rand(&rng) % 4;
  gt_transpose_desc d = {(gt_strategy)(gt_test_rand(&rng) % 4), tiles[gt_test_rand(&rng) % 4]};
  uint32_t width = side(), height = side();
  if (want && want->tile) { /* whole tiles, or not, of the wanted one */
    d.tile = want->tile;
    d.strategy = wants(GT_VARIANT_GUARDED) ? GT_STRATEGY_TILED_PAD : GT_STRATEGY_TILED_EVEN;
    width = want->tile * (1 + gt_test_rand(&rng) % 8);
    height = want->tile * (1 + gt_test_rand(&rng) % 8);
  }
  gt_image src = {1, 0, 0, 0, width, height, format};
  gt_image_choices p;
  if (gt__image_choose(ctx, src, turns, &d, &p) == GT_OK) named_by(p.op.keys, 1, false, "image");
}

/* A matmul or a batch of them, of any types gt_matmul takes, planned as
 * gt_matmul and gt_matmul_batched plan. */
static void random_matmul(void) {
  static const gt_type pairs[][2] = {{GT_F32, GT_F32}, {GT_F16, GT_F32}, {GT_F16, GT_F16}, {GT_U8, GT_I32},
                                     {GT_U8, GT_U8},   {GT_I8, GT_I32},  {GT_I8, GT_I8}};
  /* Half products more often: their programs take the most turns. */
  static const int pair_of[10] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 4};
  int pair = gt_test_rand(&rng) % 2 ? pair_of[gt_test_rand(&rng) % 10] : (int)(gt_test_rand(&rng) % 7);
  if (want) {
    bool bytes = wants(GT_VARIANT_QUANT), signed_ = wants(GT_VARIANT_SIGNED);
    pair = wants(GT_VARIANT_HALF) ? (wants(GT_VARIANT_HALF_C) ? 2 : 1)
           : bytes                 ? (signed_ ? 5 : 3) + wants(GT_VARIANT_QUANT_C)
                                   : 0;
  }
  gt_type ab = pairs[pair][0], ct = pairs[pair][1];
  bool bytes = ab == GT_U8 || ab == GT_I8;
  gt_matmul_desc d;
  memset(&d, 0, sizeof d);
  d.strategy = gt_test_rand(&rng) % 2 ? GT_STRATEGY_AUTO : (gt_strategy)(1 + gt_test_rand(&rng) % 5);
  if (d.strategy == GT_STRATEGY_TRUNCATE_A) d.strategy = GT_STRATEGY_TRUNCATE_B;
  d.tile = tiles[gt_test_rand(&rng) % 4];
  if (want && want->kernel == GT_KERNEL_MATMUL_SIMPLE)
    d.strategy = gt_test_rand(&rng) % 2 ? GT_STRATEGY_SIMPLE : GT_STRATEGY_TRUNCATE_B;
  else if (want && want->kernel == GT_KERNEL_MATMUL_TILED)
    d.strategy = wants(GT_VARIANT_GUARDED) ? GT_STRATEGY_TILED_PAD : GT_STRATEGY_TILED_EVEN, d.tile = want->tile;
  else if (want)
    d.strategy = GT_STRATEGY_AUTO;
  d.trans_a = want ? wants(GT_VARIANT_TRANS_A) : gt_test_rand(&rng) % 2;
  d.trans_b = want ? wants(GT_VARIANT_TRANS_B) : gt_test_rand(&rng) % 2;
  if (ab == GT_F16) d.precision = (gt_precision)(gt_test_rand(&rng) % 3);
  if (want) d.precision = wants(GT_VARIANT_HALF_SUMS) ? (gt_precision)(1 + gt_test_rand(&rng) % 2) : 0;
  /* Rarely where storage blocks are small: a c that large is many blocks. */
  bool big = gt_test_rand(&rng) % (ctx->limits.max_storage_block_bytes < 65536 ? 64 : 4) == 0;
  uint32_t m = big ? big_side() : side(), n = big ? big_side() : side();
  uint32_t k = gt_test_rand(&rng) % 4 ? 1 + gt_test_rand(&rng) % 100 : side();
  if (gt_test_rand(&rng) % 2) k = (k + 3) / 4 * 4;
  if (bytes && ct != GT_I32) {
    if (want ? wants(GT_VARIANT_QUANT_COLUMNS) : gt_test_rand(&rng) % 3 == 0) {
      d.quant.multipliers = (gt_view){5, 0, 1, n, 0, GT_I32};
      d.quant.shifts = (gt_view){6, 0, 1, n, 0, GT_I32};
    } else {
      d.quant.multiplier = 1 << 29;
    }
  }
  uint32_t e = gt_test_rand(&rng) % 4;
  if (want) e = wants(GT_VARIANT_EPILOGUE) ? 1 + gt_test_rand(&rng) % 3 : 0;
  if (e) {
    d.act = e == 3 ? GT_ACTIVATION_CLAMP : GT_ACTIVATION_RELU;
    d.act_lo = -1, d.act_hi = 1;
    if (e != 2) d.bias = e == 1 ? (gt_view){4, 0, 1, n, 0, bytes ? GT_I32 : GT_F32}
                                : (gt_view){4, 0, m, 1, 0, bytes ? GT_I32 : GT_F32};
  }
  aligned_views = gt_test_rand(&rng) % 4 == 0;
  gt_view a = d.trans_a ? view(1, k, m, ab) : view(1, m, k, ab);
  gt_view b = d.trans_b ? view(2, n, k, ab) : view(2, k, n, ab);
  gt_view c = view(3, m, n, ct);
  aligned_views = false;
  snprintf(call, sizeof call,
           "%s %ux%ux%u types %d>%d ta %d tb %d precision %d act %d bias %ux%u a (%zu, %u) b (%zu, %u) c (%zu, %u)",
           gt_strategy_name(d.strategy), m, n, k, (int)ab, (int)ct, d.trans_a, d.trans_b, (int)d.precision,
           (int)d.act, d.bias.rows, d.bias.cols, a.offset, a.pitch, b.offset, b.pitch, c.offset, c.pitch);
  if (gt__matmul_check(ctx, a, b, c, &d) != GT_OK) return;
  gt_matmul_choices p;
  static const uint32_t unmoved[3];
  bool batch = want ? wants(GT_VARIANT_BATCHED) : gt_test_rand(&rng) % 3 == 0;
  if (!batch) {
    if (gt__matmul_choose(ctx, a, b, c, &d, 1, unmoved, &p) == GT_OK)
      named_by(p.op.keys, GT_MATMUL_SLOTS, p.op.needs_atomics, "matmul");
    return;
  }
  /* gt_matmul_batched refuses the tiled strategies before it plans. */
  if (gt__matmul_strategy_tiled(d.strategy)) return;
  gt_batch batched = {1 + gt_test_rand(&rng) % 6, gt__view_span(a) + gt_test_rand(&rng) % 5,
                      gt__view_span(b) + gt_test_rand(&rng) % 5, gt__view_span(c) + gt_test_rand(&rng) % 5};
  gt_matmul_series s;
  gt__matmul_series(ctx, a, b, c, &batched, &d, &s);
  for (uint32_t r = 0; r < s.count; r++) {
    gt_view v[3];
    gt__matmul_product_views(a, b, c, &batched, r, v);
    uint32_t layers = s.layered[r] ? s.products[r] : 1;
    if (gt__matmul_choose(ctx, v[0], v[1], v[2], &d, layers, s.layered[r] ? s.layer_stride : unmoved, &p) ==
        GT_OK)
      named_by(p.op.keys, GT_MATMUL_SLOTS, p.op.needs_atomics, "matmul batched");
  }
}

/* A context of the walk and its list. */
typedef struct walked {
  gt_context_desc desc;
  const gt_device_entry *entry;
  int set;
  bool atomics;
  gt_program_key *keys;
  size_t count;
} walked;

enum { MAX_CONTEXTS = 256 };
static walked contexts[MAX_CONTEXTS];
static unsigned context_count;

/* Makes w's context current for the calls, with its list. */
static gt_context current;
static void enter(const walked *w) {
  CHECK_STATUS(gt__context_for_plans(&current, w->entry, w->set, &w->desc, w->atomics), GT_OK);
  ctx = &current;
  limit_set = w->set;
  memcpy(listed.keys, w->keys, w->count * sizeof w->keys[0]);
  listed.count = w->count;
}

static void walk(unsigned moves, unsigned images, unsigned matmuls) {
  for (unsigned i = 0; i < moves; i++) {
    random_transpose();
    if (i % 4 == 0) random_copy_and_write();
  }
  for (unsigned i = 0; i < images; i++)
    random_image();
  for (unsigned i = 0; i < matmuls; i++)
    random_matmul();
}

/* After the walk, calls of k's operation and layout on each context that
 * lists k, until a plan names it. */
static void search(const gt_program_key *k) {
  want = k;
  bool image = k->format != 0, matmul = k->kernel >= GT_KERNEL_MATMUL_SIMPLE && k->kernel <= GT_KERNEL_MATMUL_BANDS;
  for (unsigned w = 0; w < context_count && !set_has(&named, k); w++) {
    walked *c = &contexts[w];
    bool lists = false;
    for (size_t i = 0; i < c->count && !lists; i++)
      lists = gt__program_same_key(&c->keys[i], k);
    if (!lists) continue;
    enter(c);
    for (int tries = 0; tries < 3000 && !set_has(&named, k); tries++) {
      if (image)
        random_image();
      else if (matmul)
        random_matmul();
      else
        random_transpose(), random_copy_and_write();
    }
  }
  want = NULL;
}

int main(void) {
  static gt_program_key keys[MAX_KEYS];
  size_t n = gt__program_list_collect(NULL, keys, MAX_KEYS);
  CHECK(n > 0 && n <= MAX_KEYS);
  memcpy(every.keys, keys, n * sizeof keys[0]);
  every.count = n;
  static const gt_strategy transposes[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD,
                                           GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
  const gt_device_entry *entry;
  for (size_t e = 0; (entry = gt__device_entry_at(e)) != NULL; e++)
    for (int set = 0; set < GT_LIMIT_SETS; set++)
      for (int o = 0; o < 6 && context_count < MAX_CONTEXTS; o++) {
        /* The entry's own choices first, then each other option once. */
        walked *w = &contexts[context_count];
        memset(w, 0, sizeof *w);
        if (o > 0) {
          w->desc.transpose_strategy = transposes[o - 1];
          w->desc.tile = tiles[o % 4];
          w->desc.matmul_kernel = (gt_matmul_kernel)(o - 1);
        }
        w->entry = entry;
        w->set = set;
        w->atomics = o == 0 || gt_test_rand(&rng) % 5 != 0;
        gt_context c;
        if (gt__context_for_plans(&c, entry, set, &w->desc, w->atomics) != GT_OK) continue;
        size_t count = gt__program_list_collect(&c, keys, MAX_KEYS);
        CHECK(count <= MAX_KEYS);
        w->keys = malloc(count * sizeof keys[0]);
        if (w->keys == NULL) return 1;
        memcpy(w->keys, keys, count * sizeof keys[0]);
        w->count = count;
        for (size_t i = 0; i < count; i++)
          CHECK(set_has(&every, &keys[i])); /* the build's list holds each context's */
        context_count++;
        enter(w);
        walk(3000, 1000, set == 0 ? 10000 : 3000);
      }
  /* Every listed program named by some plan: the walk's, else a search's. */
  size_t after_walk = named.count;
  for (size_t i = 0; i < every.count; i++)
    if (!set_has(&named, &every.keys[i])) search(&every.keys[i]);
  unsigned long unnamed = 0;
  for (size_t i = 0; i < every.count; i++)
    if (!set_has(&named, &every.keys[i])) {
      char text[160];
      describe(&every.keys[i], text, sizeof text);
      if (unnamed++ < 50) fprintf(stderr, "listed, no plan named it: %s\n", text);
      check_failed++;
    }
  printf("%zu programs listed for every device; %lu calls planned on %u contexts named %zu of them (%zu in the "
         "walk, the rest in a search for each); %lu named off their context's list, %lu listed and not named\n",
         every.count, calls, context_count, named.count, after_walk, outside, unnamed);
  for (unsigned w = 0; w < context_count; w++)
    free(contexts[w].keys);
  return CHECK_SUMMARY();
}
