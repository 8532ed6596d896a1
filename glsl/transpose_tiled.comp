/* TILED_EVEN, TILED_PAD and TRUNCATE_A transpose (seeds 000, 001, 003). A
 * group moves one GT_TILE x GT_TILE tile through shared memory, so both the
 * read of the source rows and the write of the destination rows are
 * contiguous. A group has GT_TILE x GT_GROUP_ROWS invocations; each moves
 * every GT_GROUP_ROWS-th row of the tile, so a 32-tile fits 128 invocations.
 *
 * GT_GUARDED (TILED_PAD): the grid is padded to whole tiles and every
 * global access of a tile cut by the extent's edge is guarded; the
 * barrier stays in uniform control flow.
 * GT_TRUNCATE_A (seed 000, option A): the grid covers the truncated extent
 * M only, tiled exactly as TILED_EVEN. Afterwards the invocations on M's
 * last column copy their rows of the right band R, those on M's last row
 * copy their columns of the bottom band B, and the one on both copies the
 * corner C. The test is cheap and false for almost every invocation; the
 * leftover loops are shorter than a tile. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_STORAGE src[]; };
layout(std430, binding = 1) GT_WRITEONLY GT_RESTRICT buffer Dst { GT_STORAGE dst[]; };

/* One spare column: reading a column of the tile then touches GT_TILE
 * different banks instead of one. */
shared GT_ELEM tile[GT_TILE][GT_TILE + 1];

#ifdef GT_TRUNCATE_A
void copy_element(uvec2 idx) { gt_store(dst, gt_index(1u, idx.yx), gt_load(src, gt_index(0u, idx))); }

/* The leftovers beside the tile this group moved. first is the
 * invocation's first row and its column in that tile: the striped tile,
 * not gt_tile(), so the leftover rows and columns go with the tile rows
 * and columns this group has just read and written, in the group order. */
void copy_leftovers(uvec2 first) {
  uvec2 extent = gt_extent(0u);
  uvec2 main_extent = extent / uint(GT_TILE) * uint(GT_TILE);
  uint last_row = first.x + uint(GT_TILE - GT_GROUP_ROWS);
  bool is_right = first.y == main_extent.y - 1u;
  bool is_bottom = last_row == main_extent.x - 1u;
  if (is_right) {
    for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
      for (uint col = main_extent.y; col < extent.y; col++) {
        copy_element(uvec2(first.x + k, col));
      }
    }
  }
  if (is_bottom) {
    for (uint row = main_extent.x; row < extent.x; row++) {
      copy_element(uvec2(row, first.y));
    }
  }
  if (is_right && is_bottom) {
    for (uint row = main_extent.x; row < extent.x; row++) {
      for (uint col = main_extent.y; col < extent.y; col++) {
        copy_element(uvec2(row, col));
      }
    }
  }
}
#endif

#if GT_PACK > 1
/* Packed elements move a word per invocation, not an element. A tile row
 * of GT_TILE elements touches at most WORDS words, and the group's
 * invocations take the tile's (row, word) slots in turn, so each load and
 * store moves GT_PACK elements and no invocation idles. Reads take whole
 * words, neighbours' elements too, and keep this tile's. Writes: a word
 * wholly inside a destination row of the tile is this group's alone and
 * gets a plain store; the row's edge words hold elements of the
 * neighbouring tiles or outside the view, and get atomics on this row's
 * bits (gt_store_word). */
const uint WORDS = uint(GT_TILE) / uint(GT_PACK) + 1u;
const uint SLOTS = uint(GT_TILE) * WORDS;

/* The elements of the tile row starting at `at` in view v: GT_TILE, fewer
 * at the extent's edge, none past it (padded tiles). */
uint row_count(uint v, uvec2 at) {
  uvec2 e = gt_extent(v);
  return all(lessThan(at, e)) ? min(uint(GT_TILE), e.y - at.y) : 0u;
}

void read_words(uvec2 origin) {
  for (uint slot = gl_LocalInvocationIndex; slot < SLOTS; slot += gl_WorkGroupSize.x * gl_WorkGroupSize.y) {
    uint row = slot / WORDS;
    uvec2 at = origin + uvec2(row, 0u);
    uint count = row_count(0u, at), first = gt_index(0u, at);
    uint w = first / uint(GT_PACK) + slot % WORDS;
    if (count == 0u || w * uint(GT_PACK) >= first + count) continue;
    uint word = src[w];
    for (uint p = 0u; p < uint(GT_PACK); p++) {
      uint col = w * uint(GT_PACK) + p - first; /* wraps past count before the row */
      if (col < count) tile[row][col] = (word >> (p * GT_BITS)) & GT_MASK;
    }
  }
}

/* Destination row `row` of the tile holds tile[0 .. count)[row] from
 * element `first` of the binding on; `lane` is which of its words. */
void write_row_words(uint first, uint count, uint row, uint lane) {
  uint w = first / uint(GT_PACK) + lane;
  uint word = 0u, mask = 0u;
  for (uint p = 0u; p < uint(GT_PACK); p++) {
    uint col = w * uint(GT_PACK) + p - first; /* wraps past count before the row */
    if (col < count) {
      word |= tile[col][row] << (p * GT_BITS);
      mask |= GT_MASK << (p * GT_BITS);
    }
  }
  gt_store_word(dst, w, word, mask);
}

/* Destination row = source column: the tile's origin swaps. */
void write_words(uvec2 origin) {
  for (uint slot = gl_LocalInvocationIndex; slot < SLOTS; slot += gl_WorkGroupSize.x * gl_WorkGroupSize.y) {
    uint row = slot / WORDS;
    uvec2 at = origin.yx + uvec2(row, 0u);
    uint count = row_count(1u, at);
    if (count != 0u) write_row_words(gt_index(1u, at), count, row, slot % WORDS);
  }
}
#endif

void main() {
  /* The group order: transpose_order.glsl. */
  uvec2 origin = striped_tile() * uvec2(GT_TILE_ROWS, GT_TILE_COLS);
  uvec2 local = gt_local();
#if GT_PACK > 1
  read_words(origin);
  memoryBarrierShared();
  barrier();
  write_words(origin);
#else
#ifdef GT_GUARDED
  /* A tile wholly inside the extent needs no guard. The test is the same
   * for the whole group, and each case has a loop of its own: with the
   * branch inside one loop the padded kernel ran at the guarded speed
   * everywhere (docs/notes/2026-11-nvidia-transpose.md, "The padded
   * transpose with a per-group test for whole tiles"). */
  bool whole = all(lessThanEqual(origin + uvec2(GT_TILE), gt_extent(0u)));
  if (!whole) {
    for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
      tile[local.x + k][local.y] = guarded_read(src, 0u, origin + uvec2(local.x + k, local.y));
    }
  } else
#endif
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    tile[local.x + k][local.y] = src[gt_index(0u, origin + uvec2(local.x + k, local.y))];
  }
  memoryBarrierShared();
  barrier();
  /* Destination row = source column: the tile's origin swaps. */
#ifdef GT_GUARDED
  if (!whole) {
    for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
      guarded_write(dst, 1u, origin.yx + uvec2(local.x + k, local.y), tile[local.y][local.x + k]);
    }
  } else
#endif
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    dst[gt_index(1u, origin.yx + uvec2(local.x + k, local.y))] = tile[local.y][local.x + k];
  }
#endif
#ifdef GT_TRUNCATE_A
  copy_leftovers(origin + local);
#endif
}
