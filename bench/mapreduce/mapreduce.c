/* mapreduce.c - host side of the Mars-style MapReduce runtime (scan, bitonic
 * sort, group; kernels in mapreduce.cu) and its two applications as two
 * benchmarks: pvc (PageViewCount over a synthetic web log with Zipf URL
 * popularity, exact check of views per URL hash), pvr (PageViewRank: pvc's
 * output with key and value swapped and sorted again, the pages ranked by
 * views; exact check of the ranking, ties as a set) and ss (SimilarityScore:
 * cosine similarity of all document pairs, top-4 neighbours per document,
 * float tolerance). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MR_BLOCK 256
#define MR_CHUNK 512
#define MR_EMPTY_KEY 0xffffffffu
#define SS_TOPK 4
#define SS_DIM 128

static unsigned mr_grid(long threads) { return (unsigned)((threads + MR_BLOCK - 1) / MR_BLOCK); }

/* ---------------- runtime ---------------- */

typedef struct MrRuntime {
  BenchRun *r;
  WsModule *mod;
  WsFunction *scan_block, *scan_add, *sort_shared, *sort_global, *sort_merge, *group_heads, *group_starts;
} MrRuntime;

static int mr_init(MrRuntime *m, BenchRun *r) {
  memset(m, 0, sizeof *m);
  m->r = r;
  if (bench_load_module(r, "mapreduce", "mapreduce.ptx", &m->mod) != 0) return -1;
  BENCH_CK(r, ws_module_get_function(&m->scan_block, m->mod, "mr_scan_block"));
  BENCH_CK(r, ws_module_get_function(&m->scan_add, m->mod, "mr_scan_add"));
  BENCH_CK(r, ws_module_get_function(&m->sort_shared, m->mod, "mr_sort_shared"));
  BENCH_CK(r, ws_module_get_function(&m->sort_global, m->mod, "mr_sort_global"));
  BENCH_CK(r, ws_module_get_function(&m->sort_merge, m->mod, "mr_sort_merge_shared"));
  BENCH_CK(r, ws_module_get_function(&m->group_heads, m->mod, "mr_group_heads"));
  BENCH_CK(r, ws_module_get_function(&m->group_starts, m->mod, "mr_group_starts"));
  return 0;
fail:
  return -1;
}

static void mr_fini(MrRuntime *m) {
  if (m->mod) ws_module_unload(m->mod);
  m->mod = NULL;
}

/* Exclusive scan of n >= 1 uints (in may equal out); *total = out[n-1] when
 * total is not NULL (callers pass n = count + 1 with a trailing 0). */
static int mr_scan(MrRuntime *m, WsDevPtr in, WsDevPtr out, int n, uint32_t *total) {
  BenchRun *r = m->r;
  int rc = -1, nb = (n + MR_CHUNK - 1) / MR_CHUNK;
  WsDevPtr sums = 0;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &sums, sizeof(uint32_t) * (size_t)nb));
  void *p_block[] = {&in, &out, &sums, &n};
  BENCH_CK(r, ws_launch_kernel(m->scan_block, (unsigned)nb, 1, 1, MR_BLOCK, 1, 1, 0, p_block));
  if (nb > 1) {
    if (mr_scan(m, sums, sums, nb, NULL) != 0) goto fail;
    void *p_add[] = {&out, &sums, &n};
    BENCH_CK(r, ws_launch_kernel(m->scan_add, (unsigned)nb, 1, 1, MR_BLOCK, 1, 1, 0, p_add));
  }
  if (total)
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, total, out + sizeof(uint32_t) * (size_t)(n - 1), sizeof *total));
  rc = 0;
fail:
  if (sums) ws_mem_free(r->ctx, sums);
  return rc;
}

/* Bitonic sort of n (a power of two >= 512) (key, value) pairs by key. */
static int mr_sort(MrRuntime *m, WsDevPtr keys, WsDevPtr vals, int n) {
  BenchRun *r = m->r;
  void *p_shared[] = {&keys, &vals};
  BENCH_CK(r, ws_launch_kernel(m->sort_shared, (unsigned)(n / MR_CHUNK), 1, 1, MR_BLOCK, 1, 1, 0, p_shared));
  for (int size = 2 * MR_CHUNK; size <= n; size <<= 1) {
    for (int stride = size / 2; stride >= MR_CHUNK; stride >>= 1) {
      void *p_global[] = {&keys, &vals, &size, &stride};
      BENCH_CK(r, ws_launch_kernel(m->sort_global, mr_grid(n / 2), 1, 1, MR_BLOCK, 1, 1, 0, p_global));
    }
    void *p_merge[] = {&keys, &vals, &size};
    BENCH_CK(r, ws_launch_kernel(m->sort_merge, (unsigned)(n / MR_CHUNK), 1, 1, MR_BLOCK, 1, 1, 0, p_merge));
  }
  return 0;
fail:
  return -1;
}

