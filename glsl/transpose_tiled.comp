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
/* Packed elements are written a word per invocation, not an element: a
 * destination row of the tile holds tile[0 .. count)[row] from element
 * `first` of the binding on, and `lane` takes the lane-th word the row
 * touches. A word wholly inside the row is this group's alone and gets a
 * plain store; the row's edge words hold elements of the neighbouring
 * tiles or outside the view, and get atomics on this row's bits. */
void write_row_words(uint first, uint count, uint row, uint lane) {
  uint w = first / uint(GT_PACK) + lane;
  uint word = 0u, mask = 0u;
  for (uint p = 0u; p < uint(GT_PACK); p++) {
    uint col = w * uint(GT_PACK) + p - first; /* wraps past count before the row */
    if (col < count) {
      word |= (tile[col][row] & GT_MASK) << (p * GT_BITS);
      mask |= GT_MASK << (p * GT_BITS);
    }
  }
  gt_store_word(dst, w, word, mask);
}
#endif

void main() {
  /* The group order: transpose_order.glsl. */
  uvec2 origin = striped_tile() * uvec2(GT_TILE_ROWS, GT_TILE_COLS);
  uvec2 local = gt_local();
#ifdef GT_GUARDED
  /* A tile wholly inside the extent needs no guard. The test is the same
   * for the whole group, and each case has a loop of its own: with the
   * branch inside one loop the H100 ran the padded kernel at the guarded
   * speed everywhere (docs/performance.md). */
  bool whole = all(lessThanEqual(origin + uvec2(GT_TILE), gt_extent(0u)));
  if (!whole) {
    for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
      tile[local.x + k][local.y] = guarded_read(src, 0u, origin + uvec2(local.x + k, local.y));
    }
  } else
#endif
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    tile[local.x + k][local.y] = gt_load(src, gt_index(0u, origin + uvec2(local.x + k, local.y)));
  }
  memoryBarrierShared();
  barrier();
  /* Destination row = source column: the tile's origin swaps. */
#if GT_PACK > 1
  /* Rows past the extent (padded tiles) write nothing; a row's count
   * stops at the extent's edge. */
  uvec2 dst_extent = gt_extent(1u);
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    uvec2 row_start = origin.yx + uvec2(local.x + k, 0u);
    if (row_start.x < dst_extent.x) {
      uint count = min(uint(GT_TILE), dst_extent.y - row_start.y);
      write_row_words(gt_index(1u, row_start), count, local.x + k, local.y);
    }
  }
#else
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
