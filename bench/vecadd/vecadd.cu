/* vecadd.cu - element-wise vector addition c[i] = a[i] + b[i], one thread per
 * element, 256 threads per CTA: the smoke-test kernel of warpsim. */

extern "C" __global__ void vecadd(const float *__restrict__ a, const float *__restrict__ b,
                                  float *__restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
