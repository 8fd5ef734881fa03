/* bicg.cu - PolyBench/GPU BICG (BiCGStab sub-kernel), s = A^T r and q = A p,
 * 256-thread CTAs: bicg_cols (thread per column, coalesced walk down A,
 * s[j] accumulated in global memory) and bicg_rows (thread per row: each
 * thread walks its own row of A, uncoalesced, q[i] accumulated in global). */

extern "C" __global__ void bicg_cols(const float *a, const float *r, float *s, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    s[j] = 0.0f;
    for (int i = 0; i < nx; i++) s[j] += a[i * ny + j] * r[i];
  }
}

extern "C" __global__ void bicg_rows(const float *a, const float *p, float *q, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; j++) q[i] += a[i * ny + j] * p[j];
  }
}
