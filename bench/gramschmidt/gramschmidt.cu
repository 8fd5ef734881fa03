/* gramschmidt.cu - PolyBench/GPU GRAMSCHMIDT: QR factorisation A = Q R of an
 * m x n row-major float matrix by modified Gram-Schmidt. For each column k the
 * host launches three kernels (256 threads per CTA):
 *   gramschmidt_norm     one CTA, only thread 0 works: R[k][k] = ||A[:,k]|| (serial loop)
 *   gramschmidt_scale    one thread per row i: Q[i][k] = A[i][k] / R[k][k]
 *   gramschmidt_project  one thread per column j > k: R[k][j] = Q[:,k] . A[:,j], then
 *                        A[:,j] -= Q[:,k] R[k][j] (column walks, stride n floats)
 * Plain (aliasable) pointers as in PolyBench: R[k][j] is re-read from global
 * memory in the update loop because the stores to A may alias it. */

extern "C" __global__ void gramschmidt_norm(int m, int n, int k, const float *a, float *r) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid != 0) return;
  float sum = 0.0f;
  for (int i = 0; i < m; i++) {
    float v = a[(size_t)i * n + k];
    sum += v * v;
  }
  r[(size_t)k * n + k] = sqrtf(sum);
}

extern "C" __global__ void gramschmidt_scale(int m, int n, int k, const float *a, const float *r, float *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) q[(size_t)i * n + k] = a[(size_t)i * n + k] / r[(size_t)k * n + k];
}

extern "C" __global__ void gramschmidt_project(int m, int n, int k, float *a, float *r, const float *q) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j <= k || j >= n) return;
  float *rkj = r + (size_t)k * n + j;
  *rkj = 0.0f;
  for (int i = 0; i < m; i++) *rkj += q[(size_t)i * n + k] * a[(size_t)i * n + j];
  for (int i = 0; i < m; i++) a[(size_t)i * n + j] -= q[(size_t)i * n + k] * *rkj;
}