/* Groups the n sorted keys: *starts (caller frees) gets ngroups + 1 entries. */
static int mr_group(MrRuntime *m, WsDevPtr keys, int n, WsDevPtr *starts, int *ngroups) {
  BenchRun *r = m->r;
  int rc = -1;
  uint32_t ng = 0;
  WsDevPtr group_of = 0;
  *starts = 0;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &group_of, sizeof(uint32_t) * (size_t)(n + 1)));
  void *p_heads[] = {&keys, &n, &group_of};
  BENCH_CK(r, ws_launch_kernel(m->group_heads, mr_grid(n + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_heads));
  if (mr_scan(m, group_of, group_of, n + 1, &ng) != 0) goto fail;
  BENCH_CK(r, ws_mem_alloc(r->ctx, starts, sizeof(uint32_t) * ((size_t)ng + 1)));
  void *p_starts[] = {&keys, &group_of, &n, starts};
  BENCH_CK(r, ws_launch_kernel(m->group_starts, mr_grid(n + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_starts));
  *ngroups = (int)ng;
  rc = 0;
fail:
  if (group_of) ws_mem_free(r->ctx, group_of);
  return rc;
}

static int mr_pow2_at_least(int n) {
  int p = MR_CHUNK;
  while (p < n) p <<= 1;
  return p;
}

static int mr_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* ---------------- PageViewCount ---------------- */

static const int pvc_lines[BENCH_NSIZES] = {4096, 65536, 1200000};

/* CPU twin of the kernel's pvc_parse. */
static int pvc_parse(const char *log, int p, int end, uint32_t *hash) {
  while (p < end && log[p] != '"') p++;
  p++;
  int method = p;
  while (p < end && log[p] != ' ') p++;
  int get = p - method == 3 && log[method] == 'G' && log[method + 1] == 'E' && log[method + 2] == 'T';
  p++;
  uint32_t h = 2166136261u;
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

/* Common-log-format lines, URLs Zipf(1.0) over nlines/8 pages. Returns the
 * text (caller frees) and fills line_start[0..n]; NULL when out of memory. */
static char *pvc_generate(BenchRng *g, int n, uint32_t *line_start) {
  static const char *const months[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  static const char *const sections[6] = {"news", "sport", "shop/items", "blog", "wiki/article", "img"};
  BenchZipf zipf;
  uint32_t npages = (uint32_t)(n / 8 > 16 ? n / 8 : 16);
  if (bench_zipf_init(&zipf, npages, 1.0) != 0) return NULL;
  size_t cap = (size_t)n * 112 + 1, len = 0;
  char *text = malloc(cap);
  if (!text) {
    bench_zipf_free(&zipf);
    return NULL;
  }
  long seconds = 0;
  for (int i = 0; i < n; i++) {
    line_start[i] = (uint32_t)len;
    uint32_t page = bench_zipf_next(&zipf, g);
    uint32_t pick = bench_rng_below(g, 100);
    const char *method = pick < 90 ? "GET" : pick < 97 ? "POST" : "HEAD";
    pick = bench_rng_below(g, 100);
    int status = pick < 85 ? 200 : pick < 93 ? 304 : pick < 98 ? 404 : 500;
    seconds += bench_rng_below(g, 3);
    int n_written =
        snprintf(text + len, cap - len,
                 "%u.%u.%u.%u - - [%02ld/%s/2015:%02ld:%02ld:%02ld +0000] \"%s /%s/%u/page%u.html "
                 "HTTP/1.1\" %d %u\n",
                 bench_rng_below(g, 223) + 1, bench_rng_below(g, 256), bench_rng_below(g, 256),
                 bench_rng_below(g, 254) + 1, 1 + (seconds / 86400) % 28, months[(seconds / 2419200) % 12],
                 (seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60, method, sections[page % 6],
                 page % 97, page, status, 200 + bench_rng_below(g, 50000));
    len += (size_t)n_written;
  }
  line_start[n] = (uint32_t)len;
  bench_zipf_free(&zipf);
  return text;
}

/* Orders (key, url) pairs by key, then url. */
static int pvr_cmp_pair(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* PageViewCount; with `rank`, PageViewRank on its output (pvr_map, sort). */
static int pvc_common(BenchRun *r, int rank) {
  int n = pvc_lines[r->size];
  int status = BENCH_ERROR;
  MrRuntime m = {0};
  WsFunction *fn_count = NULL, *fn_map = NULL, *fn_rcount = NULL, *fn_reduce = NULL;
  WsDevPtr d_log = 0, d_lines = 0, d_offsets = 0, d_keys = 0, d_vals = 0, d_starts = 0, d_roffsets = 0;
  WsDevPtr d_out_keys = 0, d_out_views = 0, d_rank_keys = 0, d_rank_urls = 0;
  uint32_t *pairs_want = NULL, *pairs_got = NULL;
  WsFunction *fn_rank = NULL;
  uint32_t *line_start = malloc(sizeof(uint32_t) * ((size_t)n + 1));
  uint32_t *want_keys = malloc(sizeof(uint32_t) * (size_t)n),
           *want_views = malloc(sizeof(uint32_t) * (size_t)n);
  uint32_t *got_keys = NULL, *got_views = NULL;
  char *text = NULL;
  if (!line_start || !want_keys || !want_views) goto oom;
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  text = pvc_generate(&g, n, line_start);
  if (!text) goto oom;
  size_t text_len = line_start[n];

  /* CPU reference: sorted hashes of the successful GETs, run-length counted */
  int nvalid = 0, nwant = 0;
  for (int i = 0; i < n; i++) {
    uint32_t h;
    if (pvc_parse(text, (int)line_start[i], (int)line_start[i + 1], &h)) want_keys[nvalid++] = h;
  }
  qsort(want_keys, (size_t)nvalid, sizeof(uint32_t), mr_cmp_u32);
  for (int i = 0; i < nvalid; i++) {
    if (i == 0 || want_keys[i] != want_keys[i - 1]) {
      want_keys[nwant] = want_keys[i];
      want_views[nwant++] = 0;
    }
    want_views[nwant - 1]++;
  }
  if (r->verbose > 0)
    fprintf(r->log, "pvc: %d log lines (%zu bytes), %d page views of %d distinct URLs\n", n, text_len, nvalid,
            nwant);

  if (mr_init(&m, r) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn_count, m.mod, "pvc_map_count"));
  BENCH_CK(r, ws_module_get_function(&fn_map, m.mod, "pvc_map"));
  BENCH_CK(r, ws_module_get_function(&fn_rcount, m.mod, "pvc_reduce_count"));
  BENCH_CK(r, ws_module_get_function(&fn_reduce, m.mod, "pvc_reduce"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_log, text_len));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_lines, sizeof(uint32_t) * ((size_t)n + 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_offsets, sizeof(uint32_t) * ((size_t)n + 1)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_log, text, text_len));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_lines, line_start, sizeof(uint32_t) * ((size_t)n + 1)));

  /* map-count, scan, map */
  uint32_t total = 0;
  void *p_count[] = {&d_log, &d_lines, &n, &d_offsets};
  BENCH_CK(r, ws_launch_kernel(fn_count, mr_grid(n + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_count));
  if (mr_scan(&m, d_offsets, d_offsets, n + 1, &total) != 0) goto fail;
  if ((int)total != nvalid) {
    fprintf(r->log, "pvc: map-count found %u records, want %d\n", total, nvalid);
    status = BENCH_MISMATCH;
    goto fail;
  }
  int nsort = mr_pow2_at_least((int)total);
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_keys, sizeof(uint32_t) * (size_t)nsort));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_vals, sizeof(uint32_t) * (size_t)nsort));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_keys, MR_EMPTY_KEY, (size_t)nsort));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_vals, 0, (size_t)nsort));
  void *p_map[] = {&d_log, &d_lines, &n, &d_offsets, &d_keys, &d_vals};
  BENCH_CK(r, ws_launch_kernel(fn_map, mr_grid(n), 1, 1, MR_BLOCK, 1, 1, 0, p_map));

  /* sort, group */
  int ngroups = 0, ntotal = (int)total;
  if (mr_sort(&m, d_keys, d_vals, nsort) != 0) goto fail;
  if (mr_group(&m, d_keys, ntotal, &d_starts, &ngroups) != 0) goto fail;
  if (ngroups != nwant) {
    fprintf(r->log, "pvc: %d key groups, want %d\n", ngroups, nwant);
    status = BENCH_MISMATCH;
    goto fail;
  }

  /* reduce-count, scan, reduce */
  uint32_t nout = 0;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_roffsets, sizeof(uint32_t) * ((size_t)ngroups + 1)));
  void *p_rcount[] = {&ngroups, &d_roffsets};
  BENCH_CK(r, ws_launch_kernel(fn_rcount, mr_grid(ngroups + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_rcount));
  if (mr_scan(&m, d_roffsets, d_roffsets, ngroups + 1, &nout) != 0) goto fail;
  if ((int)nout != nwant) {
    fprintf(r->log, "pvc: reduce-count gave %u output records, want %d\n", nout, nwant);
    status = BENCH_MISMATCH;
    goto fail;
  }
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out_keys, sizeof(uint32_t) * (size_t)nout));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out_views, sizeof(uint32_t) * (size_t)nout));
  void *p_reduce[] = {&d_keys, &d_vals, &d_starts, &ngroups, &d_roffsets, &d_out_keys, &d_out_views};
  BENCH_CK(r, ws_launch_kernel(fn_reduce, mr_grid(ngroups), 1, 1, MR_BLOCK, 1, 1, 0, p_reduce));

  got_keys = malloc(sizeof(uint32_t) * (size_t)nout);
  got_views = malloc(sizeof(uint32_t) * (size_t)nout);
  if (!got_keys || !got_views) goto oom;
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_keys, d_out_keys, sizeof(uint32_t) * (size_t)nout));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_views, d_out_views, sizeof(uint32_t) * (size_t)nout));
  size_t bad = bench_check_u32(r, "url_hash", got_keys, want_keys, (size_t)nout);
  bad += bench_check_u32(r, "views", got_views, want_views, (size_t)nout);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
  if (bad || !rank) goto fail;

  /* PageViewRank: map (URL, views) -> (~views, URL), sort; CPU: the same pairs sorted by key, then
   * URL; the GPU's bitonic sort orders equal keys arbitrarily, so each run of equal keys is
   * compared as a set (sorted by URL on the host first). */
  status = BENCH_ERROR;
  int nrank = mr_pow2_at_least((int)nout);
  BENCH_CK(r, ws_module_get_function(&fn_rank, m.mod, "pvr_map"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_rank_keys, sizeof(uint32_t) * (size_t)nrank));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_rank_urls, sizeof(uint32_t) * (size_t)nrank));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_rank_keys, MR_EMPTY_KEY, (size_t)nrank));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_rank_urls, 0, (size_t)nrank));
  int nout_i = (int)nout;
  void *p_rank[] = {&d_out_keys, &d_out_views, &nout_i, &d_rank_keys, &d_rank_urls};
  BENCH_CK(r, ws_launch_kernel(fn_rank, mr_grid(nout_i), 1, 1, MR_BLOCK, 1, 1, 0, p_rank));
  if (mr_sort(&m, d_rank_keys, d_rank_urls, nrank) != 0) goto fail;
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_keys, d_rank_keys, sizeof(uint32_t) * (size_t)nout));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_views, d_rank_urls, sizeof(uint32_t) * (size_t)nout));
  pairs_want = malloc(sizeof(uint32_t) * 2 * (size_t)nout);
  pairs_got = malloc(sizeof(uint32_t) * 2 * (size_t)nout);
  if (!pairs_want || !pairs_got) goto oom;
  for (uint32_t i = 0; i < nout; i++) {
    pairs_want[2 * i] = ~want_views[i], pairs_want[2 * i + 1] = want_keys[i];
    pairs_got[2 * i] = got_keys[i], pairs_got[2 * i + 1] = got_views[i];
  }
  qsort(pairs_want, nout, 2 * sizeof(uint32_t), pvr_cmp_pair);
  for (uint32_t i = 0, j; i < nout; i = j) { /* the GPU's keys must already be in order: sort within runs */
    for (j = i + 1; j < nout && pairs_got[2 * j] == pairs_got[2 * i]; j++) {
    }
    qsort(pairs_got + 2 * i, j - i, 2 * sizeof(uint32_t), pvr_cmp_pair);
  }
  bad = bench_check_u32(r, "rank_pairs", pairs_got, pairs_want, 2 * (size_t)nout);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
  goto fail;

