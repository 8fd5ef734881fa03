// fwt.cu - CUDA SDK-style fast Walsh-Hadamard transform (dyadic convolution):
// fwt_global does one radix-4 stage over global memory for large strides,
// fwt_shared the remaining stages of each 2^k-element segment in shared memory
// (a barrier before every stage), fwt_modulate the scaled pointwise product.

// Grid (n / (4 * blockDim.x), 1); every thread does one radix-4 butterfly on
// elements i0, i0 + stride, i0 + 2 * stride, i0 + 3 * stride.
extern "C" __global__ void fwt_global(float *__restrict__ dst, const float *__restrict__ src, int stride)
{
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int lo = pos & (stride - 1);
  const int i0 = ((pos - lo) << 2) + lo;
  const int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
  const float d0 = src[i0], d1 = src[i1], d2 = src[i2], d3 = src[i3];
  const float s02 = d0 + d2, t02 = d0 - d2, s13 = d1 + d3, t13 = d1 - d3;
  dst[i0] = s02 + s13;
  dst[i1] = s02 - s13;
  dst[i2] = t02 + t13;
  dst[i3] = t02 - t13;
}

// One CTA of n/4 threads per segment of n = 2^log2n elements (dynamic shared
// memory of n floats); transforms the segment completely.
extern "C" __global__ void fwt_shared(float *__restrict__ dst, const float *__restrict__ src, int log2n)
{
  extern __shared__ float s_data[];
  const int n = 1 << log2n;
  const int base = blockIdx.x << log2n;
  for (int pos = threadIdx.x; pos < n; pos += blockDim.x) s_data[pos] = src[base + pos];
  int stride = n >> 2;
  for (; stride > 0; stride >>= 2) {
    const int pos = threadIdx.x;
    const int lo = pos & (stride - 1);
    const int i0 = ((pos - lo) << 2) + lo;
    const int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
    __syncthreads();
    const float d0 = s_data[i0], d1 = s_data[i1], d2 = s_data[i2], d3 = s_data[i3];
    const float s02 = d0 + d2, t02 = d0 - d2, s13 = d1 + d3, t13 = d1 - d3;
    s_data[i0] = s02 + s13;
    s_data[i1] = s02 - s13;
    s_data[i2] = t02 + t13;
    s_data[i3] = t02 - t13;
  }
  if (log2n & 1) {
    // Odd size: one radix-2 stage with stride 1 is left.
    __syncthreads();
    for (int pos = threadIdx.x; pos < n / 2; pos += blockDim.x) {
      const int i0 = pos << 1, i1 = i0 + 1;
      const float d0 = s_data[i0], d1 = s_data[i1];
      s_data[i0] = d0 + d1;
      s_data[i1] = d0 - d1;
    }
  }
  __syncthreads();
  for (int pos = threadIdx.x; pos < n; pos += blockDim.x) dst[base + pos] = s_data[pos];
}

// a[i] *= b[i] / n over a grid-stride loop.
extern "C" __global__ void fwt_modulate(float *__restrict__ a, const float *__restrict__ b, int n)
{
  const float scale = 1.0f / (float)n;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] *= b[i] * scale;
}
