/* atax.cu - PolyBench/GPU ATAX, y = A^T (A x), as two kernels of 256-thread
 * CTAs: atax_rows (thread per row: each thread walks its own row of A,
 * uncoalesced, tmp[i] accumulated in global memory) and atax_cols (thread per
 * column: coalesced walk down the columns, y[j] accumulated in global memory). */

extern "C" __global__ void atax_rows(const float *a, const float *x, float *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    for (int j = 0; j < ny; j++) tmp[i] += a[i * ny + j] * x[j];
  }
}

extern "C" __global__ void atax_cols(const float *a, float *y, const float *tmp, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    for (int i = 0; i < nx; i++) y[j] += a[i * ny + j] * tmp[i];
  }
}
