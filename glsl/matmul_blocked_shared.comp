/* Register-blocked matmul staged through shared memory: AUTO's kernel on
 * GPUs with dedicated shared memory. A group of 16 x 16 invocations
 * computes a 128 x 128 block of c; each invocation keeps 8 x 8 results in
 * sixteen vec4 registers. For every 8-wide step of K the group stores a
 * 128 x 8 slice of op(a) and an 8 x 128 slice of op(b) in shared memory
 * (4 + 4 elements per invocation), waits, and each invocation then
 * reads 2 + 2 vec4s per k for 64 multiply-adds: 8 times the arithmetic
 * per shared read of the tiled kernel, 16 times per global load.
 *
 * Every layout runs this one kernel: a or b transposed, any offset and
 * pitch, any extent. Each invocation loads the next step's 4 + 4
 * elements before this step's multiply-adds, so they are in flight while
 * it computes. Where a view allows (GT_VEC4_A, _B, _C: rows 16-byte
 * aligned, and no vec4 straddling an edge of the view or of the K slice;
 * the host checks), an operand's 4 elements are one vec4 load, and c's
 * row of 4 results one vec4 store; elsewhere 4 float loads, guarded only
 * where the quad is not whole, and guarded float stores. Halves (GT_HALF)
 * load a whole quad as the 2 or 3 words holding it, and a half c's row of
 * 4 results starting on a word is 2 plain word stores. On the H100 at
 * 4096^3: 34.0 TFLOP/s for a b, 43.3 for a^T b; 31.5 for a b at
 * 4099x4097x4101 (more figures in docs/performance.md).
 *
 * Not double-buffered in shared memory: two shared buffers double the
 * shared memory for a gain at some sizes and a loss at others (the
 * figures: docs/performance.md).
 *
 * The invocation at (tx, ty) owns rows 4 ty .. 4 ty + 3 and 64 + 4 ty ..,
 * and columns 4 tx .. and 64 + 4 tx ..: its vec4 reads of a row of the
 * shared slices are then either broadcast (a) or 16 distinct vec4s of
 * one row, a permutation of consecutive ones (b). The K loop has uniform
 * bounds, so both barriers are reached by the whole group. Needs a
 * 16 x 16 group (256 invocations) and 8 KiB. */
#define BM 128u
#define BK 8u

/* NVIDIA's compiler unrolls every loop where asked (8% at 4096^3);
 * others ignore a pragma they do not know (GLSL ES 3.10, 3.4). */
#pragma optionNV(unroll all)

/* Each step, each invocation loads a quad of op(a) and one of op(b): 4
 * elements adjacent in the stored matrix (zero outside the matrix or the
 * K slice). Along K (a untransposed, b transposed): row t / 2 of the
 * block, K from 4 (t % 2). Across K (a transposed, b untransposed): step
 * row t / 32, 4 rows of op(a) (columns of op(b)) from 4 (t % 32). A
 * quad is one vec4 load where the view allows (GT_VEC4_A, GT_VEC4_B; it
 * then lies wholly inside or outside), else 4 float loads.
 *
 * Each quad is stored in shared memory as one vec4 where it can be:
 * storing its 4 elements one by one, each into a component chosen at run
 * time, ran at 60-70% of the speed on the H100. So a's slice is
 * row-major where a runs along K (A_ROWS: [m][k / 4], component k % 4)
 * and [k][m / 4] where it runs across K, like b's slice. b transposed
 * runs along K but a row-major b slice would be read with 8-way bank
 * conflicts, and a quarter of the group loading 4 quads each to store
 * them transposed ran slower still; its slice is then a float array,
 * where an element's store is a plain store to a computed address and a
 * reader's 4 floats lie in one aligned vec4 (a b^T at 4096^3: 27.2
 * TFLOP/s, against 16.8 with the vec4 array). */
#ifndef GT_TRANS_A
#define A_ROWS 1
shared vec4 a_rows[BM][BK / 4u]; /* [m][k / 4], component k % 4 */
#else
shared vec4 a_slice[BK][BM / 4u]; /* [k][m / 4], component m % 4 */
#endif
/* b's slice, [k][swizzled n / 4], component n % 4; floats where b is
 * transposed, whose quads are stored element by element. */
