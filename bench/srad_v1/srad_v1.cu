// srad_v1.cu - Speckle Reducing Anisotropic Diffusion, version 1 of Rodinia's
// srad: the image (column-major, Nr rows x Nc columns) is taken to the
// exponential domain (extract), then each iteration computes the image
// statistics with a shared-memory tree reduction (prepare + reduce passes),
// the diffusion coefficients (srad) and the divergence update (srad2); at the
// end compress returns to the log domain. 512 threads per CTA, one pixel each.

#define SRAD_THREADS 512

extern "C" __global__ void srad_extract(long Ne, float *I) {
  int ei = blockIdx.x * SRAD_THREADS + threadIdx.x;
  if (ei < Ne) I[ei] = expf(I[ei] / 255.0f);
}

extern "C" __global__ void srad_prepare(long Ne, const float *I, float *sums, float *sums2) {
  int ei = blockIdx.x * SRAD_THREADS + threadIdx.x;
  if (ei < Ne) {
    float v = I[ei];
    sums[ei] = v;
    sums2[ei] = v * v;
  }
}

// One reduction pass over `no` partial sums stored `mul` elements apart: CTA
// b adds elements b*512 .. b*512+511 (interleaved pairwise tree, the active
// threads being those with (tx+1) % step == 0) and writes the total back in
// place at element b*512, i.e. index b*512*mul.
extern "C" __global__ void srad_reduce(long Ne, int no, int mul, float *sums, float *sums2) {
  __shared__ float s1[SRAD_THREADS];
  __shared__ float s2[SRAD_THREADS];
  int tx = threadIdx.x;
  int ei = blockIdx.x * SRAD_THREADS + tx;
  if (ei < no) {
    s1[tx] = sums[(long)ei * mul];
    s2[tx] = sums2[(long)ei * mul];
  } else {
    s1[tx] = 0.0f;
    s2[tx] = 0.0f;
  }
  __syncthreads();
  for (int step = 2; step <= SRAD_THREADS; step *= 2) {
    if ((tx + 1) % step == 0) {
      s1[tx] += s1[tx - step / 2];
      s2[tx] += s2[tx - step / 2];
    }
    __syncthreads();
  }
  if (tx == SRAD_THREADS - 1) {
    long out = (long)blockIdx.x * SRAD_THREADS * mul;
    sums[out] = s1[tx];
    sums2[out] = s2[tx];
  }
}

// Directional derivatives and diffusion coefficient of every pixel.
extern "C" __global__ void srad_srad(float lambda, int Nr, int Nc, long Ne, const int *iN, const int *iS,
                                     const int *jE, const int *jW, float *dN, float *dS, float *dE,
                                     float *dW, float q0sqr, float *c, const float *I) {
  int ei = blockIdx.x * SRAD_THREADS + threadIdx.x;
  int row = ei % Nr, col = ei / Nr;
  if (ei < Ne) {
    float jc = I[ei];
    float n = I[iN[row] + Nr * col] - jc;
    float s = I[iS[row] + Nr * col] - jc;
    float w = I[row + Nr * jW[col]] - jc;
    float e = I[row + Nr * jE[col]] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1.0f + (0.25f * l);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float cc = 1.0f / (1.0f + den);
    if (cc < 0.0f)
      cc = 0.0f;
    else if (cc > 1.0f)
      cc = 1.0f;
    dN[ei] = n;
    dS[ei] = s;
    dW[ei] = w;
    dE[ei] = e;
    c[ei] = cc;
  }
}

// Divergence of c * gradient and the image update.
extern "C" __global__ void srad_srad2(float lambda, int Nr, int Nc, long Ne, const int *iN, const int *iS,
                                      const int *jE, const int *jW, const float *dN, const float *dS,
                                      const float *dE, const float *dW, const float *c, float *I) {
  int ei = blockIdx.x * SRAD_THREADS + threadIdx.x;
  int row = ei % Nr, col = ei / Nr;
  if (ei < Ne) {
    float cn = c[ei];
    float cs = c[iS[row] + Nr * col];
    float cw = c[ei];
    float ce = c[row + Nr * jE[col]];
    float d = cn * dN[ei] + cs * dS[ei] + cw * dW[ei] + ce * dE[ei];
    I[ei] = I[ei] + 0.25f * lambda * d;
  }
}

extern "C" __global__ void srad_compress(long Ne, float *I) {
  int ei = blockIdx.x * SRAD_THREADS + threadIdx.x;
  if (ei < Ne) I[ei] = logf(I[ei]) * 255.0f;
}