oom:
  fprintf(r->log, "pvc: out of host memory\n");
fail:
  if (d_log) ws_mem_free(r->ctx, d_log);
  if (d_lines) ws_mem_free(r->ctx, d_lines);
  if (d_offsets) ws_mem_free(r->ctx, d_offsets);
  if (d_keys) ws_mem_free(r->ctx, d_keys);
  if (d_vals) ws_mem_free(r->ctx, d_vals);
  if (d_starts) ws_mem_free(r->ctx, d_starts);
  if (d_roffsets) ws_mem_free(r->ctx, d_roffsets);
  if (d_out_keys) ws_mem_free(r->ctx, d_out_keys);
  if (d_out_views) ws_mem_free(r->ctx, d_out_views);
  if (d_rank_keys) ws_mem_free(r->ctx, d_rank_keys);
  if (d_rank_urls) ws_mem_free(r->ctx, d_rank_urls);
  free(pairs_want);
  free(pairs_got);
  mr_fini(&m);
  free(line_start);
  free(want_keys);
  free(want_views);
  free(got_keys);
  free(got_views);
  free(text);
  return status;
}

static int pvc_run(BenchRun *r) { return pvc_common(r, 0); }
static int pvr_run(BenchRun *r) { return pvc_common(r, 1); }

const BenchDesc bench_desc_pvc = {
    .name = "pvc",
    .summary =
        "MapReduce PageViewCount: byte-wise log parsing per thread, bitonic sort, Zipf-skewed key groups",
    .papers = "BAWS, coordinated bypassing",
    .suite = "II",
    .sizes = {"4096 log lines (~0.4 MB)", "65536 log lines (~6 MB)",
              "1200000 log lines (~100 MB; Mars's large PVC log)"},
    .run = pvc_run,
};

