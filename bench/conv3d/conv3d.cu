/* conv3d.cu - PolyBench/GPU 3DCONV: the 15-tap 3-D convolution of PolyBench
 * over an ni x nj x nk float volume. The host launches the kernel once per
 * interior plane i; a CTA of 32x8 threads covers 32 k-columns x 8 j-rows.
 * Plain (aliasable) pointers as in PolyBench: every tap is an ld.global. */

#define W11 (+2.0f)
#define W21 (+5.0f)
#define W31 (-8.0f)
#define W12 (-3.0f)
#define W22 (+6.0f)
#define W32 (-9.0f)
#define W13 (+4.0f)
#define W23 (+7.0f)
#define W33 (+10.0f)

extern "C" __global__ void conv3d_kernel(int ni, int nj, int nk, int i, const float *a, float *b) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1 || k < 1 || k >= nk - 1) return;
  size_t plane = (size_t)nj * nk;
  const float *c = a + (size_t)i * plane + (size_t)j * nk + k; /* centre tap */
  const float *lo = c - plane, *hi = c + plane;                /* planes i-1, i+1 */
  /* PolyBench's tap list, including its repeated (i-1, j-1, k-1) and
   * (i+1, j-1, k-1) taps. */
  float acc = W11 * lo[-nk - 1] + W13 * hi[-nk - 1];
  acc += W21 * lo[-nk - 1] + W23 * hi[-nk - 1];
  acc += W31 * lo[-nk - 1] + W33 * hi[-nk - 1];
  acc += W12 * c[-nk] + W22 * c[0] + W32 * c[nk];
  acc += W11 * lo[-nk + 1] + W13 * hi[-nk + 1];
  acc += W21 * lo[1] + W23 * hi[1];
  acc += W31 * lo[nk + 1] + W33 * hi[nk + 1];
  b[(size_t)i * plane + (size_t)j * nk + k] = acc;
}