#ifdef GT_TRANS_B
shared float b_flat[BK * BM];
#else
shared vec4 b_slice[BK][BM / 4u];
#endif

/* Where vec4 q of row k of b's slice lives. Quads of b along K store one
 * element into each of 4 rows of the slice; neighbouring invocations'
 * elements would land in one bank, 128 floats apart. XOR with k spreads
 * them over eight banks. The readers take one k at a time, for which the
 * XOR is a permutation. */
uint slot(uint k, uint q) { return q ^ k; }

/* Element n of row k of b's slice, and the vec4 of columns 4 q .. 4 q + 3. */
#ifdef GT_TRANS_B
void put_b(uint k, uint n, float value) { b_flat[k * BM + 4u * slot(k, n >> 2u) + (n & 3u)] = value; }
vec4 b_quad(uint k, uint q) {
  uint i = k * BM + 4u * slot(k, q);
  return vec4(b_flat[i], b_flat[i + 1u], b_flat[i + 2u], b_flat[i + 3u]);
}
#else
vec4 b_quad(uint k, uint q) { return b_slice[k][slot(k, q)]; }
#endif

/* Invocation t's quad of one operand: at = the index of its first element
 * in the stored matrix, advanced by step each step of K; row_k = its K
 * within the step; inside = how many of its 4 lie inside op(x)'s rows
 * (a) or columns (b). */
struct quad {
  uint at, step, row_k, inside;
};

/* Along K: row first + t / 2 (of extent); across K: rows first + 4 (t %
 * 32) .. + 3. v: the view's (rows, cols, offset, pitch). */
quad quad_along(uvec4 v, uint t, uint first, uint extent) {
  uint row = first + t / 2u, kq = 4u * (t % 2u);
  return quad(v.z + row * v.w + gt_k_range.x + kq, BK, kq, row < extent ? 4u : 0u);
}
quad quad_across(uvec4 v, uint t, uint first, uint extent) {
  uint kr = t / 32u, col = first + 4u * (t % 32u);
  return quad(v.z + (gt_k_range.x + kr) * v.w + col, BK * v.w, kr, col < extent ? min(extent - col, 4u) : 0u);
}

/* How many of the 4 elements from k on lie in the K slice. */
uint in_k_slice(uint k) { return k < gt_k_range.y ? min(gt_k_range.y - k, 4u) : 0u; }

/* How many of quad q's 4 elements to load in the step at k0: along K,
 * those inside the K slice too; across K, all or none. */
uint valid_along(quad q, uint k0) { return min(q.inside, in_k_slice(k0 + q.row_k)); }
uint valid_across(quad q, uint k0) { return k0 + q.row_k < gt_k_range.y ? q.inside : 0u; }

/* The quad's elements, zero from the valid-th on (one function per
 * operand: GLSL cannot pass a storage block to a function): one vec4 under
 * GT_VEC4_x (valid is then 0 or 4), else 4 floats, guarded only where the
 * quad is not whole. Unaligned quads once came from two vec4 loads and a
 * shuffle: the plain floats ran 31.5 TFLOP/s at 4099x4097x4101 on the
 * H100, the shuffle 21.5 (docs/performance.md). */
#ifdef GT_HALF
/* A whole quad of halves from the words holding it: 2 where it starts on
 * a word, else 3 (read only for a whole quad, valid == 4: its last
 * element lies in the view, so its word in the buffer). */
vec4 half_quad(bool odd, uint w0, uint w1, uint w2) {
  vec2 lo = unpackHalf2x16(w0), mid = unpackHalf2x16(w1);
  return odd ? vec4(lo.y, mid, unpackHalf2x16(w2).x) : vec4(lo, mid);
}
#define HALF_QUAD(words, at)                                                                      \
  half_quad(((at)&1u) != 0u, words[(at) >> 1u], words[((at) >> 1u) + 1u],                         \
            ((at)&1u) != 0u ? words[((at) >> 1u) + 2u] : 0u)
