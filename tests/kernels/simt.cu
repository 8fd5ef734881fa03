// simt.cu - divergence/reconvergence kernels for tests/t107_simt.c.
// Regenerate simt.ptx with: nvcc -ptx -O3 -arch=sm_75 -o simt.ptx simt.cu  (make ptx)
// Every kernel writes one int per thread; t107_simt.c recomputes the same
// functions on the host. Values stay small enough that no int overflows.

__device__ __noinline__ int collatz_steps(int x) {
  int s = 0;
  while (x != 1) {
    if (x & 1)
      x = 3 * x + 1;
    else
      x >>= 1;
    s++;
    if (s > 60) return -s;  // ret inside a loop of the callee
  }
  return s;
}

extern "C" __global__ void loop_break_continue(int *out, const int *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  for (int i = 0; i < n; i++) {
    int v = in[(t * 7 + i) % n];
    if (v % 3 == 0) continue;
    if (v % 11 == t % 11) break;
    acc += v;
    if (acc > 1000 + t) {
      acc = -acc;
      break;
    }
  }
  out[t] = acc;
}

extern "C" __global__ void early_return(int *out, const int *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t % 5 == 0) return;
  int acc = 0;
  for (int i = 0; i < 64; i++) {
    int v = in[(t + i) & 63];
    if (v == (t & 63)) {
      out[t] = -i - 1;
      return;
    }
    acc += v;
    if (acc > 1500) return;
  }
  out[t] = acc;
}

extern "C" __global__ void noinline_call(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int r = 0;
  if (t & 1)
    r = collatz_steps(t + 1);
  else if (t % 4 == 2)
    r = collatz_steps(3 * t + 7) * 2;
  else
    r = 1000 + t;
  out[t] = r;
}

extern "C" __global__ void nested_loops(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int x = t;
  int s = 0;
  while (x > 0) {
    for (int j = 0; j < (x & 3); j++) s += j * x + 1;
    x /= 3;
    if (s > 5000) break;
  }
  out[t] = s;
}

extern "C" __global__ void switch_tree(int *out, const int *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int r;
  switch (in[t] % 7) {
    case 0: r = t * 2; break;
    case 1: r = in[(t + 1) & 255]; break;
    case 2: r = -t; break;
    case 3: {
      r = 0;
      for (int i = 0; i < (t & 15); i++) r += in[i];
      break;
    }
    case 5: r = in[t] ^ 0x5a; break;
    default: r = 42;
  }
  out[t] = r;
}
