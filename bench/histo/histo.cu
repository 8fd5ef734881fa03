// histo.cu - Parboil-style histogram with 8-bit bins saturating at 255:
// histo_main counts a contiguous image slice per CTA into a shared-memory
// sub-histogram with shared atomics (bins at 255 take no more atomics) and
// merges it into the global histogram with global atomics; histo_final
// saturates the global counts into the uint8 histogram.
#define HISTO_BINS 4096
#define HISTO_SAT 255u

// Grid: ceil(n / per_cta) CTAs of 512 threads; slice = per_cta pixels per CTA.
extern "C" __global__ void histo_main(unsigned *__restrict__ global_hist, const unsigned *__restrict__ img,
                                      int n, int per_cta)
{
  __shared__ unsigned s_hist[HISTO_BINS];
  for (int b = threadIdx.x; b < HISTO_BINS; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();
  const int first = blockIdx.x * per_cta;
  const int last = min(first + per_cta, n);
  for (int i = first + threadIdx.x; i < last; i += blockDim.x) {
    const unsigned v = img[i];
    if (s_hist[v] < HISTO_SAT) atomicAdd(&s_hist[v], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < HISTO_BINS; b += blockDim.x) {
    const unsigned c = s_hist[b];
    if (c) atomicAdd(&global_hist[b], c);
  }
}

// One thread per bin.
extern "C" __global__ void histo_final(unsigned char *__restrict__ out, const unsigned *__restrict__ global_hist)
{
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < HISTO_BINS) out[b] = (unsigned char)min(global_hist[b], HISTO_SAT);
}
