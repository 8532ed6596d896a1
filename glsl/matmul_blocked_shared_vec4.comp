/* The shared-memory matmul with vec4 loads: AUTO's kernel where the shared
 * one runs and the views allow (a and b untransposed, their rows starting
 * 16-byte aligned, K, N and the K slice whole vec4s; the host checks).
 * Same group, block and shared slices as matmul_blocked_shared.comp (a
 * 128 x 128 block of c per 16 x 16 group, 8 x 8 results per invocation,
 * 8-wide steps of K), but each invocation loads one vec4 of a (4 steps of
 * K of one row) and one of b (4 columns of one step) per step where the
 * scalar kernel loads 4 + 4 floats, and it loads the next step's pair
 * before the multiply-adds of this one, so the loads are in flight while
 * it computes (on the H100 27.8 TFLOP/s at 4096^3 against the scalar
 * kernel's 18.2: docs/performance.md).
 *
 * A vec4 lies wholly inside or wholly outside the matrix and the K slice
 * (the host's conditions), so each load has one guard, zero-filling;
 * stores are guarded per element. Needs 8 KiB of shared memory. */
/* NVIDIA's compiler unrolls every loop where asked; others ignore a pragma
 * they do not know (GLSL ES 3.10, 3.4). */
#pragma optionNV(unroll all)

#define BM 128u
#define BK 8u

layout(std430, binding = 0) readonly GT_RESTRICT buffer A { vec4 a4[]; };
layout(std430, binding = 1) readonly GT_RESTRICT buffer B { vec4 b4[]; };
layout(std430, binding = 2) GT_RESTRICT buffer C { float c_data[]; };

uniform vec2 gt_scale;
uniform uvec2 gt_k_range;

shared vec4 a_slice[BK][BM / 4u]; /* [k][swizzled m / 4], component m % 4 */
shared vec4 b_slice[BK][BM / 4u]; /* [k][swizzled n / 4], component n % 4 */

/* Where vec4 q of row k of a slice lives (the scalar kernel's swizzle:
 * the 4 stores of one loaded vec4 of a go to 4 rows k, and XOR with k
 * spreads neighbouring invocations' rows over the banks). */
uint slot(uint k, uint q) { return q ^ k; }

void store_c(uint m, uint n, float sum) {
  uvec4 v = gt_views[2];
  if (m >= v.x || n >= v.y) return;
  uint i = v.z + m * v.w + n;
  float value = gt_scale.x * sum;
  if (gt_scale.y != 0.0) value += gt_scale.y * c_data[i];
  c_data[i] = value;
}

/* Stores columns n .. n + 3 and n + 64 .. n + 67 of row m of c. */
void store_row(uint m, uint n, vec4 left, vec4 right) {
  store_c(m, n, left.x);
  store_c(m, n + 1u, left.y);
  store_c(m, n + 2u, left.z);
  store_c(m, n + 3u, left.w);
  store_c(m, n + 64u, right.x);
  store_c(m, n + 65u, right.y);
  store_c(m, n + 66u, right.z);
  store_c(m, n + 67u, right.w);
}

void main() {
  uvec2 block = gt_tile() * BM; /* first row and column of c */
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint t = ty * 16u + tx;
  /* Invocation t loads row am of the block's rows of a at K quad aq of
   * each step, and row bk of the step's rows of b at column quad bq. */
  uint am = t / 2u, aq = t % 2u;  /* 128 rows x 2 quads of K */
  uint bk = t / 32u, bq = t % 32u; /* 8 rows of K x 32 quads of columns */

  vec4 acc[16] = vec4[16](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0),
                          vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0),
                          vec4(0.0), vec4(0.0));

  /* In vec4s: offsets and pitches are multiples of 4 elements. Rows of a
   * past M and columns of b past N are never loaded; the K guard keeps
   * each load inside the slice. */
  uvec4 va = gt_views[0], vb = gt_views[1];
  uint a_pitch = va.w / 4u, b_pitch = vb.w / 4u, k_end = gt_k_range.y;
  bool a_row = block.x + am < gt_views[2].x, b_col = block.y + 4u * bq < gt_views[2].y;
  uint k0 = gt_k_range.x;
  uint a_at = va.z / 4u + (block.x + am) * a_pitch + k0 / 4u + aq;
  uint b_at = vb.z / 4u + (k0 + bk) * b_pitch + block.y / 4u + bq;
  vec4 la = a_row && k0 + 4u * aq < k_end ? a4[a_at] : vec4(0.0);
  vec4 lb = b_col && k0 + bk < k_end ? b4[b_at] : vec4(0.0);
  for (; k0 < k_end; k0 += BK) {
    /* a's vec4 holds 4 steps of K of row am: one element per k row. */
    a_slice[4u * aq][slot(4u * aq, am >> 2u)][am & 3u] = la.x;
    a_slice[4u * aq + 1u][slot(4u * aq + 1u, am >> 2u)][am & 3u] = la.y;
    a_slice[4u * aq + 2u][slot(4u * aq + 2u, am >> 2u)][am & 3u] = la.z;
    a_slice[4u * aq + 3u][slot(4u * aq + 3u, am >> 2u)][am & 3u] = la.w;
    b_slice[bk][slot(bk, bq)] = lb;
    memoryBarrierShared();
    barrier();
    /* The next step's loads, in flight during this step's arithmetic. */
    a_at += BK / 4u;
    b_at += BK * b_pitch;
    la = a_row && k0 + BK + 4u * aq < k_end ? a4[a_at] : vec4(0.0);
    lb = b_col && k0 + BK + bk < k_end ? b4[b_at] : vec4(0.0);
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
