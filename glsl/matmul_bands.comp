/* The thin bands AUTO's shared kernel leaves (seed 001, option B): c's
 * last rows past its whole 128-row blocks, or its last columns past its
 * whole 128-column blocks, at most BAND of them. Padded to whole blocks,
 * such a band is one more row (column) of 128 x 128 groups, each doing a
 * whole block's work for a few results: at 4099x4097x4101, 33 x 33
 * blocks, which took a fifth round of groups where 4096^3's 32 x 32 took
 * four (docs/notes/2026-11-nvidia-matmul-f32.md, "Thin bands beside the
 * shared kernel's blocks"). Here the band costs about one read of the
 * long operand.
 *
 * A band has few results and all of K for each, so one invocation per
 * result would leave a large GPU idle: the group of 32 x 8 invocations
 * takes 32 places along the band and its (up to BAND) places across;
 * each of its 8 rows of invocations sums every 8th k, and the group adds
 * their sums in shared memory at the end. Invocation x of a row reads
 * place x of the long operand (b for a band of rows, a for one of
 * columns): consecutive elements where that operand runs along the band,
 * else one element of 32 rows, whose cache lines the next k's reads
 * find. The few elements across the band are the same for the whole row
 * of invocations (one load each).
 *
 * A band of rows when c has at most BAND rows (the bottom band, corner
 * included), else of columns (the right band): uniform, so both branches
 * are. The K loop holds no barrier. Needs 32 x 8 invocations and 8 KB of
 * shared memory (4-byte sums). */
#define ALONG 32u  /* places along the band per group: gl_WorkGroupSize.x */
#define SLICES 8u  /* rows of invocations, each every 8th k: gl_WorkGroupSize.y */
#define BAND 8u    /* most places across: GT_MATMUL_BAND_MAX on the host */

/* Each row of invocations' sums: [slice][place across][place along]. */
shared GT_SUM partial[SLICES][BAND][ALONG];

/* Adds k's products to the sums; `rows`: a band of rows. A place past
 * the band is read as its last one (the loads stay inside the views,
 * with no branch) and never stored. */
void add_k(bool rows, uint k, uint along, uint across, inout GT_SUM sums[BAND]) {
  GT_SUM own = rows ? b_one(b_index(k, along)) : a_one(a_index(along, k));
  for (uint i = 0u; i < BAND; i++) {
    uint at = min(i, across - 1u);
    GT_SUM other = rows ? a_one(a_index(at, k)) : b_one(b_index(k, at));
    GT_ADD_PRODUCT(sums[i], other, own);
  }
}

/* Sums this invocation's slice of K for every place across into
 * partial, 4 of its k a step: with one k a step each invocation waited
 * on every load in turn, and 4 halved the float bands' time
 * (docs/notes/2026-11-nvidia-matmul-f32.md, "Thin bands beside the
 * shared kernel's blocks"). */
void sum_slice(bool rows, uint place) {
  uint x = gl_LocalInvocationID.x, slice = gl_LocalInvocationID.y;
  uint across = rows ? gt_rows_m() : gt_cols_n(), length = rows ? gt_cols_n() : gt_rows_m();
  uint along = min(place, length - 1u), k = gt_k_range.x + slice;
  GT_SUM sums[BAND];
  for (uint i = 0u; i < BAND; i++)
    sums[i] = GT_SUM(0);
  for (; k + 3u * SLICES < gt_k_range.y; k += 4u * SLICES) {
    add_k(rows, k, along, across, sums);
    add_k(rows, k + SLICES, along, across, sums);
    add_k(rows, k + 2u * SLICES, along, across, sums);
    add_k(rows, k + 3u * SLICES, along, across, sums);
  }
  for (; k < gt_k_range.y; k += SLICES)
    add_k(rows, k, along, across, sums);
  for (uint i = 0u; i < BAND; i++)
    partial[slice][i][x] = sums[i];
}

void main() {
  bool rows = gt_rows_m() <= BAND;
  uint x = gl_LocalInvocationID.x, slice = gl_LocalInvocationID.y;
  uint place = gt_tile().y * ALONG + x;
  if (rows)
    sum_slice(true, place);
  else
    sum_slice(false, place);
  memoryBarrierShared();
  barrier();
  /* Invocation (x, slice) finishes place x along, place `slice` across
   * (SLICES == BAND), adding the slices in order. */
  GT_SUM sum = partial[0][slice][x];
  for (uint s = 1u; s < SLICES; s++)
    sum += partial[s][slice][x];
  uint across = rows ? gt_rows_m() : gt_cols_n(), length = rows ? gt_cols_n() : gt_rows_m();
  if (place < length && slice < across) store_c(rows ? slice : place, rows ? place : slice, sum);
}
