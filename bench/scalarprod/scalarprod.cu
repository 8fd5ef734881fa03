// scalarprod.cu - CUDA SDK-style batched scalar (dot) products.
// One CTA per vector pair at a time (grid-stride over pairs): ACCUM_N
// per-position partial sums in shared memory, then a shared-memory tree
// reduction with a barrier before every halving step.
#define SP_ACCUM_N 1024

extern "C" __global__ void scalarprod_kernel(float *__restrict__ out, const float *__restrict__ a,
                                             const float *__restrict__ b, int vector_n, int element_n)
{
  __shared__ float acc[SP_ACCUM_N];
  for (int vec = blockIdx.x; vec < vector_n; vec += gridDim.x) {
    const int first = vec * element_n;
    const int last = first + element_n;
    // Partial sums: accumulator i adds elements i, i + ACCUM_N, i + 2*ACCUM_N, ...
    // so that consecutive threads read consecutive addresses.
    for (int i = threadIdx.x; i < SP_ACCUM_N; i += blockDim.x) {
      float s = 0.0f;
      for (int p = first + i; p < last; p += SP_ACCUM_N) s += a[p] * b[p];
      acc[i] = s;
    }
    // Tree reduction over the accumulators, one barrier per step.
    for (int half = SP_ACCUM_N / 2; half > 0; half >>= 1) {
      __syncthreads();
      for (int i = threadIdx.x; i < half; i += blockDim.x) acc[i] += acc[i + half];
    }
    __syncthreads();
    if (threadIdx.x == 0) out[vec] = acc[0];
  }
}
