/* mvt.cu - PolyBench/GPU MVT, x1 += A y1 and x2 += A^T y2, 256-thread CTAs:
 * mvt_rows (thread per row: each thread walks its own row of A, uncoalesced)
 * and mvt_cols (thread per column: coalesced walk down A); both accumulate
 * into their output element in global memory. */

extern "C" __global__ void mvt_rows(const float *a, float *x1, const float *y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) x1[i] += a[i * n + j] * y1[j];
  }
}

extern "C" __global__ void mvt_cols(const float *a, float *x2, const float *y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) x2[i] += a[j * n + i] * y2[j];
  }
}
