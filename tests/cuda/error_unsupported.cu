/* error_unsupported.cu - calls cudaMallocManaged, which warpsim does not implement: the call
 * must fail with cudaErrorNotSupported (and warpsim names the function). Exits 0 so that the
 * test sees `warpsim exec` turn the unsupported call into a failed run. */
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  float *p = 0;
  cudaError_t e = cudaMallocManaged(&p, 1024);
  printf("error_unsupported: cudaMallocManaged returned %s\n", cudaGetErrorName(e));
  return e != cudaErrorNotSupported;
}
