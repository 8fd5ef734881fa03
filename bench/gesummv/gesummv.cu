/* gesummv.cu - PolyBench/GPU GESUMMV, y = alpha A x + beta B x, one kernel of
 * 256-thread CTAs, thread per row: each thread walks its own rows of A and B
 * (two uncoalesced streams), accumulating tmp[i] and y[i] in global memory. */

extern "C" __global__ void gesummv_rows(const float *a, const float *b, const float *x, float *y,
                                        float *tmp, int n, float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}