const BenchDesc bench_desc_pvr = {
    .name = "pvr",
    .summary =
        "MapReduce PageViewRank: PageViewCount, then its (URL, views) swapped and bitonic-sorted by views",
    .papers = "BAWS",
    .suite = "II",
    .sizes = {"4096 log lines (~0.4 MB)", "65536 log lines (~6 MB)", "1200000 log lines (~100 MB)"},
    .run = pvr_run,
};

/* ---------------- SimilarityScore ---------------- */

static const int ss_docs[BENCH_NSIZES] = {64, 256, 512};

/* Topic-clustered non-negative term-weight vectors. */
static void ss_generate(BenchRng *g, int ndocs, float *docs) {
  enum { TOPICS = 16, KEYWORDS = 24 };
  int kw[TOPICS][KEYWORDS];
  for (int t = 0; t < TOPICS; t++)
    for (int w = 0; w < KEYWORDS; w++) kw[t][w] = (int)bench_rng_below(g, SS_DIM);
  for (int d = 0; d < ndocs; d++) {
    float *v = docs + (size_t)d * SS_DIM;
    for (int k = 0; k < SS_DIM; k++)
      v[k] = bench_rng_below(g, 100) < 15 ? bench_rng_range(g, 0.0f, 0.5f) : 0.0f;
    int t = (int)bench_rng_below(g, TOPICS);
    for (int w = 0; w < KEYWORDS; w++) v[kw[t][w]] += bench_rng_range(g, 0.5f, 1.5f);
  }
}

typedef struct SsNeighbour {
  double sim;
  uint32_t doc;
} SsNeighbour;

static int ss_cmp_neighbour(const void *a, const void *b) {
  const SsNeighbour *x = a, *y = b;
  if (x->sim != y->sim) return x->sim > y->sim ? -1 : 1;
  return x->doc < y->doc ? -1 : x->doc > y->doc;
}

