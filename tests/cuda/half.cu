/* half.cu - __half arithmetic (add, sub, mul, fma, compare), conversions to and from float
 * and int, and __half2; checks against the same operations done in float on the host (exact:
 * the inputs are small integers and halves, representable in FP16). */
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void hmath(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = __float2half(x[i]), b = __float2half(0.5f * i), c = __int2half_rn(3);
  __half s = __hadd(a, b), d = __hsub(a, b), m = __hmul(a, c), f = __hfma(a, b, c);
  __half2 p = __halves2half2(a, b), q = __hadd2(p, p);
  out[6 * i + 0] = __half2float(s);
  out[6 * i + 1] = __half2float(d);
  out[6 * i + 2] = __half2float(m);
  out[6 * i + 3] = __half2float(f);
  out[6 * i + 4] = __low2float(q) + __high2float(q);
  out[6 * i + 5] = __hgt(a, b) ? (float)__half2int_rn(a) : -1.0f;
}

int main() {
  const int n = 40;
  float hx[n], hout[6 * n];
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 9) - 4.0f;
  float *x, *out;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&out, sizeof hout);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  hmath<<<2, 32>>>(x, out, n);
  cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float a = hx[i], b = 0.5f * i;
    float want[6] = {a + b, a - b, a * 3, a * b + 3, 2 * a + 2 * b, a > b ? a : -1.0f};
    for (int k = 0; k < 6; k++)
      if (hout[6 * i + k] != want[k]) {
        if (bad++ < 5) printf("i %d op %d: got %g want %g\n", i, k, hout[6 * i + k], want[k]);
      }
  }
  printf("half: %d wrong\n", bad);
  return bad != 0 || cudaGetLastError() != cudaSuccess;
}
