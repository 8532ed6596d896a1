/* TRUNCATE_A transpose (seed 000, option A). The grid covers the
 * truncated extent M only, tiled exactly as TILED_EVEN. Afterwards the
 * invocations on M's last column copy their rows of the right band R, those
 * on M's last row copy their columns of the bottom band B, and the one on
 * both copies the corner C. The test is cheap and false for almost every
 * invocation; the leftover loops are shorter than a tile. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

layout(std430, binding = 0) readonly GT_RESTRICT buffer Src { GT_ELEM src[]; };
layout(std430, binding = 1) writeonly GT_RESTRICT buffer Dst { GT_ELEM dst[]; };

shared GT_ELEM tile[GT_TILE][GT_TILE + 1];

void copy_element(uvec2 idx) { dst[gt_index(1u, idx.yx)] = src[gt_index(0u, idx)]; }

void main() {
  uvec2 origin = gt_tile_origin();
  uvec2 local = gt_local();
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    tile[local.x + k][local.y] = src[gt_index(0u, origin + uvec2(local.x + k, local.y))];
  }
  memoryBarrierShared();
  barrier();
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    dst[gt_index(1u, origin.yx + uvec2(local.x + k, local.y))] = tile[local.y][local.x + k];
  }

  uvec2 extent = gt_extent(0u);
  uvec2 main_extent = extent / uint(GT_TILE) * uint(GT_TILE);
  uvec2 first = gt_global(); /* this invocation's first row, and its column */
  uint last_row = first.x + uint(GT_TILE - GT_GROUP_ROWS);
  bool is_right = first.y == main_extent.y - 1u;
  bool is_bottom = last_row == main_extent.x - 1u;
  if (is_right || is_bottom) {
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
}
