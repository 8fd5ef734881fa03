/* streams.cu - two streams each copying, computing and copying back their half with
 * cudaMemcpyAsync, pinned host memory, events on each stream and stream synchronisation; the
 * device prefers L1 over shared memory (cudaDeviceSetCacheConfig). */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

int main() {
  const int n = 2048, half = n / 2;
  float *h, *d;
  cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  cudaStream_t s[2];
  cudaEvent_t done[2];
  for (int k = 0; k < 2; k++) cudaStreamCreate(&s[k]), cudaEventCreate(&done[k]);
  for (int k = 0; k < 2; k++) {
    float *hp = h + k * half, *dp = d + k * half;
    cudaMemcpyAsync(dp, hp, half * sizeof(float), cudaMemcpyHostToDevice, s[k]);
    scale<<<half / 256, 256, 0, s[k]>>>(dp, k ? 3.0f : 2.0f, half);
    cudaMemcpyAsync(hp, dp, half * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    cudaEventRecord(done[k], s[k]);
  }
  cudaStreamWaitEvent(s[0], done[1], 0);
  for (int k = 0; k < 2; k++) cudaStreamSynchronize(s[k]);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != (float)i * (i < half ? 2.0f : 3.0f);
  float ms = -1;
  cudaEventElapsedTime(&ms, done[0], done[1]);
  printf("streams: %d wrong, second stream after the first: %s\n", bad, ms >= 0 ? "yes" : "no");
  for (int k = 0; k < 2; k++) cudaStreamDestroy(s[k]), cudaEventDestroy(done[k]);
  cudaFreeHost(h);
  cudaFree(d);
  return bad || ms < 0 || cudaGetLastError() != cudaSuccess;
}
