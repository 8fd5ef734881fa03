/* printf.cu - device printf from two kernels (integers, floats, a string, a 64-bit value);
 * the test compares the output with what CUDA prints. */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hello(int base) {
  if (threadIdx.x % 16 == 0) printf("block %d thread %d: %d %.3f %s\n", blockIdx.x, threadIdx.x, base + threadIdx.x, 0.5f * threadIdx.x, "ok");
}

__global__ void wide(long long v, double d) { printf("wide %lld %g %c %x%%\n", v, d, 'A' + (int)threadIdx.x, 255); }

int main() {
  hello<<<2, 32>>>(100);
  cudaDeviceSynchronize();
  wide<<<1, 2>>>(1LL << 40, 2.5);
  cudaDeviceSynchronize();
  printf("host: done\n");
  return cudaGetLastError() != cudaSuccess;
}