static int ss_run(BenchRun *r) {
  int ndocs = ss_docs[r->size], dim = SS_DIM, npairs = ndocs * (ndocs - 1) / 2;
  int status = BENCH_ERROR;
  MrRuntime m = {0};
  WsFunction *fn_count = NULL, *fn_map = NULL, *fn_rcount = NULL, *fn_reduce = NULL;
  WsDevPtr d_docs = 0, d_pairs = 0, d_offsets = 0, d_keys = 0, d_vals = 0, d_other = 0, d_score = 0;
  WsDevPtr d_starts = 0, d_roffsets = 0, d_out_doc = 0, d_out_other = 0, d_out_score = 0;
  float *docs = malloc(sizeof(float) * (size_t)ndocs * SS_DIM);
  uint32_t *pairs = malloc(sizeof(uint32_t) * 2 * (size_t)npairs);
  double *sim = malloc(sizeof(double) * (size_t)ndocs * (size_t)ndocs);
  SsNeighbour *nb = malloc(sizeof(SsNeighbour) * (size_t)ndocs);
  int nout_want = ndocs * SS_TOPK;
  uint32_t *got_doc = malloc(sizeof(uint32_t) * (size_t)nout_want),
           *got_other = malloc(sizeof(uint32_t) * (size_t)nout_want);
  float *got_score = malloc(sizeof(float) * (size_t)nout_want);
  if (!docs || !pairs || !sim || !nb || !got_doc || !got_other || !got_score) {
    fprintf(r->log, "ss: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  ss_generate(&g, ndocs, docs);
  for (int i = 0, p = 0; i < ndocs; i++)
    for (int j = i + 1; j < ndocs; j++, p++) {
      pairs[2 * p] = (uint32_t)i;
      pairs[2 * p + 1] = (uint32_t)j;
    }
  for (int i = 0; i < ndocs; i++)
    for (int j = 0; j < ndocs; j++) {
      double dot = 0, na = 0, nbb = 0;
      for (int k = 0; k < dim; k++) {
        double x = docs[(size_t)i * dim + k], y = docs[(size_t)j * dim + k];
        dot += x * y;
        na += x * x;
        nbb += y * y;
      }
      sim[(size_t)i * ndocs + j] = dot / sqrt(na * nbb);
    }
  if (r->verbose > 0)
    fprintf(r->log, "ss: %d documents x %d terms, %d pairs, %d (key, value) pairs sorted\n", ndocs, dim,
            npairs, 2 * npairs);

  if (mr_init(&m, r) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn_count, m.mod, "ss_map_count"));
  BENCH_CK(r, ws_module_get_function(&fn_map, m.mod, "ss_map"));
  BENCH_CK(r, ws_module_get_function(&fn_rcount, m.mod, "ss_reduce_count"));
  BENCH_CK(r, ws_module_get_function(&fn_reduce, m.mod, "ss_reduce"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_docs, sizeof(float) * (size_t)ndocs * SS_DIM));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_pairs, sizeof(uint32_t) * 2 * (size_t)npairs));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_offsets, sizeof(uint32_t) * ((size_t)npairs + 1)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_docs, docs, sizeof(float) * (size_t)ndocs * SS_DIM));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_pairs, pairs, sizeof(uint32_t) * 2 * (size_t)npairs));

  /* map-count, scan, map */
  uint32_t total = 0;
  void *p_count[] = {&npairs, &d_offsets};
  BENCH_CK(r, ws_launch_kernel(fn_count, mr_grid(npairs + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_count));
  if (mr_scan(&m, d_offsets, d_offsets, npairs + 1, &total) != 0) goto fail;
  if (total != 2u * (uint32_t)npairs) {
    fprintf(r->log, "ss: map-count found %u records, want %d\n", total, 2 * npairs);
    status = BENCH_MISMATCH;
    goto fail;
  }
  int nsort = mr_pow2_at_least((int)total), ntotal = (int)total;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_keys, sizeof(uint32_t) * (size_t)nsort));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_vals, sizeof(uint32_t) * (size_t)nsort));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_other, sizeof(uint32_t) * (size_t)total));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_score, sizeof(float) * (size_t)total));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_keys, MR_EMPTY_KEY, (size_t)nsort));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_vals, 0, (size_t)nsort));
  void *p_map[] = {&d_pairs, &npairs, &d_docs, &dim, &d_offsets, &d_keys, &d_vals, &d_other, &d_score};
  BENCH_CK(r, ws_launch_kernel(fn_map, mr_grid(npairs), 1, 1, MR_BLOCK, 1, 1, 0, p_map));

  /* sort, group */
  int ngroups = 0;
  if (mr_sort(&m, d_keys, d_vals, nsort) != 0) goto fail;
  if (mr_group(&m, d_keys, ntotal, &d_starts, &ngroups) != 0) goto fail;
  if (ngroups != ndocs) {
    fprintf(r->log, "ss: %d key groups, want %d\n", ngroups, ndocs);
    status = BENCH_MISMATCH;
    goto fail;
  }

  /* reduce-count, scan, reduce */
  uint32_t nout = 0;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_roffsets, sizeof(uint32_t) * ((size_t)ngroups + 1)));
  void *p_rcount[] = {&d_starts, &ngroups, &d_roffsets};
  BENCH_CK(r, ws_launch_kernel(fn_rcount, mr_grid(ngroups + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_rcount));
  if (mr_scan(&m, d_roffsets, d_roffsets, ngroups + 1, &nout) != 0) goto fail;
  if ((int)nout != nout_want) {
    fprintf(r->log, "ss: reduce-count gave %u output records, want %d\n", nout, nout_want);
    status = BENCH_MISMATCH;
    goto fail;
  }
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out_doc, sizeof(uint32_t) * (size_t)nout));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out_other, sizeof(uint32_t) * (size_t)nout));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out_score, sizeof(float) * (size_t)nout));
  void *p_reduce[] = {&d_keys,  &d_vals,     &d_other,   &d_score,     &d_starts,
                      &ngroups, &d_roffsets, &d_out_doc, &d_out_other, &d_out_score};
  BENCH_CK(r, ws_launch_kernel(fn_reduce, mr_grid(ngroups), 1, 1, MR_BLOCK, 1, 1, 0, p_reduce));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_doc, d_out_doc, sizeof(uint32_t) * (size_t)nout));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_other, d_out_other, sizeof(uint32_t) * (size_t)nout));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_score, d_out_score, sizeof(float) * (size_t)nout));

  /* Each document's neighbours: the right document ids in order, scores
   * within float tolerance of the CPU's (near-ties may swap neighbours). */
  const double tol = 1e-4;
  size_t bad = 0;
  for (int d = 0; d < ndocs; d++) {
    int nn = 0;
    for (int j = 0; j < ndocs; j++)
      if (j != d) nb[nn++] = (SsNeighbour){sim[(size_t)d * ndocs + j], (uint32_t)j};
    qsort(nb, (size_t)nn, sizeof *nb, ss_cmp_neighbour);
    for (int k = 0; k < SS_TOPK; k++) {
      size_t o = (size_t)d * SS_TOPK + k;
      uint32_t other = got_other[o];
      int ok = got_doc[o] == (uint32_t)d && other < (uint32_t)ndocs && other != (uint32_t)d &&
               fabs(got_score[o] - sim[(size_t)d * ndocs + other]) <= tol &&
               fabs(got_score[o] - nb[k].sim) <= tol;
      for (int q = 0; q < k; q++) ok &= got_other[(size_t)d * SS_TOPK + q] != other;
      if (!ok && bad++ < 10)
        fprintf(r->log,
                "ss: doc %d neighbour %d: got (doc %u, other %u, score %.6f), want (other %u, score %.6f)\n",
                d, k, got_doc[o], other, (double)got_score[o], nb[k].doc, nb[k].sim);
    }
  }
  if (bad) fprintf(r->log, "ss: %zu of %d neighbours differ\n", bad, nout_want);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_docs) ws_mem_free(r->ctx, d_docs);
  if (d_pairs) ws_mem_free(r->ctx, d_pairs);
  if (d_offsets) ws_mem_free(r->ctx, d_offsets);
  if (d_keys) ws_mem_free(r->ctx, d_keys);
  if (d_vals) ws_mem_free(r->ctx, d_vals);
  if (d_other) ws_mem_free(r->ctx, d_other);
  if (d_score) ws_mem_free(r->ctx, d_score);
  if (d_starts) ws_mem_free(r->ctx, d_starts);
  if (d_roffsets) ws_mem_free(r->ctx, d_roffsets);
  if (d_out_doc) ws_mem_free(r->ctx, d_out_doc);
  if (d_out_other) ws_mem_free(r->ctx, d_out_other);
  if (d_out_score) ws_mem_free(r->ctx, d_out_score);
  mr_fini(&m);
  free(docs);
  free(pairs);
  free(sim);
  free(nb);
  free(got_doc);
  free(got_other);
  free(got_score);
  return status;
}

