/* SIMPLE matmul (seed 002, the non-tiled parallel_for_each): one
 * invocation per element of c, summing its row of op(a) and column of
 * op(b) over this dispatch's K slice. */
void main() {
  uvec2 idx = gt_global();
  if (idx.x < gt_rows_m() && idx.y < gt_cols_n()) {
    GT_SUM sum = GT_SUM(0);
    for (uint k = gt_k_range.x; k < gt_k_range.y; k++) {
      GT_ADD_PRODUCT(sum, a_elem(a_index(idx.x, k)), b_elem(b_index(k, idx.y)));
    }
    store_c(idx.x, idx.y, sum);
  }
}
