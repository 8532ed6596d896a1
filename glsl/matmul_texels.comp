/* The register-blocked matmul reading a and b as texels: AUTO's kernel on
 * llvmpipe (GT_MATMUL_KERNEL_TEXELS). There a storage-buffer load is a
 * loop over the 8 lanes with a bounds check per element, a texel fetch
 * one gather of the lanes' vec4s. Each invocation keeps an 8 x 8 block of
 * c in sixteen vec4s and, for every 4 steps of k, fetches 8 texels of a
 * and 8 of b for 256 multiply-adds, no shared memory, no barrier. (Blocks
 * of 4 x 4 and of 16 x 16 ran slower: docs/notes/2026-11-llvmpipe.md, "a
 * and b as texels of texture buffers".)
 *
 * a and b are RGBA32F texture buffers over their bindings (units 0 and 1),
 * so a texel is 4 elements of a stored row; c is a storage block. A texel
 * runs along K where a is untransposed or b transposed (a[m][k..k+3], one
 * per row or column of the block) and across K otherwise (4 rows or
 * columns at one k, two per k); on llvmpipe's lanes the regrouping into
 * vec4s along K is free. The host checks that rows start 16-byte aligned
 * and that no texel the kernel needs is cut by an edge: K a multiple of 4,
 * and M (a transposed) or N (b untransposed) too. Rows and texels past M
 * and N are clamped for fetching; only stores are guarded. GT_TILE = 8 x
 * the group's side. Needs ES 3.2 (the preamble says #version 320 es). */
#if !defined(GT_TILE) || !defined(GT_GROUP_ROWS)
#error "GT_TILE and GT_GROUP_ROWS must be defined"
#endif

/* c, the uniforms and the stores are matmul_common's. */
layout(binding = 0) uniform highp samplerBuffer a_texels;
layout(binding = 1) uniform highp samplerBuffer b_texels;

/* acc[2 i + q] holds row i of the block, columns 4 q .. 4 q + 3. Indexed by
 * constants only once the loops are unrolled (every loop here is). */
vec4 acc[16];

/* c[row][col] = alpha * sum (+ beta * c), finished: one result at `at`. */
void store_one(uint at, uint row, uint col, float sum) {
  float value = gt_scale.x * sum;
  if (gt_scale.y != 0.0) value += gt_scale.y * c_data[at];
  c_data[at] = gt_finish(row, col, value);
}

/* Stores columns col .. col + 3 of row `row` of c, those inside c. */
void store_texel(uint row, uint col, vec4 sum) {
  uvec4 vc = gt_layer_view(2u);
  if (row >= vc.x) return;
  uint at = vc.z + row * vc.w + col;
  if (col < vc.y) store_one(at, row, col, sum.x);
  if (col + 1u < vc.y) store_one(at + 1u, row, col + 1u, sum.y);
  if (col + 2u < vc.y) store_one(at + 2u, row, col + 2u, sum.z);
  if (col + 3u < vc.y) store_one(at + 3u, row, col + 3u, sum.w);
}