const BenchDesc bench_desc_ss = {
    .name = "ss",
    .summary = "MapReduce SimilarityScore: per-pair cosine over 128-term rows, bitonic sort, top-4 reduce",
    .papers = "BAWS, coordinated bypassing",
    .suite = "II",
    .sizes = {"64 documents x 128 terms (2016 pairs)", "256 documents x 128 terms (32640 pairs)",
              "512 documents x 128 terms (130816 pairs; bypass paper's 512*128)"},
    .run = ss_run,
};

/* ---------------- InvertedIndex ---------------- */
/* Mars's II: HTML documents in, for every linked URL the sorted list of the
 * documents linking to it out. The map and reduce kernels are in ii.cu
 * (ii.ptx); the runtime's scan, sort and group in mapreduce.ptx. */

static const int ii_ndocs[BENCH_NSIZES] = {1792, 32768, 262144};

typedef struct IiPosting {
  uint32_t url, doc;
} IiPosting;

static int ii_cmp_posting(const void *a, const void *b) {
  const IiPosting *x = a, *y = b;
  if (x->url != y->url) return x->url < y->url ? -1 : 1;
  return x->doc < y->doc ? -1 : x->doc > y->doc;
}

/* CPU twin of the kernel's link automaton (ii_step): the next link at or
 * after *p in doc[.., end): returns 1 and its URL hash, leaving *p after the
 * closing quote; 0 when there is none. */
static int ii_next_link(const char *doc, int *p, int end, uint32_t *hash) {
  static const char pat[6] = {'h', 'r', 'e', 'f', '=', '"'};
  int s = 0;
  uint32_t h = 0;
  for (int q = *p; q < end; q++) {
    unsigned c = (unsigned char)doc[q];
    if (s == 6) {
      if (c == '"') {
        *p = q + 1;
        *hash = h == MR_EMPTY_KEY ? MR_EMPTY_KEY - 1 : h;
        return 1;
      }
      h = (h ^ c) * 16777619u;
    } else if (c == (unsigned char)pat[s]) {
      if (++s == 6) h = 2166136261u;
    } else {
      s = c == 'h';
    }
  }
  *p = end;
  return 0;
}

/* n short HTML documents: 1..2 paragraphs of 3..8 filler words with 0..2
 * links each, link targets Zipf(1.0) over max(n/4, 16) URLs. Returns the
 * text (caller frees) and fills doc_start[0..n]; NULL when out of memory. */
