/* constant_symbol.cu - __constant__ coefficients set with cudaMemcpyToSymbol (whole and at an
 * offset), a __device__ counter read back with cudaMemcpyFromSymbol, cudaGetSymbolAddress. */
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coef[4];
__device__ int hits;

__global__ void poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]));
  atomicAdd(&hits, 1);
}

int main() {
  const int n = 500;
  static float hx[n], hy[n];
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 7) - 3.0f;
  float c[4] = {1.0f, 2.0f, 0.0f, 0.0f}, c23[2] = {-1.0f, 0.5f};
  int zero = 0;
  cudaMemcpyToSymbol(coef, c, sizeof c);
  cudaMemcpyToSymbol(coef, c23, sizeof c23, 2 * sizeof(float)); /* coef = {1, 2, -1, 0.5} */
  cudaMemcpyToSymbol(hits, &zero, sizeof zero);
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  poly<<<(n + 63) / 64, 64>>>(x, y, n);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int h = 0;
  cudaMemcpyFromSymbol(&h, hits, sizeof h);
  int *hits_addr = 0, bad = 0;
  cudaGetSymbolAddress((void **)&hits_addr, hits);
  int h2 = 0;
  cudaMemcpy(&h2, hits_addr, sizeof h2, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    float v = hx[i];
    bad += hy[i] != 1.0f + v * (2.0f + v * (-1.0f + v * 0.5f));
  }
  printf("constant_symbol: %d wrong, hits %d (%d through the symbol's address)\n", bad, h, h2);
  return bad || h != n || h2 != n || cudaGetLastError() != cudaSuccess;
}
