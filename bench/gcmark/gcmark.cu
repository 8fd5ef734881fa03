// gcmark.cu - mark phase of a tracing garbage collector (after Barabash et al.,
// as used by CCWS): one thread per grey object of the current worklist scans
// the object's pointer fields, sets each target's mark bit with atomicOr and,
// if it was the first to mark it, pushes the target on the next worklist with
// atomicAdd. The host launches one level per call and swaps the worklists.
#include <stdint.h>

// Heap words: object at word offset o: heap[o] = nptr | nscalar << 16, then nptr
// pointer words (word offsets of targets, 0 = null), then nscalar data words.
extern "C" __global__ void gc_mark(const uint32_t *__restrict__ heap,
                                   const uint32_t *__restrict__ work, uint32_t nwork,
                                   uint32_t *marks, uint32_t *next_work, uint32_t *next_count) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nwork) return;
  uint32_t obj = work[t];
  uint32_t nptr = heap[obj] & 0xffffu;
  for (uint32_t i = 0; i < nptr; i++) {
    uint32_t p = heap[obj + 1 + i];
    if (p == 0) continue;
    uint32_t bit = 1u << (p & 31);
    if (marks[p >> 5] & bit) continue; // already marked: skip the atomic
    uint32_t old = atomicOr(&marks[p >> 5], bit);
    if (old & bit) continue; // another thread won the race
    uint32_t slot = atomicAdd(next_count, 1u);
    next_work[slot] = p;
  }
}