#define WHOLE_A(at) HALF_QUAD(a_words, at)
#define WHOLE_B(at) HALF_QUAD(b_words, at)
#else
#define WHOLE_A(at) vec4(a_data[at], a_data[at + 1u], a_data[at + 2u], a_data[at + 3u])
#define WHOLE_B(at) vec4(b_data[at], b_data[at + 1u], b_data[at + 2u], b_data[at + 3u])
#endif
vec4 load_a(uint at, uint valid) {
#ifdef GT_VEC4_A
  return valid != 0u ? a4[at >> 2u] : vec4(0.0);
#else
  if (valid == 4u) return WHOLE_A(at);
  return vec4(valid > 0u ? a_elem(at) : 0.0, valid > 1u ? a_elem(at + 1u) : 0.0,
              valid > 2u ? a_elem(at + 2u) : 0.0, 0.0);
#endif
}
vec4 load_b(uint at, uint valid) {
#ifdef GT_VEC4_B
  return valid != 0u ? b4[at >> 2u] : vec4(0.0);
#else
  if (valid == 4u) return WHOLE_B(at);
  return vec4(valid > 0u ? b_elem(at) : 0.0, valid > 1u ? b_elem(at + 1u) : 0.0,
              valid > 2u ? b_elem(at + 2u) : 0.0, 0.0);
#endif
}

#ifdef GT_TRANS_A
#define A_QUAD quad_across
#define A_VALID valid_across
#define PUT_A(value) a_slice[qa.row_k][t % 32u] = (value)
#else
#define A_QUAD quad_along
#define A_VALID valid_along
#define PUT_A(value) a_rows[t / 2u][t % 2u] = (value)
#endif
#ifdef GT_TRANS_B
#define B_QUAD quad_along
#define B_VALID valid_along
/* One element into each of 4 rows of the slice (row t / 2 of op(b)^T). */
#define PUT_B(value)                                                                \
  put_b(qb.row_k, t / 2u, (value).x);                                            \
  put_b(qb.row_k + 1u, t / 2u, (value).y);                                       \
  put_b(qb.row_k + 2u, t / 2u, (value).z);                                       \
  put_b(qb.row_k + 3u, t / 2u, (value).w)
#else
#define B_QUAD quad_across
#define B_VALID valid_across
#define PUT_B(value) b_slice[qb.row_k][slot(qb.row_k, t % 32u)] = (value)
#endif

/* Stores columns n .. n + 3 of row m of c. */
void store_quad(uint m, uint n, vec4 sum) {
#ifdef GT_VEC4_C
  if (m >= gt_rows_m() || n >= gt_cols_n()) return;
  uint i = gt_index(2u, uvec2(m, n)) >> 2u;
  vec4 value = gt_scale.x * sum;
  if (gt_scale.y != 0.0) value += gt_scale.y * c4[i];
  c4[i] = value;
#else
#ifdef GT_HALF_C
  /* A quad starting on a word owns its two words: plain stores. Else its
   * halves share words with the neighbouring quads, and take c_set's
   * atomics. */
  uint i = gt_index(2u, uvec2(m, n));
  if ((i & 1u) == 0u && m < gt_rows_m() && n + 3u < gt_cols_n()) {
    uint w = i >> 1u;
    vec4 value = gt_scale.x * sum;
    if (gt_scale.y != 0.0)
      value += gt_scale.y * vec4(unpackHalf2x16(c_words[w]), unpackHalf2x16(c_words[w + 1u]));
    c_words[w] = half_pair(value.xy);
    c_words[w + 1u] = half_pair(value.zw);
    return;
  }
#endif
  store_c_guarded(m, n, sum.x);
  store_c_guarded(m, n + 1u, sum.y);
  store_c_guarded(m, n + 2u, sum.z);
  store_c_guarded(m, n + 3u, sum.w);
#endif
}

/* acc[2 r + side] holds columns side * 64 + 4 tx .. + 3 of row 4 ty + r
 * (r < 4) or 64 + 4 ty + r - 4. It is indexed by constants only: an
 * index the compiler cannot resolve moves the array to local memory. */
vec4 acc[16];

/* One k of the step: a0 and a1 hold op(a) at rows 4 ty .. + 3 and
 * 64 + 4 ty .. + 3, b0 and b1 op(b) at columns 4 tx .. + 3 and
 * 64 + 4 tx .. + 3. */
