/* saxpy_events.cu - y = a*x + y timed with CUDA events; checks the result and that the events
 * measured a positive time. Exit 0 on success. */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 3000;
  static float hx[n], hy[n];
  for (int i = 0; i < n; i++) hx[i] = (float)i, hy[i] = 1.0f;
  float *x, *y;
  if (cudaMalloc(&x, n * sizeof(float)) || cudaMalloc(&y, n * sizeof(float))) return 2;
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += hy[i] != 2.0f * i + 1.0f;
  printf("saxpy_events: %d wrong, kernel time %s\n", bad, ms > 0 ? "positive" : "NOT POSITIVE");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(x);
  cudaFree(y);
  return bad || !(ms > 0) || cudaGetLastError() != cudaSuccess;
}
