/* Register-blocked matmul staged through shared memory: AUTO's kernel on
 * GPUs with dedicated shared memory. A group of 16 x 16 invocations
 * computes a 128 x 128 block of c; each invocation keeps 8 x 8 results in
 * sixteen vec4 registers. For every 8-wide step of K the group loads a
 * 128 x 8 slice of op(a) and an 8 x 128 slice of op(b) into shared memory
 * (4 + 4 loads per invocation), waits, and each invocation then reads 2 +
 * 2 vec4s per k for 64 multiply-adds: 8 times the arithmetic per shared
 * read of the tiled kernel, 16 times per global load.
 *
 * The invocation at (tx, ty) owns rows 4 ty .. 4 ty + 3 and 64 + 4 ty ..,
 * and columns 4 tx .. and 64 + 4 tx ..: its vec4 reads of a row of the
 * shared slices are then either broadcast (a) or consecutive (b).
 * Loads are guarded with zero fill and stores are guarded, so any extent
 * works; the K loop has uniform bounds, so both barriers are reached by
 * the whole group. Needs a 16 x 16 group (256 invocations). */
#define BM 128u
#define BK 8u

shared vec4 a_slice[BK][BM / 4u]; /* [k][m / 4], component m % 4 */
shared vec4 b_slice[BK][BM / 4u]; /* [k][n / 4], component n % 4 */

void main() {
  uvec2 block = gt_tile() * BM;                /* first row and column of c */
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint t = ty * 16u + tx;
  vec4 acc[16];
  for (int i = 0; i < 16; i++) acc[i] = vec4(0.0);

  for (uint k0 = gt_k_range.x; k0 < gt_k_range.y; k0 += BK) {
    for (uint j = 0u; j < 4u; j++) {
      uint e = t + 256u * j;
      /* Which element each invocation loads: neighbours take neighbouring
       * addresses of the stored matrix, whichever way it is laid out. (One
       * vec4 of 4 rows per invocation instead ran 8 times slower on the
       * H100: strided loads.) */
#ifdef GT_TRANS_A
      uint am = e % BM, ak = e / BM;
#else
      uint am = e / BK, ak = e % BK;
#endif
#ifdef GT_TRANS_B
      uint bn = e / BK, bk = e % BK;
#else
      uint bn = e % BM, bk = e / BM;
#endif
      a_slice[ak][am >> 2u][am & 3u] = a_guarded(block.x + am, k0 + ak);
      b_slice[bk][bn >> 2u][bn & 3u] = b_guarded(k0 + bk, block.y + bn);
    }
    memoryBarrierShared();
    barrier();
    for (uint kk = 0u; kk < BK; kk++) {
      vec4 a0 = a_slice[kk][ty], a1 = a_slice[kk][ty + 16u];
      vec4 b0 = b_slice[kk][tx], b1 = b_slice[kk][tx + 16u];
      for (int r = 0; r < 4; r++) {
        acc[2 * r] += a0[r] * b0;
        acc[2 * r + 1] += a0[r] * b1;
        acc[8 + 2 * r] += a1[r] * b0;
        acc[9 + 2 * r] += a1[r] * b1;
      }
    }
    /* The next step overwrites the slices everyone is reading. */
    barrier();
  }
  for (int r = 0; r < 8; r++) {
    uint m = block.x + (r < 4 ? 4u * ty + uint(r) : 64u + 4u * ty + uint(r - 4));
    for (int side = 0; side < 2; side++) {
      vec4 v = acc[2 * r + side];
      uint n = block.y + uint(side) * 64u + 4u * tx;
      store_c_guarded(m, n, v.x);
      store_c_guarded(m, n + 1u, v.y);
      store_c_guarded(m, n + 2u, v.z);
      store_c_guarded(m, n + 3u, v.w);
    }
  }
}
