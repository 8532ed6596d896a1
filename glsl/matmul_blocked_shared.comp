/* Register-blocked matmul staged through shared memory: AUTO's kernel on
 * GPUs with dedicated shared memory. A group of 16 x 16 invocations
 * computes a 128 x 128 block of c; each invocation keeps 8 x 8 results in
 * sixteen vec4 registers. For every 8-wide step of K the group stores a
 * 128 x 8 slice of op(a) and an 8 x 128 slice of op(b) in shared memory
 * (4 + 4 elements per invocation), waits, and each invocation then reads
 * 2 + 2 vec4s per k for 64 multiply-adds: 8 times the arithmetic per
 * shared read of the tiled kernel, 16 times per global load.
 *
 * GT_VEC4 (AUTO where the views allow: a and b untransposed, their rows
 * 16-byte aligned, K, the K slice and N whole vec4s; the host checks):
 * each invocation loads one vec4 of a (4 steps of K of one row) and one
 * of b (4 columns of one step) per step instead of 4 + 4 floats, and
 * loads the next step's pair before this step's multiply-adds, so they
 * are in flight while it computes (on the H100 25.7 TFLOP/s at 4096^3
 * against 18.2). A vec4 lies wholly inside or outside the matrix and the
 * K slice, so each load has one guard.
 *
 * Not double-buffered in shared memory: two shared buffers double the
 * shared memory for a gain at some sizes and a loss at others; holding
 * the next step in registers was slower with scalar loads (more registers
 * per invocation), faster with vec4s (the figures: docs/performance.md).
 *
 * The invocation at (tx, ty) owns rows 4 ty .. 4 ty + 3 and 64 + 4 ty ..,
 * and columns 4 tx .. and 64 + 4 tx ..: its vec4 reads of a row of the
 * shared slices are then either broadcast (a) or 16 distinct vec4s of
 * one row, a permutation of consecutive ones (b).
 * Loads are guarded with zero fill and stores are guarded, so any extent
 * works; the K loop has uniform bounds, so both barriers are reached by
 * the whole group. Needs a 16 x 16 group (256 invocations) and 8 KiB. */
#define BM 128u
#define BK 8u

#ifdef GT_VEC4
/* NVIDIA's compiler unrolls every loop where asked (8% at 4096^3);
 * others ignore a pragma they do not know (GLSL ES 3.10, 3.4). */
#pragma optionNV(unroll all)
#endif

shared vec4 a_slice[BK][BM / 4u]; /* [k][swizzled m / 4], component m % 4 */
shared vec4 b_slice[BK][BM / 4u]; /* [k][swizzled n / 4], component n % 4 */

/* Where vec4 q of row k of a slice lives. Where neighbouring invocations
 * load neighbouring k of one row of op(a) or one column of op(b) (a
 * stored row-major, b stored transposed), eight of them would store into
 * one bank 128 floats apart; XOR with k spreads the eight rows over eight
 * banks. The readers take one k at a time, for which the XOR is a
 * permutation. */
uint slot(uint k, uint q) { return q ^ k; }

/* Stores element (m, k) of op(a), or (k, n) of op(b), in its slice. */
void put_a(uint k, uint m, float value) { a_slice[k][slot(k, m >> 2u)][m & 3u] = value; }
void put_b(uint k, uint n, float value) { b_slice[k][slot(k, n >> 2u)][n & 3u] = value; }

/* Which elements of each slice an invocation loads: neighbours take
 * neighbouring addresses of the stored matrix, whichever way it is laid
 * out (not one vec4 of 4 rows per invocation: its loads would be
 * strided). Invocation t's element j of the a slice is
 * (am + j A_STEP_M, ak + j A_STEP_K), and likewise for b. */
#ifdef GT_TRANS_A
#define A_STEP_M 0u
#define A_STEP_K (256u / BM)
#else
#define A_STEP_M (256u / BK)
#define A_STEP_K 0u
#endif
#ifdef GT_TRANS_B
#define B_STEP_N (256u / BK)
#define B_STEP_K 0u
#else
#define B_STEP_N 0u
#define B_STEP_K (256u / BM)
#endif
#define LOAD_A(j, k0) a_guarded(block.x + am + (j) * A_STEP_M, (k0) + ak + (j) * A_STEP_K)
#define LOAD_B(j, k0) b_guarded((k0) + bk + (j) * B_STEP_K, block.y + bn + (j) * B_STEP_N)
#define PUT_A(j, value) put_a(ak + (j) * A_STEP_K, am + (j) * A_STEP_M, value)
#define PUT_B(j, value) put_b(bk + (j) * B_STEP_K, bn + (j) * B_STEP_N, value)

/* Stores columns n .. n + 3 and n + 64 .. n + 67 of row m of c. */
void store_row(uint m, uint n, vec4 left, vec4 right) {
  store_c_guarded(m, n, left.x);
  store_c_guarded(m, n + 1u, left.y);
  store_c_guarded(m, n + 2u, left.z);
  store_c_guarded(m, n + 3u, left.w);
  store_c_guarded(m, n + 64u, right.x);
  store_c_guarded(m, n + 65u, right.y);
  store_c_guarded(m, n + 66u, right.z);
  store_c_guarded(m, n + 67u, right.w);
}

