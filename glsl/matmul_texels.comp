/* The register-blocked matmul reading a and b as texels: AUTO's kernel on
 * llvmpipe (GT_MATMUL_KERNEL_TEXELS). There a storage-buffer load is a
 * loop over the 8 lanes with a bounds check per element, a texel fetch
 * one gather of the lanes' vec4s. Each invocation keeps an 8 x 8 block of
 * c in sixteen vec4s and, for every 4 steps of k, fetches a[m][k..k+3] for
 * its 8 rows and b[k+j][n..n+7] for the 4 steps: 16 texels for 256
 * multiply-adds, no shared memory, no barrier. (Blocks of 4 x 4 and of
 * 16 x 16 ran slower: docs/performance.md.)
 *
 * Only for a and b untransposed, with rows starting 16-byte aligned and K
 * and N multiples of 4 (the host checks): a and b are RGBA32F texture
 * buffers over their bindings (units 0 and 1), so a texel is 4 elements
 * of a row; c is a storage block. Rows of a past M and texels of b past N
 * are clamped for fetching; only stores are guarded. GT_TILE = 8 x the
 * group's side. Needs ES 3.2 (the preamble says #version 320 es). */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

layout(binding = 0) uniform highp samplerBuffer a_texels;
layout(binding = 1) uniform highp samplerBuffer b_texels;
layout(std430, binding = 2) GT_RESTRICT buffer C { float c_data[]; };

uniform vec2 gt_scale;
uniform uvec2 gt_k_range;

/* acc[2 i + q] holds row i of the block, columns 4 q .. 4 q + 3. Indexed by
 * constants only once the loops are unrolled (every loop here is). */
vec4 acc[16];

/* Stores columns col .. col + 3 of row `row` of c: N is a multiple of 4,
 * so they lie all inside or all outside. */
void store_texel(uint row, uint col, vec4 sum) {
  uvec4 vc = gt_views[2];
  if (row >= vc.x || col >= vc.y) return;
  uint at = vc.z + row * vc.w + col;
  vec4 value = gt_scale.x * sum;
  if (gt_scale.y != 0.0) value += gt_scale.y * vec4(c_data[at], c_data[at + 1u], c_data[at + 2u], c_data[at + 3u]);
  c_data[at] = value.x;
  c_data[at + 1u] = value.y;
  c_data[at + 2u] = value.z;
  c_data[at + 3u] = value.w;
}

void main() {
  uvec2 first = gt_tile_origin() + gt_local() * 8u;
  uvec4 va = gt_views[0], vb = gt_views[1], vc = gt_views[2];
  /* In texels: offsets and pitches are multiples of 4 elements. */
  uint a_pitch = va.w / 4u, b_pitch = vb.w / 4u;
  uint k4 = gt_k_range.x / 4u, k4_end = gt_k_range.y / 4u;
  uint last_texel = vc.y / 4u - 1u; /* of a row of b */
  uint n0 = min(first.y / 4u, last_texel), n1 = min(first.y / 4u + 1u, last_texel);
  uint a_at[8];
  for (int i = 0; i < 8; i++)
    a_at[i] = va.z / 4u + min(first.x + uint(i), vc.x - 1u) * a_pitch + k4;
  uint b_at = vb.z / 4u + k4 * 4u * b_pitch;
  for (int i = 0; i < 16; i++)
    acc[i] = vec4(0.0);

  for (uint k = 0u; k < k4_end - k4; k++) {
    vec4 b[8]; /* b[2 r + q]: row 4 k + r of b's slice, texel q */
    for (int r = 0; r < 4; r++) {
      uint row = b_at + uint(r) * b_pitch;
      b[2 * r] = texelFetch(b_texels, int(row + n0));
      b[2 * r + 1] = texelFetch(b_texels, int(row + n1));
    }
    for (int i = 0; i < 8; i++) {
      vec4 a = texelFetch(a_texels, int(a_at[i] + k));
      acc[2 * i] += a.x * b[0] + a.y * b[2] + a.z * b[4] + a.w * b[6];
      acc[2 * i + 1] += a.x * b[1] + a.y * b[3] + a.z * b[5] + a.w * b[7];
    }
    b_at += 4u * b_pitch;
  }

  /* No break or continue: loops llvmpipe cannot unroll would index acc
   * at run time, which keeps it in memory for the whole shader (the
   * multiply ran at 60% of the speed so). */
  for (int i = 0; i < 8; i++)
    for (int q = 0; q < 2; q++)
      store_texel(first.x + uint(i), first.y + 4u * uint(q), acc[2 * i + q]);
}