void main() {
  uvec2 first = gt_tile_origin() + gt_local() * 8u;
  uvec4 va = gt_layer_view(0u), vb = gt_layer_view(1u), vc = gt_layer_view(2u);
  /* In texels: offsets and pitches are multiples of 4 elements. */
  uint a_pitch = va.w / 4u, b_pitch = vb.w / 4u;
  uint k4 = gt_k_range.x / 4u, steps = gt_k_range.y / 4u - k4;
#ifdef GT_TRANS_A
  /* a is K x M: stored row k, the texels of m .. m + 3 and m + 4 .. */
  uint a_last = vc.x / 4u - 1u;
  uint a_q0 = min(first.x / 4u, a_last), a_q1 = min(first.x / 4u + 1u, a_last);
  uint a_at = va.z / 4u + 4u * k4 * a_pitch;
#else
  uint a_at[8]; /* row i's texel at k = 0 */
  for (int i = 0; i < 8; i++)
    a_at[i] = va.z / 4u + min(first.x + uint(i), vc.x - 1u) * a_pitch + k4;
#endif
#ifdef GT_TRANS_B
  uint b_at[8]; /* b is N x K: column j's texel at k = 0 */
  for (int j = 0; j < 8; j++)
    b_at[j] = vb.z / 4u + min(first.y + uint(j), vc.y - 1u) * b_pitch + k4;
#else
  uint b_last = vc.y / 4u - 1u; /* of a row of b */
  uint b_q0 = min(first.y / 4u, b_last), b_q1 = min(first.y / 4u + 1u, b_last);
  uint b_at = vb.z / 4u + 4u * k4 * b_pitch;
#endif
  for (int i = 0; i < 16; i++)
    acc[i] = vec4(0.0);

  for (uint k = 0u; k < steps; k++) {
    vec4 av[8]; /* row i of the block at k .. k + 3 */
#ifdef GT_TRANS_A
    vec4 lo[4], hi[4]; /* stored row 4 k + kk: rows 0-3 and 4-7 of the block */
    for (int kk = 0; kk < 4; kk++) {
      uint row = a_at + uint(kk) * a_pitch;
      lo[kk] = texelFetch(a_texels, int(row + a_q0));
      hi[kk] = texelFetch(a_texels, int(row + a_q1));
    }
    for (int i = 0; i < 4; i++) {
      av[i] = vec4(lo[0][i], lo[1][i], lo[2][i], lo[3][i]);
      av[4 + i] = vec4(hi[0][i], hi[1][i], hi[2][i], hi[3][i]);
    }
    a_at += 4u * a_pitch;
#else
    for (int i = 0; i < 8; i++)
      av[i] = texelFetch(a_texels, int(a_at[i] + k));
#endif
    vec4 bv[8]; /* bv[2 kk + q]: b at k + kk, columns 4 q .. 4 q + 3 */
#ifdef GT_TRANS_B
    vec4 bt[8]; /* column j of the block at k .. k + 3 */
    for (int j = 0; j < 8; j++)
      bt[j] = texelFetch(b_texels, int(b_at[j] + k));
    for (int kk = 0; kk < 4; kk++) {
      bv[2 * kk] = vec4(bt[0][kk], bt[1][kk], bt[2][kk], bt[3][kk]);
      bv[2 * kk + 1] = vec4(bt[4][kk], bt[5][kk], bt[6][kk], bt[7][kk]);
    }
#else
    for (int kk = 0; kk < 4; kk++) {
      uint row = b_at + uint(kk) * b_pitch;
      bv[2 * kk] = texelFetch(b_texels, int(row + b_q0));
      bv[2 * kk + 1] = texelFetch(b_texels, int(row + b_q1));
    }
    b_at += 4u * b_pitch;
#endif
    for (int i = 0; i < 8; i++) {
      acc[2 * i] += av[i].x * bv[0] + av[i].y * bv[2] + av[i].z * bv[4] + av[i].w * bv[6];
      acc[2 * i + 1] += av[i].x * bv[1] + av[i].y * bv[3] + av[i].z * bv[5] + av[i].w * bv[7];
    }
  }

  /* Written out, not a loop: a loop llvmpipe does not unroll indexes acc
   * at run time, which keeps it in memory for the whole shader, and the
   * multiply runs far slower so, the more so with the epilogue's larger
   * stores (docs/notes/2026-11-llvmpipe.md, "The texels kernel in the
   * library"; docs/notes/2026-11-nvidia-matmul-f32.md, "The epilogue in
   * the matmul's own dispatches"). */
#define GT_STORE_ROW(i) \
  store_texel(first.x + uint(i), first.y, acc[2 * (i)]); \
  store_texel(first.x + uint(i), first.y + 4u, acc[2 * (i) + 1])
  GT_STORE_ROW(0);
  GT_STORE_ROW(1);
  GT_STORE_ROW(2);
  GT_STORE_ROW(3);
  GT_STORE_ROW(4);
  GT_STORE_ROW(5);
  GT_STORE_ROW(6);
  GT_STORE_ROW(7);
}