void main() {
  uvec2 block = gt_tile() * BM; /* first row and column of c */
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint t = ty * 16u + tx;
#ifdef GT_TRANS_A
  uint am = t % BM, ak = t / BM;
#else
  uint am = t / BK, ak = t % BK;
#endif
#ifdef GT_TRANS_B
  uint bn = t / BK, bk = t % BK;
#else
  uint bn = t % BM, bk = t / BM;
#endif

  /* acc[2 r + side] holds columns side * 64 + 4 tx .. + 3 of row 4 ty + r
   * (r < 4) or 64 + 4 ty + r - 4. It is indexed by constants only: an
   * index the compiler cannot resolve moves the array to local memory. */
  vec4 acc[16] = vec4[16](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0),
                          vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0),
                          vec4(0.0), vec4(0.0));

#ifdef GT_VEC4
  /* Invocation t loads row qm of the block's rows of a at K quad qk of
   * each step, and row qk_b of the step's rows of b at column quad qn; in
   * vec4s (offsets and pitches are multiples of 4 elements). Rows of a
   * past M and columns of b past N are never loaded. */
  uint qm = t / 2u, qk = t % 2u, qk_b = t / 32u, qn = t % 32u;
  uvec4 va = gt_views[0], vb = gt_views[1];
  uint b_pitch = vb.w / 4u, k_end = gt_k_range.y;
  bool a_row = block.x + qm < gt_rows_m(), b_col = block.y + 4u * qn < gt_cols_n();
  uint a_at = va.z / 4u + (block.x + qm) * (va.w / 4u) + gt_k_range.x / 4u + qk;
  uint b_at = vb.z / 4u + (gt_k_range.x + qk_b) * b_pitch + block.y / 4u + qn;
  vec4 la = a_row && gt_k_range.x + 4u * qk < k_end ? a4[a_at] : vec4(0.0);
  vec4 lb = b_col && gt_k_range.x + qk_b < k_end ? b4[b_at] : vec4(0.0);
#endif
  for (uint k0 = gt_k_range.x; k0 < gt_k_range.y; k0 += BK) {
#ifdef GT_VEC4
    /* a's vec4 holds 4 steps of K of row qm: one element per k row. */
    put_a(4u * qk, qm, la.x);
    put_a(4u * qk + 1u, qm, la.y);
    put_a(4u * qk + 2u, qm, la.z);
    put_a(4u * qk + 3u, qm, la.w);
    b_slice[qk_b][slot(qk_b, qn)] = lb;
#else
    /* Each invocation's 4 + 4 elements (zero past the K slice or the
     * matrix), all loads first: written out, so that they are in flight
     * together rather than each waited for by its store. */
    vec4 la = vec4(LOAD_A(0u, k0), LOAD_A(1u, k0), LOAD_A(2u, k0), LOAD_A(3u, k0));
    vec4 lb = vec4(LOAD_B(0u, k0), LOAD_B(1u, k0), LOAD_B(2u, k0), LOAD_B(3u, k0));
    PUT_A(0u, la.x); PUT_A(1u, la.y); PUT_A(2u, la.z); PUT_A(3u, la.w);
    PUT_B(0u, lb.x); PUT_B(1u, lb.y); PUT_B(2u, lb.z); PUT_B(3u, lb.w);
#endif
    memoryBarrierShared();
    barrier();
#ifdef GT_VEC4
    /* The next step's loads, in flight during this step's arithmetic. */
    a_at += BK / 4u;
    b_at += BK * b_pitch;
    la = a_row && k0 + BK + 4u * qk < k_end ? a4[a_at] : vec4(0.0);
    lb = b_col && k0 + BK + qk_b < k_end ? b4[b_at] : vec4(0.0);
#endif
    for (uint kk = 0u; kk < BK; kk++) {
      vec4 a0 = a_slice[kk][slot(kk, ty)], a1 = a_slice[kk][slot(kk, ty + 16u)];
      vec4 b0 = b_slice[kk][slot(kk, tx)], b1 = b_slice[kk][slot(kk, tx + 16u)];
      acc[0] += a0.x * b0, acc[1] += a0.x * b1, acc[2] += a0.y * b0, acc[3] += a0.y * b1;
      acc[4] += a0.z * b0, acc[5] += a0.z * b1, acc[6] += a0.w * b0, acc[7] += a0.w * b1;
      acc[8] += a1.x * b0, acc[9] += a1.x * b1, acc[10] += a1.y * b0, acc[11] += a1.y * b1;
      acc[12] += a1.z * b0, acc[13] += a1.z * b1, acc[14] += a1.w * b0, acc[15] += a1.w * b1;
    }
    /* The next step overwrites the slices everyone is reading. */
    barrier();
  }
  uint m = block.x + 4u * ty, n = block.y + 4u * tx;
  store_row(m, n, acc[0], acc[1]);
  store_row(m + 1u, n, acc[2], acc[3]);
  store_row(m + 2u, n, acc[4], acc[5]);
  store_row(m + 3u, n, acc[6], acc[7]);
  store_row(m + 64u, n, acc[8], acc[9]);
  store_row(m + 65u, n, acc[10], acc[11]);
  store_row(m + 66u, n, acc[12], acc[13]);
  store_row(m + 67u, n, acc[14], acc[15]);
}
