extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__device__ __noinline__ int f(int x) { if (x & 1) return x * 3; for (int i = 0; i < x; i++) { if (i == 7) return i; x--; } return x; }
extern "C" __global__ void red(const int *in, int *out, float *fo) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
  int v = f(t);
  v += __shfl_down_sync(0xffffffff, v, 1);
  out[64 + blockIdx.x * 256 + t] = v;
  fo[blockIdx.x * 256 + t] = expf((float)t / 100.f) + logf(t + 1.f) + sinf(t * 0.1f);
}
