/* sweep_scale.cu - y[i] = 3*x[i] + 1 over N elements (argument 1), checked on the host; a user
 * program as a sweep runs it (tests/cli/exp_sweep_program.sh). Writes scale.out (N and the sum) in
 * its working folder. With a second argument "wrong" it checks against a wrong value: exit 3. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void scale(int n, const int *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 3 * x[i] + 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  int off = argc > 2 && !strcmp(argv[2], "wrong") ? 1 : 0;
  if (n <= 0 || n > (1 << 20)) { fprintf(stderr, "usage: sweep_scale N [wrong] (0 < N <= 1048576)\n"); return 2; }
  int *hx = (int *)malloc(n * sizeof(int)), *hy = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) hx[i] = i % 1000;
  int *x, *y;
  if (cudaMalloc(&x, n * sizeof(int)) || cudaMalloc(&y, n * sizeof(int))) return 2;
  cudaMemcpy(x, hx, n * sizeof(int), cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(n, x, y);
  if (cudaGetLastError() != cudaSuccess) return 4;
  cudaMemcpy(hy, y, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  int bad = 0;
  for (int i = 0; i < n; i++) {
    bad += hy[i] != 3 * hx[i] + 1 + off;
    sum += hy[i];
  }
  FILE *f = fopen("scale.out", "w");
  if (f) { fprintf(f, "%d %lld\n", n, sum); fclose(f); }
  cudaFree(x);
  cudaFree(y);
  free(hx);
  free(hy);
  printf("scale %d: %s\n", n, bad ? "FAIL" : "ok");
  return bad ? 3 : 0;
}
