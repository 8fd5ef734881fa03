/* multi_kernel.cu - several kernels (one templated, one with a 2D grid and shared memory) and
 * several launches of each, with device-to-device copies in between; checks every result. */
#include <cstdio>
#include <cuda_runtime.h>

template <typename T> __global__ void fill(T *a, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v + (T)i;
}

__global__ void transpose(const int *in, int *out, int w, int h) {
  __shared__ int tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x, y = blockIdx.x * 16 + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void add_one(int *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] += 1;
}

int main() {
  const int w = 40, h = 24, n = w * h;
  int *a, *b, *c;
  double *d;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  cudaMalloc(&d, n * sizeof(double));
  fill<int><<<(n + 127) / 128, 128>>>(a, 5, n);
  fill<double><<<(n + 127) / 128, 128>>>(d, 0.5, n);
  dim3 grid((w + 15) / 16, (h + 15) / 16), block(16, 16);
  transpose<<<grid, block>>>(a, b, w, h);
  for (int k = 0; k < 3; k++) add_one<<<4, 64>>>(b, n);
  cudaMemcpy(c, b, n * sizeof(int), cudaMemcpyDeviceToDevice);
  add_one<<<2, 32>>>(c, n);
  static int hb[w * h], hc[w * h];
  static double hd[w * h];
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDefault);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int t = 5 + y * w + x + 3; /* b is the transpose: b[x*h + y] = a[y*w + x] + 3 */
      bad += hb[x * h + y] != t;
      bad += hc[x * h + y] != t + 1;
    }
  for (int i = 0; i < n; i++) bad += hd[i] != 0.5 + i;
  printf("multi_kernel: %d wrong\n", bad);
  cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
  return bad != 0 || cudaDeviceSynchronize() != cudaSuccess;
}
