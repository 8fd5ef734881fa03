/* pchase.cu - pointer-chasing latency microbenchmark: one thread follows a
 * chain of 64-bit device addresses (each element holds the address of the
 * next). The chase runs in `reps` rounds of PCHASE_UNROLL dependent loads,
 * each round timed with clock64(); the first `warm` rounds are not counted
 * (they warm the instruction cache and, for cyclic chains, the data level
 * under test). A round is straight-line code (no branch between the two
 * clock reads), so its time is PCHASE_UNROLL x (load-to-use latency) plus
 * one or two cycles. The loads are inline PTX so that they stay `ld.global`
 * (a C dereference of a loaded pointer would be a generic load) and keep
 * their order relative to the clock reads (all volatile asm). */

#define PCHASE_UNROLL 128

__device__ __forceinline__ unsigned long long chase(unsigned long long p) {
  unsigned long long q;
  asm volatile("ld.global.u64 %0, [%1];" : "=l"(q) : "l"(p) : "memory");
  return q;
}

/* Reads the clock after an instruction that uses p: in-order issue keeps the
 * clock read behind it until the last load has returned. */
__device__ __forceinline__ long long clock_after(unsigned long long p) {
  unsigned long long t;
  long long c;
  asm volatile("add.u64 %0, %1, 0;" : "=l"(t) : "l"(p) : "memory");
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) : "l"(t) : "memory");
  return c;
}

/* out[0] = cycles of the timed rounds, out[1] = final pointer.
 * Launch with one CTA of one thread. */
extern "C" __global__ void pchase(unsigned long long start, int reps, int warm, unsigned long long *out) {
  unsigned long long p = start;
  long long total = 0;
#pragma unroll 1
  for (int r = 0; r < reps; r++) {
    long long t0 = clock_after(p);
#pragma unroll
    for (int k = 0; k < PCHASE_UNROLL; k++) p = chase(p);
    long long t1 = clock_after(p);
    if (r >= warm) total += t1 - t0;
  }
  out[0] = (unsigned long long)total;
  out[1] = p;
}
