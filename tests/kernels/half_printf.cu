/* half_printf.cu - kernels for tests/t113_half_printf.c: the FP16 arithmetic nvcc emits for
 * __half and __half2 (add, sub, mul, fma, min, max, neg, abs, compare), and device printf.
 * half_printf.ptx is generated from it (make ptx). */
#include <cuda_fp16.h>
#include <cstdio>

extern "C" __global__ void hops(const unsigned short *a, const unsigned short *b, const unsigned short *c, unsigned short *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
  unsigned short *o = out + 12 * i;
  o[0] = __half_as_ushort(__hadd(x, y));
  o[1] = __half_as_ushort(__hsub(x, y));
  o[2] = __half_as_ushort(__hmul(x, y));
  o[3] = __half_as_ushort(__hfma(x, y, z));
  o[4] = __half_as_ushort(__hmin(x, y));
  o[5] = __half_as_ushort(__hmax(x, y));
  o[6] = __half_as_ushort(__hneg(x));
  o[7] = __half_as_ushort(__habs(x));
  o[8] = __hlt(x, y) | __hge(x, y) << 1 | __hequ(x, y) << 2;
  __half2 p = __halves2half2(x, y), q = __halves2half2(z, x);
  __half2 s = __hfma2(p, q, p);
  o[9] = __half_as_ushort(__low2half(s));
  o[10] = __half_as_ushort(__high2half(s));
  o[11] = __half_as_ushort(__low2half(__hmul2(p, q)));
}

extern "C" __global__ void hprint(int base, double d, long long v) {
  printf("t%u b%d: %d|%5.2f|%lld|%x|%c|%s|%u%%\n", threadIdx.x, blockIdx.x, base + (int)threadIdx.x, d * threadIdx.x, v, 255u + threadIdx.x,
         'a' + (int)threadIdx.x, threadIdx.x & 1 ? "odd" : "even", 7u);
}
