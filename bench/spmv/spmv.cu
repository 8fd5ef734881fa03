// spmv.cu - Parboil-style SpMV y = A x on a matrix in JDS (jagged diagonal)
// format: rows sorted by their number of nonzeros (longest first) and padded to
// slices of 32 (one warp); diagonal d holds the d-th nonzero of every row of the
// slices that have one, so thread `row` reads d_val/d_col[diag_start[d] + row]
// (coalesced) and x[col] (gathered). A slice's thread count is its longest row
// (slice_len). Both small tables live in constant memory as in Parboil; the
// loop is software-pipelined two diagonals deep (the next value and column are
// loaded while the current product is added), as Parboil's CUDA version does.
#define SPMV_MAX_DIAGS 5000
#define SPMV_MAX_SLICES 5000

__constant__ int spmv_diag_start[SPMV_MAX_DIAGS];
__constant__ int spmv_slice_len[SPMV_MAX_SLICES];

extern "C" __global__ void spmv_jds(float *__restrict__ y, const float *__restrict__ d_val,
                                    const int *__restrict__ d_col, const int *__restrict__ perm,
                                    const float *__restrict__ x, int rows)
{
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const int len = spmv_slice_len[row >> 5];
  float sum = 0.0f;
  if (len > 0) {
    int j = spmv_diag_start[0] + row;
    float v = d_val[j];
    float xv = x[d_col[j]];
    int d = 1;
#pragma unroll 1
    for (; d + 1 < len; d += 2) { // two diagonals per trip, the loads ahead of the adds
      const int j1 = spmv_diag_start[d] + row, j2 = spmv_diag_start[d + 1] + row;
      const float v1 = d_val[j1], v2 = d_val[j2];
      const int c1 = d_col[j1], c2 = d_col[j2];
      sum += v * xv;
      const float x1 = x[c1];
      sum += v1 * x1;
      v = v2;
      xv = x[c2];
    }
    if (d < len) {
      const int j1 = spmv_diag_start[d] + row;
      const float v1 = d_val[j1];
      const float x1 = x[d_col[j1]];
      sum += v * xv;
      v = v1;
      xv = x1;
    }
    sum += v * xv;
  }
  y[perm[row]] = sum;
}
