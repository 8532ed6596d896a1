/* SIMPLE image transpose or rotation: one invocation per source texel,
 * guarded against the source window (the grid is padded to whole groups);
 * the destination texel then exists too. */
void main() {
  uvec2 s = gt_global();
  if (gt_contains(0u, s)) {
    imageStore(dst_image, image_coord(1u, destination_of(s)), imageLoad(src_image, image_coord(0u, s)));
  }
}
