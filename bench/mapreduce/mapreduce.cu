/* mapreduce.cu - a small Mars-style MapReduce runtime on the GPU and the map
 * and reduce functions of three applications on it. All kernels use 256-thread
 * CTAs. The runtime follows Mars's stages:
 *   map-count -> scan -> map -> sort by key -> group -> reduce-count -> scan -> reduce
 * Runtime kernels (mr_*): a work-efficient (Blelloch) exclusive scan of 512
 * elements per CTA in shared memory with a barrier per tree level, plus the
 * block-offset add; a bitonic sort of (key, value) pairs: 512-element chunks
 * sorted in shared memory, then for every larger size global compare-exchange
 * passes down to stride 512 and a shared-memory merge of the strides below;
 * group-head flags and group starts after the sort.
 * PageViewCount (pvc_*): map parses one web-log line per thread (byte loads
 * walking its own line), emitting (FNV-1a hash of the URL, 1) for successful
 * GET requests; reduce sums the values of a key group.
 * PageViewRank (pvr_map): PageViewCount's output with key and value swapped
 * (~views, URL), sorted: the pages ranked by views.
 * SimilarityScore (ss_*): map computes the cosine similarity of one document
 * pair per thread and emits it under both document ids; reduce keeps the
 * SS_TOPK most similar documents of a document's group. */

#define MR_BLOCK 256
#define MR_CHUNK 512 /* elements per CTA in the scan and the shared sort stages */
#define MR_PAD(i) ((i) + ((i) >> 5)) /* shared-memory bank-conflict padding of the scan */
#define MR_EMPTY_KEY 0xffffffffu     /* sort padding: sorts after every real key */
#define SS_TOPK 4

typedef unsigned int uint;

/* ---------------- runtime: scan ---------------- */