void multiply(vec4 a0, vec4 a1, vec4 b0, vec4 b1) {
  acc[0] += a0.x * b0, acc[1] += a0.x * b1, acc[2] += a0.y * b0, acc[3] += a0.y * b1;
  acc[4] += a0.z * b0, acc[5] += a0.z * b1, acc[6] += a0.w * b0, acc[7] += a0.w * b1;
  acc[8] += a1.x * b0, acc[9] += a1.x * b1, acc[10] += a1.y * b0, acc[11] += a1.y * b1;
  acc[12] += a1.z * b0, acc[13] += a1.z * b1, acc[14] += a1.w * b0, acc[15] += a1.w * b1;
}

void main() {
  uvec2 block = gt_tile() * BM; /* first row and column of c */
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint t = ty * 16u + tx;
  quad qa = A_QUAD(gt_layer_view(0u), t, block.x, gt_rows_m());
  quad qb = B_QUAD(gt_layer_view(1u), t, block.y, gt_cols_n());
  for (int i = 0; i < 16; i++)
    acc[i] = vec4(0.0);

  uint k0 = gt_k_range.x;
  vec4 la = load_a(qa.at, A_VALID(qa, k0)), lb = load_b(qb.at, B_VALID(qb, k0));
  for (; k0 < gt_k_range.y; k0 += BK) {
    PUT_A(la);
    PUT_B(lb);
    memoryBarrierShared();
    barrier();
    /* The next step's loads, in flight during this step's arithmetic. */
    qa.at += qa.step;
    qb.at += qb.step;
    la = load_a(qa.at, A_VALID(qa, k0 + BK));
    lb = load_b(qb.at, B_VALID(qb, k0 + BK));
#define B0(kk) b_quad(kk, tx)
#define B1(kk) b_quad(kk, tx + 16u)
#ifdef A_ROWS
    /* 4 k at a time: each of the invocation's 8 rows as one vec4. */
    for (uint kq = 0u; kq < BK / 4u; kq++) {
      uint m = 4u * ty, k = 4u * kq;
      vec4 r0 = a_rows[m][kq], r1 = a_rows[m + 1u][kq], r2 = a_rows[m + 2u][kq], r3 = a_rows[m + 3u][kq];
      vec4 r4 = a_rows[m + 64u][kq], r5 = a_rows[m + 65u][kq], r6 = a_rows[m + 66u][kq], r7 = a_rows[m + 67u][kq];
      multiply(vec4(r0.x, r1.x, r2.x, r3.x), vec4(r4.x, r5.x, r6.x, r7.x), B0(k), B1(k));
      multiply(vec4(r0.y, r1.y, r2.y, r3.y), vec4(r4.y, r5.y, r6.y, r7.y), B0(k + 1u), B1(k + 1u));
      multiply(vec4(r0.z, r1.z, r2.z, r3.z), vec4(r4.z, r5.z, r6.z, r7.z), B0(k + 2u), B1(k + 2u));
      multiply(vec4(r0.w, r1.w, r2.w, r3.w), vec4(r4.w, r5.w, r6.w, r7.w), B0(k + 3u), B1(k + 3u));
    }
#else
    for (uint kk = 0u; kk < BK; kk++)
      multiply(a_slice[kk][ty], a_slice[kk][ty + 16u], B0(kk), B1(kk));
#endif
    /* The next step overwrites the slices everyone is reading. */
    barrier();
  }
  uint m = block.x + 4u * ty, n = block.y + 4u * tx;
  store_quad(m, n, acc[0]), store_quad(m, n + 64u, acc[1]);
  store_quad(m + 1u, n, acc[2]), store_quad(m + 1u, n + 64u, acc[3]);
  store_quad(m + 2u, n, acc[4]), store_quad(m + 2u, n + 64u, acc[5]);
  store_quad(m + 3u, n, acc[6]), store_quad(m + 3u, n + 64u, acc[7]);
  store_quad(m + 64u, n, acc[8]), store_quad(m + 64u, n + 64u, acc[9]);
  store_quad(m + 65u, n, acc[10]), store_quad(m + 65u, n + 64u, acc[11]);
  store_quad(m + 66u, n, acc[12]), store_quad(m + 66u, n + 64u, acc[13]);
  store_quad(m + 67u, n, acc[14]), store_quad(m + 67u, n + 64u, acc[15]);
}
