/* compute.cu - a compute-bound kernel for scheduler comparisons: each thread
 * runs 4 independent fma chains (`a = a * m + c`) for `iters` steps on
 * registers only, then stores one float. No memory traffic in the loop, so
 * the warp scheduler's order cannot change cache behaviour: only how well it
 * hides the 5-cycle fma latency with other warps. */

extern "C" __global__ void compute_fma(float *__restrict__ out, int iters, float m, float c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a0 = (float)threadIdx.x * 1e-3f, a1 = a0 + 0.25f, a2 = a0 + 0.5f, a3 = a0 + 0.75f;
  for (int k = 0; k < iters; k++) {
    a0 = fmaf(a0, m, c);
    a1 = fmaf(a1, m, c);
    a2 = fmaf(a2, m, c);
    a3 = fmaf(a3, m, c);
  }
  out[i] = (a0 + a1) + (a2 + a3);
}