/* Exclusive scan of in[0, n) per 512-element chunk; chunk totals to sums. */
extern "C" __global__ void mr_scan_block(const uint *in, uint *out, uint *sums, int n) {
  __shared__ uint s[MR_PAD(MR_CHUNK)];
  int tid = threadIdx.x, base = blockIdx.x * MR_CHUNK;
  int ai = tid, bi = tid + MR_CHUNK / 2;
  s[MR_PAD(ai)] = base + ai < n ? in[base + ai] : 0;
  s[MR_PAD(bi)] = base + bi < n ? in[base + bi] : 0;
  int offset = 1;
  for (int d = MR_CHUNK / 2; d > 0; d >>= 1) { /* up-sweep */
    __syncthreads();
    if (tid < d) {
      int x = offset * (2 * tid + 1) - 1, y = offset * (2 * tid + 2) - 1;
      s[MR_PAD(y)] += s[MR_PAD(x)];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    sums[blockIdx.x] = s[MR_PAD(MR_CHUNK - 1)];
    s[MR_PAD(MR_CHUNK - 1)] = 0;
  }
  for (int d = 1; d < MR_CHUNK; d <<= 1) { /* down-sweep */
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int x = offset * (2 * tid + 1) - 1, y = offset * (2 * tid + 2) - 1;
      uint t = s[MR_PAD(x)];
      s[MR_PAD(x)] = s[MR_PAD(y)];
      s[MR_PAD(y)] += t;
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = s[MR_PAD(ai)];
  if (base + bi < n) out[base + bi] = s[MR_PAD(bi)];
}

/* Adds the scanned chunk totals to every element of their chunk. */
extern "C" __global__ void mr_scan_add(uint *out, const uint *offsets, int n) {
  int base = blockIdx.x * MR_CHUNK, tid = threadIdx.x;
  uint add = offsets[blockIdx.x];
  if (base + tid < n) out[base + tid] += add;
  if (base + tid + MR_CHUNK / 2 < n) out[base + tid + MR_CHUNK / 2] += add;
}

/* ---------------- runtime: bitonic sort of (key, value) ---------------- */

__device__ void mr_cmpswap(uint *k, uint *v, int a, int b, bool up) {
  uint ka = k[a], kb = k[b];
  if (up ? ka > kb : ka < kb) {
    k[a] = kb;
    k[b] = ka;
    uint t = v[a];
    v[a] = v[b];
    v[b] = t;
  }
}

/* Sorts each 512-element chunk, in the direction the global network wants. */
extern "C" __global__ void mr_sort_shared(uint *keys, uint *vals) {
  __shared__ uint sk[MR_CHUNK], sv[MR_CHUNK];
  int tid = threadIdx.x, base = blockIdx.x * MR_CHUNK;
  sk[tid] = keys[base + tid];
  sv[tid] = vals[base + tid];
  sk[tid + MR_CHUNK / 2] = keys[base + tid + MR_CHUNK / 2];
  sv[tid + MR_CHUNK / 2] = vals[base + tid + MR_CHUNK / 2];
  for (int size = 2; size <= MR_CHUNK; size <<= 1)
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      __syncthreads();
      int pos = 2 * tid - (tid & (stride - 1));
      mr_cmpswap(sk, sv, pos, pos + stride, ((base + pos) & size) == 0);
    }
  __syncthreads();
  keys[base + tid] = sk[tid];
  vals[base + tid] = sv[tid];
  keys[base + tid + MR_CHUNK / 2] = sk[tid + MR_CHUNK / 2];
  vals[base + tid + MR_CHUNK / 2] = sv[tid + MR_CHUNK / 2];
}

/* One compare-exchange per thread at a stride of at least 512. */
extern "C" __global__ void mr_sort_global(uint *keys, uint *vals, int size, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int pos = 2 * t - (t & (stride - 1));
  mr_cmpswap(keys, vals, pos, pos + stride, (pos & size) == 0);
}

/* The strides 256 .. 1 of a merge of the given size, in shared memory. */
extern "C" __global__ void mr_sort_merge_shared(uint *keys, uint *vals, int size) {
  __shared__ uint sk[MR_CHUNK], sv[MR_CHUNK];
  int tid = threadIdx.x, base = blockIdx.x * MR_CHUNK;
  sk[tid] = keys[base + tid];
  sv[tid] = vals[base + tid];
  sk[tid + MR_CHUNK / 2] = keys[base + tid + MR_CHUNK / 2];
  sv[tid + MR_CHUNK / 2] = vals[base + tid + MR_CHUNK / 2];
  bool up = (base & size) == 0;
  for (int stride = MR_CHUNK / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    int pos = 2 * tid - (tid & (stride - 1));
    mr_cmpswap(sk, sv, pos, pos + stride, up);
  }
  __syncthreads();
  keys[base + tid] = sk[tid];
  vals[base + tid] = sv[tid];
  keys[base + tid + MR_CHUNK / 2] = sk[tid + MR_CHUNK / 2];
  vals[base + tid + MR_CHUNK / 2] = sv[tid + MR_CHUNK / 2];
}

/* ---------------- runtime: group ---------------- */

/* heads[i] = 1 where a key group starts (i < n), heads[n] = 0. */
extern "C" __global__ void mr_group_heads(const uint *keys, int n, uint *heads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) heads[i] = (i == 0 || keys[i] != keys[i - 1]) ? 1u : 0u;
  else if (i == n) heads[n] = 0;
}

/* starts[g] = first element of group g; starts[ngroups] = n. */
extern "C" __global__ void mr_group_starts(const uint *keys, const uint *group_of, int n, uint *starts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (i == 0 || keys[i] != keys[i - 1]) starts[group_of[i]] = i;
  } else if (i == n) {
    starts[group_of[n]] = n;
  }
}

/* ---------------- PageViewCount ---------------- */

/* Parses one common-log-format line: "IP - - [date] \"METHOD URL PROTO\" STATUS BYTES".
 * Returns 1 for a successful GET and the FNV-1a hash of the URL in *hash. */
__device__ int pvc_parse(const char *log, int p, int end, uint *hash) {
  while (p < end && log[p] != '"') p++;
  p++;
  int method = p;
  while (p < end && log[p] != ' ') p++;
  int get = p - method == 3 && log[method] == 'G' && log[method + 1] == 'E' && log[method + 2] == 'T';
  p++;
  uint h = 2166136261u;
  while (p < end && log[p] != ' ') {
    h = (h ^ (unsigned char)log[p]) * 16777619u;
    p++;
  }
  while (p < end && log[p] != '"') p++;
  p += 2;
  int status = 0;
  while (p < end && log[p] >= '0' && log[p] <= '9') {
    status = status * 10 + (log[p] - '0');
    p++;
  }
  *hash = h == MR_EMPTY_KEY ? MR_EMPTY_KEY - 1 : h;
  return get && status == 200;
}

/* map-count: number of records each line emits (counts[n] = 0 for the scan). */
extern "C" __global__ void pvc_map_count(const char *log, const uint *line_start, int n, uint *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  if (i == n) {
    counts[n] = 0;
    return;
  }
  uint h;
  counts[i] = (uint)pvc_parse(log, (int)line_start[i], (int)line_start[i + 1], &h);
}