static char *ii_generate(BenchRng *g, int n, uint32_t *doc_start) {
  static const char *const words[16] = {"data",   "graph", "cache", "warp",   "kernel", "memory",
                                        "thread", "index", "query", "server", "page",   "search",
                                        "link",   "node",  "table", "value"};
  static const char *const tlds[4] = {"com", "org", "net", "edu"};
  BenchZipf zipf;
  uint32_t nurls = (uint32_t)(n / 4 > 16 ? n / 4 : 16);
  if (bench_zipf_init(&zipf, nurls, 1.0) != 0) return NULL;
  size_t cap = (size_t)n * 400 + 1, len = 0;
  char *text = malloc(cap);
  if (!text) {
    bench_zipf_free(&zipf);
    return NULL;
  }
  for (int d = 0; d < n; d++) {
    doc_start[d] = (uint32_t)len;
    len += (size_t)snprintf(text + len, cap - len, "<body>\n");
    int paras = 1 + (int)bench_rng_below(g, 2);
    for (int p = 0; p < paras; p++) {
      len += (size_t)snprintf(text + len, cap - len, "<p>");
      int nw = 3 + (int)bench_rng_below(g, 6), links = (int)bench_rng_below(g, 3);
      for (int w = 0; w < nw; w++) {
        if (links && (int)bench_rng_below(g, (uint32_t)(nw - w)) < links) {
          uint32_t u = bench_zipf_next(&zipf, g);
          len += (size_t)snprintf(text + len, cap - len,
                                  "<a href=\"http://www.site%u.%s/%s/page%u.html\">%s</a> ", u % 251,
                                  tlds[u % 4], words[u % 16], u, words[(u + 3) % 16]);
          links--;
        } else {
          len += (size_t)snprintf(text + len, cap - len, "%s ", words[bench_rng_below(g, 16)]);
        }
      }
      len += (size_t)snprintf(text + len, cap - len, "</p>\n");
    }
    len += (size_t)snprintf(text + len, cap - len, "</body>\n");
  }
  doc_start[n] = (uint32_t)len;
  bench_zipf_free(&zipf);
  return text;
}

static int ii_run(BenchRun *r) {
  int n = ii_ndocs[r->size];
  int status = BENCH_ERROR;
  MrRuntime m = {0};
  WsModule *mod = NULL;
  WsFunction *fn_count = NULL, *fn_map = NULL, *fn_rcount = NULL, *fn_reduce = NULL;
  WsDevPtr d_text = 0, d_docs = 0, d_offsets = 0, d_keys = 0, d_vals = 0, d_starts = 0, d_roffsets = 0;
  WsDevPtr d_url = 0, d_n = 0, d_post = 0;
  uint32_t *doc_start = malloc(sizeof(uint32_t) * ((size_t)n + 1));
  IiPosting *want = NULL;
  uint32_t *want_url = NULL, *want_n = NULL, *want_post = NULL, *got_url = NULL, *got_n = NULL,
           *got_post = NULL, *got_off = NULL, *got_flat = NULL;
  char *text = NULL;
  if (!doc_start) goto oom;
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  text = ii_generate(&g, n, doc_start);
  if (!text) goto oom;
  size_t text_len = doc_start[n];

  /* CPU reference: (URL, document) pairs sorted, duplicates dropped, grouped by URL */
  int npairs = 0;
  for (int d = 0; d < n; d++) {
    int p = (int)doc_start[d];
    uint32_t h;
    while (ii_next_link(text, &p, (int)doc_start[d + 1], &h)) npairs++;
  }
  want = malloc(sizeof *want * (size_t)(npairs ? npairs : 1));
  if (!want) goto oom;
  npairs = 0;
  for (int d = 0; d < n; d++) {
    int p = (int)doc_start[d];
    uint32_t h;
    while (ii_next_link(text, &p, (int)doc_start[d + 1], &h)) want[npairs++] = (IiPosting){h, (uint32_t)d};
  }
  qsort(want, (size_t)npairs, sizeof *want, ii_cmp_posting);
  want_url = malloc(sizeof(uint32_t) * (size_t)(npairs ? npairs : 1));
  want_n = malloc(sizeof(uint32_t) * (size_t)(npairs ? npairs : 1));
  want_post = malloc(sizeof(uint32_t) * (size_t)(npairs ? npairs : 1));
  if (!want_url || !want_n || !want_post) goto oom;
  int nurl = 0, npost = 0;
  for (int i = 0; i < npairs; i++) {
    if (i == 0 || want[i].url != want[i - 1].url) {
      want_url[nurl] = want[i].url;
      want_n[nurl++] = 0;
    }
    want_n[nurl - 1]++; /* links, duplicates included */
    if (i == 0 || want[i].url != want[i - 1].url || want[i].doc != want[i - 1].doc)
      want_post[npost++] = want[i].doc; /* distinct documents */
  }
  if (r->verbose > 0)
    fprintf(r->log, "ii: %d documents (%zu bytes), %d links to %d distinct URLs, %d postings\n", n, text_len,
            npairs, nurl, npost);

  if (mr_init(&m, r) != 0) goto fail;
  if (bench_load_module(r, "mapreduce", "ii.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn_count, mod, "ii_map_count"));
  BENCH_CK(r, ws_module_get_function(&fn_map, mod, "ii_map"));
  BENCH_CK(r, ws_module_get_function(&fn_rcount, mod, "ii_reduce_count"));
  BENCH_CK(r, ws_module_get_function(&fn_reduce, mod, "ii_reduce"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_text, text_len));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_docs, sizeof(uint32_t) * ((size_t)n + 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_offsets, sizeof(uint32_t) * ((size_t)n + 1)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_text, text, text_len));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_docs, doc_start, sizeof(uint32_t) * ((size_t)n + 1)));

  /* map-count, scan, map */
  uint32_t total = 0;
  void *p_count[] = {&d_text, &d_docs, &n, &d_offsets};
  BENCH_CK(r, ws_launch_kernel(fn_count, mr_grid(n + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_count));
  if (mr_scan(&m, d_offsets, d_offsets, n + 1, &total) != 0) goto fail;
  if ((int)total != npairs) {
    fprintf(r->log, "ii: map-count found %u links, want %d\n", total, npairs);
    status = BENCH_MISMATCH;
    goto fail;
  }
  int nsort = mr_pow2_at_least((int)total);
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_keys, sizeof(uint32_t) * (size_t)nsort));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_vals, sizeof(uint32_t) * (size_t)nsort));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_keys, MR_EMPTY_KEY, (size_t)nsort));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_vals, 0, (size_t)nsort));
  void *p_map[] = {&d_text, &d_docs, &n, &d_offsets, &d_keys, &d_vals};
  BENCH_CK(r, ws_launch_kernel(fn_map, mr_grid(n), 1, 1, MR_BLOCK, 1, 1, 0, p_map));

  /* sort, group */
  int ngroups = 0, ntotal = (int)total;
  if (mr_sort(&m, d_keys, d_vals, nsort) != 0) goto fail;
  if (mr_group(&m, d_keys, ntotal, &d_starts, &ngroups) != 0) goto fail;
  if (ngroups != nurl) {
    fprintf(r->log, "ii: %d URL groups, want %d\n", ngroups, nurl);
    status = BENCH_MISMATCH;
    goto fail;
  }

  /* reduce-count, scan, reduce */
  uint32_t room = 0;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_roffsets, sizeof(uint32_t) * ((size_t)ngroups + 1)));
  void *p_rcount[] = {&d_starts, &ngroups, &d_roffsets};
  BENCH_CK(r, ws_launch_kernel(fn_rcount, mr_grid(ngroups + 1), 1, 1, MR_BLOCK, 1, 1, 0, p_rcount));
  if (mr_scan(&m, d_roffsets, d_roffsets, ngroups + 1, &room) != 0) goto fail;
  if ((int)room != npairs) {
    fprintf(r->log, "ii: reduce-count gave room for %u postings, want %d\n", room, npairs);
    status = BENCH_MISMATCH;
    goto fail;
  }
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_url, sizeof(uint32_t) * (size_t)(ngroups ? ngroups : 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_n, sizeof(uint32_t) * (size_t)(ngroups ? ngroups : 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_post, sizeof(uint32_t) * (size_t)(room ? room : 1)));
  void *p_reduce[] = {&d_keys, &d_vals, &d_starts, &ngroups, &d_roffsets, &d_url, &d_n, &d_post};
  BENCH_CK(r, ws_launch_kernel(fn_reduce, mr_grid(ngroups), 1, 1, MR_BLOCK, 1, 1, 0, p_reduce));

  got_url = malloc(sizeof(uint32_t) * (size_t)(ngroups ? ngroups : 1));
  got_n = malloc(sizeof(uint32_t) * (size_t)(ngroups ? ngroups : 1));
  got_off = malloc(sizeof(uint32_t) * ((size_t)ngroups + 1));
  got_post = malloc(sizeof(uint32_t) * (size_t)(room ? room : 1));
  got_flat = malloc(sizeof(uint32_t) * (size_t)(room ? room : 1));
  if (!got_url || !got_n || !got_off || !got_post || !got_flat) goto oom;
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_url, d_url, sizeof(uint32_t) * (size_t)ngroups));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_n, d_n, sizeof(uint32_t) * (size_t)ngroups));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_off, d_roffsets, sizeof(uint32_t) * ((size_t)ngroups + 1)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_post, d_post, sizeof(uint32_t) * (size_t)room));
  size_t bad = bench_check_u32(r, "url_hash", got_url, want_url, (size_t)nurl);
  bad += bench_check_u32(r, "links_per_url", got_n, want_n, (size_t)nurl);
  if (!bad) { /* the posting lists: each group's documents sorted, duplicates dropped */
    int k = 0;
    for (int gi = 0; gi < ngroups; gi++) {
      uint32_t *list = got_post + got_off[gi];
      qsort(list, got_n[gi], sizeof *list, mr_cmp_u32);
      for (uint32_t j = 0; j < got_n[gi] && k < npost; j++)
        if (j == 0 || list[j] != list[j - 1]) got_flat[k++] = list[j];
    }
    if (k != npost) {
      fprintf(r->log, "ii: %d distinct postings, want %d\n", k, npost);
      bad++;
    } else {
      bad += bench_check_u32(r, "postings", got_flat, want_post, (size_t)npost);
    }
  }
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
  goto fail;

