/* error_oob.cu - a kernel that writes past its allocation: the launch must fail with
 * cudaErrorIllegalAddress (sticky: the next calls report it too). Exit 0 when it does. */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void oob(int *a, int n) { a[threadIdx.x * 1024 + n] = 1; }

int main() {
  int *a;
  cudaMalloc(&a, 64 * sizeof(int));
  oob<<<1, 32>>>(a, 64);
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t later = cudaMemset(a, 0, 4);
  printf("error_oob: %s, then %s\n", cudaGetErrorName(sync), cudaGetErrorName(later));
  return !(sync == cudaErrorIllegalAddress && later == cudaErrorIllegalAddress);
}
