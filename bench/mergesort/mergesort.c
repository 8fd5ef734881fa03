/* mergesort.c - host driver of the mergesort benchmark (CUDA SDK-style
 * mergeSort of uint32 keys with uint32 values): shared-memory sort of
 * 1024-element chunks, then per merge level sample ranks, rank merge and
 * elementary-interval merges over global memory. Exact check against a stable
 * CPU sort. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define MERGESORT_CHUNK 1024
#define MERGESORT_SAMPLE 128
#define MERGESORT_KEY_RANGE 65536u /* the SDK draws keys from [0, 65536): many ties */

/* Element counts: powers of two >= 2048; paper is the SDK's 4 * 1048576. */
static const unsigned mergesort_sizes[BENCH_NSIZES] = {8192, 131072, 4194304};

typedef struct MergesortItem {
  unsigned key, val;
} MergesortItem;

static int mergesort_cmp(const void *pa, const void *pb) {
  const MergesortItem *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return a->val < b->val ? -1 : a->val > b->val; /* values are the input indices: stable */
}

static int mergesort_run(BenchRun *r) {
  const unsigned n = mergesort_sizes[r->size];
  const unsigned nsamples = n / MERGESORT_SAMPLE;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k_shared = NULL, *k_ranks = NULL, *k_merge_ranks = NULL, *k_intervals = NULL;
  WsDevPtr d_in_key = 0, d_in_val = 0, d_key[2] = {0, 0}, d_val[2] = {0, 0};
  WsDevPtr d_ranks_a = 0, d_ranks_b = 0, d_limits_a = 0, d_limits_b = 0;
  unsigned *key = malloc(n * sizeof *key), *val = malloc(n * sizeof *val);
  unsigned *got_key = malloc(n * sizeof *got_key), *got_val = malloc(n * sizeof *got_val);
  unsigned *want_key = malloc(n * sizeof *want_key), *want_val = malloc(n * sizeof *want_val);
  MergesortItem *items = malloc(n * sizeof *items);
  if (!key || !val || !got_key || !got_val || !want_key || !want_val || !items) {
    fprintf(r->log, "mergesort: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (unsigned i = 0; i < n; i++) {
    key[i] = bench_rng_below(&g, MERGESORT_KEY_RANGE);
    val[i] = i;
  }
  if (r->verbose > 0)
    fprintf(r->log, "mergesort: %u keys in [0, %u) with index values\n", n, MERGESORT_KEY_RANGE);

  if (bench_load_module(r, "mergesort", "mergesort.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_shared, mod, "mergesort_shared"));
  BENCH_CK(r, ws_module_get_function(&k_ranks, mod, "mergesort_sample_ranks"));
  BENCH_CK(r, ws_module_get_function(&k_merge_ranks, mod, "mergesort_merge_ranks"));
  BENCH_CK(r, ws_module_get_function(&k_intervals, mod, "mergesort_merge_intervals"));
  const size_t bytes = (size_t)n * sizeof(unsigned), sbytes = nsamples * sizeof(unsigned);
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_in_key, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_in_val, bytes));
  for (int i = 0; i < 2; i++) {
    BENCH_CK(r, ws_mem_alloc(r->ctx, &d_key[i], bytes));
    BENCH_CK(r, ws_mem_alloc(r->ctx, &d_val[i], bytes));
  }
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ranks_a, sbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ranks_b, sbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_limits_a, sbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_limits_b, sbytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_in_key, key, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_in_val, val, bytes));

  {
    void *p[] = {&d_key[0], &d_val[0], &d_in_key, &d_in_val};
    BENCH_CK(r, ws_launch_kernel(k_shared, n / MERGESORT_CHUNK, 1, 1, MERGESORT_CHUNK / 2, 1, 1, 0, p));
  }
  int cur = 0;
  const unsigned sample_ctas = (nsamples + 255) / 256;
  for (unsigned stride = MERGESORT_CHUNK; stride < n; stride <<= 1, cur ^= 1) {
    void *p_ranks[] = {&d_ranks_a, &d_ranks_b, &d_key[cur], &stride, (void *)&n};
    BENCH_CK(r, ws_launch_kernel(k_ranks, sample_ctas, 1, 1, 256, 1, 1, 0, p_ranks));
    void *p_la[] = {&d_limits_a, &d_ranks_a, &stride, (void *)&n};
    BENCH_CK(r, ws_launch_kernel(k_merge_ranks, sample_ctas, 1, 1, 256, 1, 1, 0, p_la));
    void *p_lb[] = {&d_limits_b, &d_ranks_b, &stride, (void *)&n};
    BENCH_CK(r, ws_launch_kernel(k_merge_ranks, sample_ctas, 1, 1, 256, 1, 1, 0, p_lb));
    void *p_merge[] = {&d_key[cur ^ 1], &d_val[cur ^ 1], &d_key[cur], &d_val[cur],
                       &d_limits_a,     &d_limits_b,     &stride};
    BENCH_CK(r, ws_launch_kernel(k_intervals, nsamples, 1, 1, MERGESORT_SAMPLE, 1, 1, 0, p_merge));
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_key, d_key[cur], bytes));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_val, d_val[cur], bytes));

  for (unsigned i = 0; i < n; i++) items[i] = (MergesortItem){key[i], val[i]};
  qsort(items, n, sizeof *items, mergesort_cmp);
  for (unsigned i = 0; i < n; i++) {
    want_key[i] = items[i].key;
    want_val[i] = items[i].val;
  }
  size_t bad = bench_check_u32(r, "sorted keys", got_key, want_key, n);
  bad += bench_check_u32(r, "values (stable order)", got_val, want_val, n);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_in_key) ws_mem_free(r->ctx, d_in_key);
  if (d_in_val) ws_mem_free(r->ctx, d_in_val);
  for (int i = 0; i < 2; i++) {
    if (d_key[i]) ws_mem_free(r->ctx, d_key[i]);
    if (d_val[i]) ws_mem_free(r->ctx, d_val[i]);
  }
  if (d_ranks_a) ws_mem_free(r->ctx, d_ranks_a);
  if (d_ranks_b) ws_mem_free(r->ctx, d_ranks_b);
  if (d_limits_a) ws_mem_free(r->ctx, d_limits_a);
  if (d_limits_b) ws_mem_free(r->ctx, d_limits_b);
  if (mod) ws_module_unload(mod);
  free(key);
  free(val);
  free(got_key);
  free(got_val);
  free(want_key);
  free(want_val);
  free(items);
  return status;
}

const BenchDesc bench_desc_mergesort = {
    .name = "mergesort",
    .summary = "SDK mergeSort: shared-memory binary-search merges of 1024-key chunks, then sample "
               "ranks + interval merges per level (barrier-intensive)",
    .papers = "BAWS",
    .suite = "II",
    .sizes = {"8K keys+values", "128K keys+values", "4M keys+values (SDK default)"},
    .run = mergesort_run,
};
