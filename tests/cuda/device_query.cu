/* device_query.cu - the device as a program sees it (cudaGetDeviceProperties, attributes,
 * cudaFuncGetAttributes, cudaFuncSetCacheConfig, occupancy), and error strings; prints them
 * and checks they are consistent. */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[255 - threadIdx.x];
}

int main() {
  int n = 0, dev = -1, sms = 0, warp = 0;
  cudaGetDeviceCount(&n);
  cudaSetDevice(0);
  cudaGetDevice(&dev);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  cudaFuncAttributes fa;
  cudaFuncSetCacheConfig(k, cudaFuncCachePreferShared);
  cudaError_t e = cudaFuncGetAttributes(&fa, k);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);
  printf("devices %d, device %d: %s, cc %d.%d, %d SMs, warp %d, %zu B shared/block, %d regs/block, %d threads/SM\n", n, dev, p.name,
         p.major, p.minor, p.multiProcessorCount, p.warpSize, p.sharedMemPerBlock, p.regsPerBlock, p.maxThreadsPerMultiProcessor);
  printf("kernel k: %d regs, %zu B shared, max %d threads/block, %d blocks of 256 per SM\n", fa.numRegs, fa.sharedSizeBytes,
         fa.maxThreadsPerBlock, blocks);
  printf("%s: %s\n", cudaGetErrorName(cudaErrorInvalidValue), cudaGetErrorString(cudaErrorInvalidValue));
  cudaError_t bad_dev = cudaSetDevice(7);
  cudaError_t last = cudaGetLastError(), after = cudaGetLastError();
  return !(n == 1 && dev == 0 && sms == p.multiProcessorCount && warp == 32 && e == cudaSuccess && fa.sharedSizeBytes == 1024 &&
           fa.numRegs > 0 && blocks > 0 && bad_dev == cudaErrorInvalidDevice && last == cudaErrorInvalidDevice && after == cudaSuccess);
}
