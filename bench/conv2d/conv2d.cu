/* conv2d.cu - PolyBench/GPU 2DCONV: a 3x3 convolution with fixed weights over
 * an ni x nj float image, one thread per output pixel, 32x8 threads per CTA.
 * Plain (aliasable) pointers as in PolyBench: every tap is an ld.global. */

/* The nine weights of PolyBench's 2DCONV, w<column offset><row offset>. */
#define W11 (+0.2f)
#define W21 (+0.5f)
#define W31 (-0.8f)
#define W12 (-0.3f)
#define W22 (+0.6f)
#define W32 (-0.9f)
#define W13 (+0.4f)
#define W23 (+0.7f)
#define W33 (+0.10f)

extern "C" __global__ void conv2d_kernel(int ni, int nj, const float *a, float *b) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < 1 || row >= ni - 1 || col < 1 || col >= nj - 1) return;
  const float *above = a + (size_t)(row - 1) * nj + col;
  const float *here = above + nj;
  const float *below = here + nj;
  float acc = W11 * above[-1] + W21 * above[0] + W31 * above[1];
  acc += W12 * here[-1] + W22 * here[0] + W32 * here[1];
  acc += W13 * below[-1] + W23 * below[0] + W33 * below[1];
  b[(size_t)row * nj + col] = acc;
}
