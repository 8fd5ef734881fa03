// mergesort.cu - CUDA SDK-style stable merge sort of uint32 key/value pairs:
// mergesort_shared sorts 1024-element chunks in shared memory (binary-search
// merges); per global merge level, mergesort_sample_ranks and
// mergesort_merge_ranks split the runs at every 128th element and
// mergesort_merge_intervals merges each elementary interval in shared memory.
#define MS_CHUNK 1024
#define MS_SAMPLE 128

// Number of elements of data[0..len) that are < val (exclusive) or <= val
// (inclusive); `step` is a power of two >= len.
static __device__ __forceinline__ unsigned ms_rank_excl(unsigned val, const unsigned *data,
                                                        unsigned len, unsigned step)
{
  if (len == 0) return 0;
  unsigned pos = 0;
  for (; step > 0; step >>= 1) {
    unsigned next = min(pos + step, len);
    if (data[next - 1] < val) pos = next;
  }
  return pos;
}

static __device__ __forceinline__ unsigned ms_rank_incl(unsigned val, const unsigned *data,
                                                        unsigned len, unsigned step)
{
  if (len == 0) return 0;
  unsigned pos = 0;
  for (; step > 0; step >>= 1) {
    unsigned next = min(pos + step, len);
    if (data[next - 1] <= val) pos = next;
  }
  return pos;
}

// grid: n / 1024 CTAs of 512 threads; sorts each 1024-element chunk.
extern "C" __global__ void mergesort_shared(unsigned *__restrict__ dst_key, unsigned *__restrict__ dst_val,
                                            const unsigned *__restrict__ src_key,
                                            const unsigned *__restrict__ src_val)
{
  __shared__ unsigned s_key[MS_CHUNK];
  __shared__ unsigned s_val[MS_CHUNK];
  const unsigned t = threadIdx.x;
  const size_t base = (size_t)blockIdx.x * MS_CHUNK;
  s_key[t] = src_key[base + t];
  s_val[t] = src_val[base + t];
  s_key[t + MS_CHUNK / 2] = src_key[base + t + MS_CHUNK / 2];
  s_val[t + MS_CHUNK / 2] = src_val[base + t + MS_CHUNK / 2];
  for (unsigned stride = 1; stride < MS_CHUNK; stride <<= 1) {
    // Thread t owns element lpos of run A and element lpos of run B of its pair.
    const unsigned lpos = t & (stride - 1);
    unsigned *pk = s_key + 2 * (t - lpos);
    unsigned *pv = s_val + 2 * (t - lpos);
    __syncthreads();
    const unsigned ka = pk[lpos], va = pv[lpos];
    const unsigned kb = pk[lpos + stride], vb = pv[lpos + stride];
    const unsigned pa = ms_rank_excl(ka, pk + stride, stride, stride) + lpos;
    const unsigned pb = ms_rank_incl(kb, pk, stride, stride) + lpos;
    __syncthreads();
    pk[pa] = ka;
    pv[pa] = va;
    pk[pb] = kb;
    pv[pb] = vb;
  }
  __syncthreads();
  dst_key[base + t] = s_key[t];
  dst_val[base + t] = s_val[t];
  dst_key[base + t + MS_CHUNK / 2] = s_key[t + MS_CHUNK / 2];
  dst_val[base + t + MS_CHUNK / 2] = s_val[t + MS_CHUNK / 2];
}

// One thread per sample (n / 128 samples, 256 threads per CTA). Runs A and B
// of `stride` elements each form a pair; a sample of A gets rank i*128 in A
// and its exclusive rank in B, a sample of B its inclusive rank in A.
extern "C" __global__ void mergesort_sample_ranks(unsigned *__restrict__ ranks_a,
                                                  unsigned *__restrict__ ranks_b,
                                                  const unsigned *__restrict__ src_key,
                                                  unsigned stride, unsigned n)
{
  const unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned samples = stride / MS_SAMPLE; // per run
  if (pos >= n / MS_SAMPLE) return;
  const unsigned pair = pos / (2 * samples), i = pos % (2 * samples);
  const unsigned *run_a = src_key + (size_t)pair * 2 * stride;
  const unsigned *run_b = run_a + stride;
  const unsigned out = pair * 2 * samples + i;
  if (i < samples) {
    ranks_a[out] = i * MS_SAMPLE;
    ranks_b[out] = ms_rank_excl(run_a[i * MS_SAMPLE], run_b, stride, stride);
  } else {
    const unsigned j = i - samples;
    ranks_b[out] = j * MS_SAMPLE;
    ranks_a[out] = ms_rank_incl(run_b[j * MS_SAMPLE], run_a, stride, stride);
  }
}

