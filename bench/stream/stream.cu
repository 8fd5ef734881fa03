/* stream.cu - STREAM-style bandwidth kernels: one element (or one float4) per
 * thread, consecutive threads on consecutive addresses, so every warp access
 * is fully coalesced (copy: 4 lines of 128 B per warp instruction; triad: 1). */

extern "C" __global__ void stream_copy(float4 *__restrict__ dst, const float4 *__restrict__ src, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) dst[i] = src[i];
}

extern "C" __global__ void stream_triad(float *__restrict__ a, const float *__restrict__ b,
                                        const float *__restrict__ c, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
