/* Shared by the image kernels (source string 3): the two images, their
 * formats, and where a destination texel comes from.
 *
 * Defines: one of GT_FORMAT_R32F, GT_FORMAT_R32I, GT_FORMAT_R32UI,
 * GT_FORMAT_RGBA8; GT_ROTATE 0 (transpose), 1, 2 or 3 (quarter turns
 * clockwise). gt_views[0] and [1] hold (rows, cols, x, y) of the source
 * and destination windows: rows and cols in texels, (x, y) the window's
 * origin in the texture level. */
/* Each format also says how the tiled kernel keeps a texel in shared
 * memory: as one uint (4 bytes; the tile gets a spare column against bank
 * conflicts). rgba8's 4 channels, unorm floats k / 255 from imageLoad,
 * go back to their bytes as k / 255 * 255 + 0.5 truncated, which is
 * exact, and imageStore turns k / 255 into k again. packUnorm4x8 came out
 * wrong on llvmpipe's 128-bit path (armhf under qemu: every channel read
 * back as 2; its rounding functions fail there, truncation does not).
 * Kept as the vec4 imageLoad gave (16 bytes), the tile took V3D's
 * compiler to 2 threads where the packed one runs 4 (compiler
 * statistics). */
#if defined(GT_FORMAT_R32F)
#define GT_IMAGE_FORMAT r32f
#define GT_IMAGE image2D
#define GT_SHARED_TEXEL uint
#define GT_TILE_SPARE 1
uint pack_texel(vec4 t) { return floatBitsToUint(t.x); }
vec4 unpack_texel(uint u) { return vec4(uintBitsToFloat(u), 0.0, 0.0, 1.0); }
#elif defined(GT_FORMAT_R32I)
#define GT_IMAGE_FORMAT r32i
#define GT_IMAGE iimage2D
#define GT_SHARED_TEXEL uint
#define GT_TILE_SPARE 1
uint pack_texel(ivec4 t) { return uint(t.x); } /* keeps the bits */
ivec4 unpack_texel(uint u) { return ivec4(int(u), 0, 0, 1); }
#elif defined(GT_FORMAT_R32UI)
#define GT_IMAGE_FORMAT r32ui
#define GT_IMAGE uimage2D
#define GT_SHARED_TEXEL uint
#define GT_TILE_SPARE 1
uint pack_texel(uvec4 t) { return t.x; }
uvec4 unpack_texel(uint u) { return uvec4(u, 0u, 0u, 1u); }
#elif defined(GT_FORMAT_RGBA8)
#define GT_IMAGE_FORMAT rgba8
#define GT_IMAGE image2D
#define GT_SHARED_TEXEL uint
#define GT_TILE_SPARE 1
uint pack_texel(vec4 t) {
  uvec4 b = uvec4(t * 255.0 + 0.5);
  return b.x | (b.y << 8u) | (b.z << 16u) | (b.w << 24u);
}
vec4 unpack_texel(uint u) { return vec4((uvec4(u) >> uvec4(0u, 8u, 16u, 24u)) & 0xFFu) / 255.0; }
#else
#error "one of GT_FORMAT_R32F, _R32I, _R32UI, _RGBA8 must be defined"
#endif
#ifndef GT_ROTATE
#error "GT_ROTATE must be defined"
#endif

layout(binding = 0, GT_IMAGE_FORMAT) readonly uniform highp GT_IMAGE src_image;
layout(binding = 1, GT_IMAGE_FORMAT) writeonly uniform highp GT_IMAGE dst_image;

/* Texel (row, col) of a window, as imageLoad / imageStore coordinates. */
ivec2 image_coord(uint v, uvec2 idx) { return ivec2(gt_views[v].z + idx.y, gt_views[v].w + idx.x); }

/* The destination texel that source texel s lands on. With R x C the
 * source extent: a transpose sends (r, c) to (c, r); a quarter turn
 * clockwise to (c, R-1-r); a half turn to (R-1-r, C-1-c); three quarters
 * to (C-1-c, r). */
uvec2 destination_of(uvec2 s) {
  uvec2 last = gt_extent(0u) - 1u;
#if GT_ROTATE == 0
  return s.yx;
#elif GT_ROTATE == 1
  return uvec2(s.y, last.x - s.x);
#elif GT_ROTATE == 2
  return last - s;
#else
  return uvec2(last.y - s.y, s.x);
#endif
}
