// saxpy.cu - the README's `warpsim launch` example: y = a*x + coeffs[0]*y.
// saxpy.ptx next to it is hand-written in nvcc's style (`nvcc -ptx -O3 -arch=sm_75` gives
// the same instructions); it has no ptxas register annotation, so warpsim estimates.
__constant__ float coeffs[3];

extern "C" __global__ void saxpy(unsigned n, float a, const float *x, float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + coeffs[0] * y[i];
}