// One thread per sample: merges the (sorted) ranks of the A samples with the
// (sorted) ranks of the B samples of each pair into the split limits.
extern "C" __global__ void mergesort_merge_ranks(unsigned *__restrict__ limits,
                                                 const unsigned *__restrict__ ranks,
                                                 unsigned stride, unsigned n)
{
  const unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned samples = stride / MS_SAMPLE;
  if (pos >= n / MS_SAMPLE) return;
  const unsigned pair = pos / (2 * samples), i = pos % (2 * samples);
  const unsigned *r = ranks + pair * 2 * samples;
  unsigned dst;
  if (i < samples)
    dst = ms_rank_excl(r[i], r + samples, samples, samples) + i;
  else
    dst = ms_rank_incl(r[i], r, samples, samples) + (i - samples);
  limits[pair * 2 * samples + dst] = r[i];
}

// One CTA of 128 threads per elementary interval: merges A[la0..la1) and
// B[lb0..lb1) (each <= 128 elements) in shared memory and stores them at
// la0 + lb0 of the pair's output.
extern "C" __global__ void mergesort_merge_intervals(unsigned *__restrict__ dst_key,
                                                     unsigned *__restrict__ dst_val,
                                                     const unsigned *__restrict__ src_key,
                                                     const unsigned *__restrict__ src_val,
                                                     const unsigned *__restrict__ limits_a,
                                                     const unsigned *__restrict__ limits_b,
                                                     unsigned stride)
{
  __shared__ unsigned s_key[2 * MS_SAMPLE];
  __shared__ unsigned s_val[2 * MS_SAMPLE];
  const unsigned t = threadIdx.x;
  const unsigned samples = stride / MS_SAMPLE;
  const unsigned pair = blockIdx.x / (2 * samples), k = blockIdx.x % (2 * samples);
  const unsigned la0 = limits_a[blockIdx.x], lb0 = limits_b[blockIdx.x];
  const unsigned la1 = k + 1 < 2 * samples ? limits_a[blockIdx.x + 1] : stride;
  const unsigned lb1 = k + 1 < 2 * samples ? limits_b[blockIdx.x + 1] : stride;
  const unsigned len_a = la1 - la0, len_b = lb1 - lb0;
  const size_t run_a = (size_t)pair * 2 * stride, run_b = run_a + stride;
  if (t < len_a) {
    s_key[t] = src_key[run_a + la0 + t];
    s_val[t] = src_val[run_a + la0 + t];
  }
  if (t < len_b) {
    s_key[MS_SAMPLE + t] = src_key[run_b + lb0 + t];
    s_val[MS_SAMPLE + t] = src_val[run_b + lb0 + t];
  }
  __syncthreads();
  unsigned ka = 0, va = 0, kb = 0, vb = 0, pa = 0, pb = 0;
  if (t < len_a) {
    ka = s_key[t];
    va = s_val[t];
    pa = ms_rank_excl(ka, s_key + MS_SAMPLE, len_b, MS_SAMPLE) + t;
  }
  if (t < len_b) {
    kb = s_key[MS_SAMPLE + t];
    vb = s_val[MS_SAMPLE + t];
    pb = ms_rank_incl(kb, s_key, len_a, MS_SAMPLE) + t;
  }
  __syncthreads();
  if (t < len_a) {
    s_key[pa] = ka;
    s_val[pa] = va;
  }
  if (t < len_b) {
    s_key[pb] = kb;
    s_val[pb] = vb;
  }
  __syncthreads();
  const size_t out = run_a + la0 + lb0;
  if (t < len_a + len_b) {
    dst_key[out + t] = s_key[t];
    dst_val[out + t] = s_val[t];
  }
  if (t + MS_SAMPLE < len_a + len_b) {
    dst_key[out + MS_SAMPLE + t] = s_key[MS_SAMPLE + t];
    dst_val[out + MS_SAMPLE + t] = s_val[MS_SAMPLE + t];
  }
}
