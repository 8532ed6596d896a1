/* Tiled image transpose and quarter turns (TILED_EVEN, TILED_PAD): a
 * group reads a GT_TILE x GT_TILE tile of the source along its rows into
 * shared memory, waits, and writes it out along the destination's rows, as
 * transpose_tiled.comp does for buffers. Reads and writes are guarded
 * (GT_GUARDED) or not (exact extents); the barrier is in uniform control
 * flow. A half turn maps rows to rows and uses image_simple.comp. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif
#if GT_ROTATE == 2
#error "a half turn has no tiled kernel"
#endif

shared GT_SHARED_TEXEL tile[GT_TILE][GT_TILE + GT_TILE_SPARE];

void main() {
  /* The group order: transpose_order.glsl, as the buffer transposes. */
  uvec2 origin = striped_tile() * uvec2(GT_TILE_ROWS, GT_TILE_COLS);
  uvec2 local = gt_local();
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    uvec2 s = origin + uvec2(local.x + k, local.y);
#ifdef GT_GUARDED
    if (gt_contains(0u, s))
#endif
      tile[local.x + k][local.y] = pack_texel(imageLoad(src_image, image_coord(0u, s)));
  }
  memoryBarrierShared();
  barrier();
  for (uint k = 0u; k < uint(GT_TILE); k += uint(GT_GROUP_ROWS)) {
    /* Neighbouring invocations take neighbouring source rows of one
     * column: neighbouring texels of one destination row. */
    uvec2 at = uvec2(local.y, local.x + k); /* (row, col) inside the tile */
    uvec2 s = origin + at;
#ifdef GT_GUARDED
    if (gt_contains(0u, s))
#endif
      imageStore(dst_image, image_coord(1u, destination_of(s)), unpack_texel(tile[at.x][at.y]));
  }
}
