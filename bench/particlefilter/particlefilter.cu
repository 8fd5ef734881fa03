// particlefilter.cu - a particle filter tracking an object through a video
// (the Rodinia particlefilter algorithm, float version): per frame,
// pf_likelihood moves every particle by the motion model plus noise and
// weighs it by the likelihood of the pixels under a disk at its position
// (with a per-CTA partial sum of the weights); pf_sum adds the partial sums
// (one thread); pf_normalize divides every weight by the total; pf_cdf builds
// the cumulative distribution (one thread, sequentially); pf_find_index
// resamples: each particle takes the position of the first CDF entry at or
// above its systematic-resampling point (a linear search) and its weight is
// reset to 1/N. Arithmetic uses round-to-nearest intrinsics where a fused
// multiply-add would otherwise change the rounding, so the host reproduces
// positions and likelihoods exactly.
#define PF_BLOCK 128
// The largest mean likelihood (a disk all at 228): the weights are scaled by
// exp(-PF_LMAX) so that expf does not overflow (Rodinia's float version can);
// normalising removes the common factor.
#define PF_LMAX 327.68f

extern "C" __global__ void pf_likelihood(float *arrayX, float *arrayY, const float *xj, const float *yj,
                                         const float *noiseX, const float *noiseY, const int *objxy,
                                         const unsigned char *I, float *likelihood, float *weights,
                                         float *partial, int n, int count_ones, int isz_y, int nfr,
                                         int k, int max_size) {
  __shared__ float buf[PF_BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  float w = 0.0f;
  if (i < n) {
    float x = __fadd_rn(__fadd_rn(xj[i], 1.0f), __fmul_rn(5.0f, noiseX[i]));
    float y = __fadd_rn(__fadd_rn(yj[i], -2.0f), __fmul_rn(2.0f, noiseY[i]));
    arrayX[i] = x;
    arrayY[i] = y;
    int rx = (int)roundf(x), ry = (int)roundf(y);
    float lik = 0.0f;
    for (int j = 0; j < count_ones; j++) {
      int ind_x = rx + objxy[2 * j + 1];
      int ind_y = ry + objxy[2 * j];
      int ind = abs(ind_x * isz_y * nfr + ind_y * nfr + k);
      if (ind >= max_size) ind = 0;
      float v = (float)I[ind];
      float a = v - 100.0f, b = v - 228.0f;
      lik = __fadd_rn(lik, __fdiv_rn(__fsub_rn(__fmul_rn(a, a), __fmul_rn(b, b)), 50.0f));
    }
    lik = __fdiv_rn(lik, (float)count_ones);
    likelihood[i] = lik;
    w = __fmul_rn(weights[i], expf(__fsub_rn(lik, PF_LMAX)));
    weights[i] = w;
  }
  buf[tid] = w;
  __syncthreads();
  for (int s = PF_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) buf[tid] = __fadd_rn(buf[tid], buf[tid + s]);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = buf[0];
}

extern "C" __global__ void pf_sum(const float *partial, int nblocks, float *total) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    float s = 0.0f;
    for (int b = 0; b < nblocks; b++) s = __fadd_rn(s, partial[b]);
    total[0] = s;
  }
}

extern "C" __global__ void pf_normalize(float *weights, const float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) weights[i] = __fdiv_rn(weights[i], total[0]);
}

extern "C" __global__ void pf_cdf(const float *weights, float *cdf, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    float c = 0.0f;
    for (int x = 0; x < n; x++) {
      c = __fadd_rn(c, weights[x]);
      cdf[x] = c;
    }
  }
}

extern "C" __global__ void pf_find_index(const float *arrayX, const float *arrayY, const float *cdf, float *xj,
                                         float *yj, int *idx, float *weights, float u1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float u = __fadd_rn(u1, __fdiv_rn((float)i, (float)n));
    int index = -1;
    for (int x = 0; x < n; x++) {
      if (cdf[x] >= u) {
        index = x;
        break;
      }
    }
    if (index == -1) index = n - 1;
    idx[i] = index;
    xj[i] = arrayX[index];
    yj[i] = arrayY[index];
    weights[i] = __fdiv_rn(1.0f, (float)n);
  }
}
