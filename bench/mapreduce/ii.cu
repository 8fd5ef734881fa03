/* ii.cu - InvertedIndex (Mars's II) on the MapReduce runtime of
 * mapreduce.cu (scan, bitonic sort and group come from mapreduce.ptx; this
 * module holds II's map and reduce only).
 * map: one thread per HTML document, walking it byte by byte for links
 * (href="URL"), emitting (FNV-1a hash of the URL, document id) for each;
 * sort by URL hash, group; reduce: one thread per URL copies its group's
 * document ids out (the URL's posting list, in the sort's order: the host
 * sorts each list and drops a document linking a URL twice). */

#define II_EMPTY_KEY 0xffffffffu /* the runtime's sort padding key */

typedef unsigned int uint;

/* One byte of a document through the link automaton: state 0..5 = that many
 * characters of `href="` matched, 6 = inside the URL (hashing, FNV-1a).
 * Returns 1 when the byte closes a URL (its hash in *h). One flat loop over
 * the bytes keeps a warp's lanes together (each stops at its document's end). */
#define II_PATTERN 0x223d66657268ull /* h r e f = " from the low byte up */
__device__ __forceinline__ int ii_step(uint c, int *state, uint *h) {
  int s = *state;
  if (s == 6) {
    if (c == '"') {
      *state = 0;
      if (*h == II_EMPTY_KEY) *h = II_EMPTY_KEY - 1;
      return 1;
    }
    *h = (*h ^ c) * 16777619u;
    return 0;
  }
  if (c == (uint)((II_PATTERN >> (8 * s)) & 0xff)) {
    if (++s == 6) *h = 2166136261u;
  } else {
    s = c == 'h';
  }
  *state = s;
  return 0;
}

/* map-count: links of each document (counts[n] = 0 for the scan). */
extern "C" __global__ void ii_map_count(const unsigned char *text, const uint *doc_start, int n, uint *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  if (i == n) {
    counts[n] = 0;
    return;
  }
  int end = (int)doc_start[i + 1], state = 0;
  uint h = 0, c = 0;
  for (int p = (int)doc_start[i]; p < end; p++) c += ii_step(text[p], &state, &h);
  counts[i] = c;
}

extern "C" __global__ void ii_map(const unsigned char *text, const uint *doc_start, int n, const uint *offsets,
                                  uint *keys, uint *vals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int end = (int)doc_start[i + 1], state = 0;
  uint h = 0, o = offsets[i];
  for (int p = (int)doc_start[i]; p < end; p++)
    if (ii_step(text[p], &state, &h)) {
      keys[o] = h;
      vals[o] = (uint)i;
      o++;
    }
}

/* reduce-count: one output record per posting of the group. */
extern "C" __global__ void ii_reduce_count(const uint *starts, int ngroups, uint *counts) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < ngroups) counts[g] = starts[g + 1] - starts[g];
  else if (g == ngroups) counts[g] = 0;
}

/* reduce (Mars's II): the URL's posting list, its group's document ids
 * copied from offsets[g]; out_url[g] = the URL hash, out_n[g] = the count. */
extern "C" __global__ void ii_reduce(const uint *keys, const uint *vals, const uint *starts, int ngroups,
                                     const uint *offsets, uint *out_url, uint *out_n, uint *postings) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= ngroups) return;
  uint begin = starts[g], end = starts[g + 1], base = offsets[g];
  for (uint e = begin; e < end; e++) postings[base + e - begin] = vals[e];
  out_url[g] = keys[begin];
  out_n[g] = end - begin;
}