oom:
  fprintf(r->log, "ii: out of host memory\n");
fail:
  if (d_text) ws_mem_free(r->ctx, d_text);
  if (d_docs) ws_mem_free(r->ctx, d_docs);
  if (d_offsets) ws_mem_free(r->ctx, d_offsets);
  if (d_keys) ws_mem_free(r->ctx, d_keys);
  if (d_vals) ws_mem_free(r->ctx, d_vals);
  if (d_starts) ws_mem_free(r->ctx, d_starts);
  if (d_roffsets) ws_mem_free(r->ctx, d_roffsets);
  if (d_url) ws_mem_free(r->ctx, d_url);
  if (d_n) ws_mem_free(r->ctx, d_n);
  if (d_post) ws_mem_free(r->ctx, d_post);
  if (mod) ws_module_unload(mod);
  mr_fini(&m);
  free(doc_start);
  free(want);
  free(want_url);
  free(want_n);
  free(want_post);
  free(got_url);
  free(got_n);
  free(got_off);
  free(got_post);
  free(got_flat);
  free(text);
  return status;
}

const BenchDesc bench_desc_ii = {
    .name = "ii",
    .summary =
        "MapReduce InvertedIndex: byte-wise link scan per HTML document, bitonic sort, posting lists per URL",
    .papers = "iWarp",
    .suite = "I",
    .sizes = {"1792 HTML documents (~0.3 MB)", "32768 HTML documents (~5 MB)",
              "262144 HTML documents (~42 MB)"},
    .run = ii_run,
};