extern "C" __global__ void pvc_map(const char *log, const uint *line_start, int n, const uint *offsets, uint *keys,
                                   uint *vals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint h;
  if (pvc_parse(log, (int)line_start[i], (int)line_start[i + 1], &h)) {
    keys[offsets[i]] = h;
    vals[offsets[i]] = 1;
  }
}

/* reduce-count: one output record (URL, views) per group. */
extern "C" __global__ void pvc_reduce_count(int ngroups, uint *counts) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < ngroups) counts[g] = 1;
  else if (g == ngroups) counts[g] = 0;
}

extern "C" __global__ void pvc_reduce(const uint *keys, const uint *vals, const uint *starts, int ngroups,
                                      const uint *offsets, uint *out_keys, uint *out_views) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= ngroups) return;
  uint begin = starts[g], end = starts[g + 1], views = 0;
  for (uint e = begin; e < end; e++) views += vals[e];
  out_keys[offsets[g]] = keys[begin];
  out_views[offsets[g]] = views;
}

/* ---------------- SimilarityScore ---------------- */

/* map-count: every document pair emits its score under both documents. */
extern "C" __global__ void ss_map_count(int npairs, uint *counts) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < npairs) counts[t] = 2;
  else if (t == npairs) counts[t] = 0;
}

extern "C" __global__ void ss_map(const uint2 *pairs, int npairs, const float *docs, int dim, const uint *offsets,
                                  uint *keys, uint *vals, uint *other, float *score) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= npairs) return;
  uint2 pr = pairs[t];
  const float *a = docs + (size_t)pr.x * dim, *b = docs + (size_t)pr.y * dim;
  float dot = 0.0f, na = 0.0f, nb = 0.0f;
  for (int k = 0; k < dim; k++) {
    float x = a[k], y = b[k];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  float sim = dot / sqrtf(na * nb);
  uint o = offsets[t];
  keys[o] = pr.x;
  vals[o] = o;
  other[o] = pr.y;
  score[o] = sim;
  keys[o + 1] = pr.y;
  vals[o + 1] = o + 1;
  other[o + 1] = pr.x;
  score[o + 1] = sim;
}

/* reduce-count: up to SS_TOPK neighbours per document. */
extern "C" __global__ void ss_reduce_count(const uint *starts, int ngroups, uint *counts) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < ngroups) counts[g] = min(starts[g + 1] - starts[g], (uint)SS_TOPK);
  else if (g == ngroups) counts[g] = 0;
}

/* reduce: the SS_TOPK best (score desc, document asc) of a document's group. */
extern "C" __global__ void ss_reduce(const uint *keys, const uint *vals, const uint *other, const float *score,
                                     const uint *starts, int ngroups, const uint *offsets, uint *out_doc,
                                     uint *out_other, float *out_score) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= ngroups) return;
  float best_s[SS_TOPK];
  uint best_o[SS_TOPK];
  int nbest = 0;
  for (uint e = starts[g]; e < starts[g + 1]; e++) {
    uint idx = vals[e];
    float s = score[idx];
    uint o = other[idx];
    int r = nbest;
    while (r > 0 && (s > best_s[r - 1] || (s == best_s[r - 1] && o < best_o[r - 1]))) r--;
    if (r >= SS_TOPK) continue;
    for (int q = (nbest < SS_TOPK ? nbest : SS_TOPK - 1); q > r; q--) {
      best_s[q] = best_s[q - 1];
      best_o[q] = best_o[q - 1];
    }
    best_s[r] = s;
    best_o[r] = o;
    if (nbest < SS_TOPK) nbest++;
  }
  uint base = offsets[g], doc = keys[starts[g]];
  for (int r = 0; r < nbest; r++) {
    out_doc[base + r] = doc;
    out_other[base + r] = best_o[r];
    out_score[base + r] = best_s[r];
  }
}

/* ---------------- PageViewRank ---------------- */

/* map: PageViewCount's record (URL, views) becomes (~views, URL), so the ascending sort of the
 * runtime ranks the pages, most viewed first (Mars's PVR: the map swaps key and value and the
 * sort is the ranking; no reduce). */
extern "C" __global__ void pvr_map(const uint *urls, const uint *views, int n, uint *keys, uint *vals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = ~views[i];
  vals[i] = urls[i];
}
