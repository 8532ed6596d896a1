/* The register-blocked matmul with vec4 loads, for AUTO where every
 * storage access costs (llvmpipe, whose accesses are gathers): each
 * invocation keeps a 4 x 4 block of c and, for every 4 steps of k, loads
 * a[m][k..k+3] for its 4 rows and b[k+j][n..n+3] for the 4 steps as 8
 * vec4s to make 64 multiply-adds, where the scalar kernel makes 32 loads.
 *
 * Only for a and b untransposed, with rows starting 16-byte aligned, K and
 * N multiples of 4 (the host checks): no vec4 then reaches past a row.
 * Rows of a past M are clamped for loading; only stores are guarded. */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

layout(std430, binding = 0) readonly GT_RESTRICT buffer A { vec4 a4[]; };
layout(std430, binding = 1) readonly GT_RESTRICT buffer B { vec4 b4[]; };
layout(std430, binding = 2) GT_RESTRICT buffer C { float c_data[]; };

uniform vec2 gt_scale;
uniform uvec2 gt_k_range;

void main() {
  uvec2 first = gt_tile_origin() + gt_local() * 4u;
  uvec4 va = gt_layer_view(0u), vb = gt_layer_view(1u), vc = gt_layer_view(2u);
  uvec4 m = min(uvec4(first.x) + uvec4(0u, 1u, 2u, 3u), uvec4(vc.x - 1u));
  uint n4 = min(first.y, vc.y - 4u) / 4u; /* this block's vec4 in a row of b */

  /* In vec4s: offsets and pitches are multiples of 4 elements. */
  uint a_pitch = va.w / 4u, b_pitch = vb.w / 4u;
  uint k4 = gt_k_range.x / 4u, k4_end = gt_k_range.y / 4u;
  uvec4 a_at = uvec4(va.z / 4u) + m * a_pitch + uvec4(k4);
  uint b_at = vb.z / 4u + k4 * 4u * b_pitch + n4;

  vec4 c0 = vec4(0.0), c1 = vec4(0.0), c2 = vec4(0.0), c3 = vec4(0.0);
  for (uint k = k4; k < k4_end; k++) {
    vec4 b0 = b4[b_at], b1 = b4[b_at + b_pitch], b2 = b4[b_at + 2u * b_pitch], b3 = b4[b_at + 3u * b_pitch];
    vec4 a = a4[a_at.x];
    c0 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
    a = a4[a_at.y];
    c1 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
    a = a4[a_at.z];
    c2 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
    a = a4[a_at.w];
    c3 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
    a_at += 1u;
    b_at += 4u * b_pitch;
  }
  vec4 rows[4] = vec4[4](c0, c1, c2, c3);
  for (uint i = 0u; i < 4u; i++) {
    uint row = first.x + i;
    for (uint j = 0u; j < 4u; j++) {
      uint col = first.y + j;
      if (row < vc.x && col < vc.y) {
        uint at = vc.z + row * vc.w + col;
        float value = gt_scale.x * rows[i][j];
        if (gt_scale.y != 0.0) value += gt_scale.y * c_data[at];
        c_data[at] = value;
      }
    }
  }
}
