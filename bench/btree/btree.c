/* btree.c - host driver of the btree benchmark (Rodinia's b+tree): bulk-loads
 * an order-256 B+tree from seeded sorted random keys (nodes 55-100% full, as a
 * tree grown by random inserts), flattens it breadth-first into node records,
 * runs point queries (findK) and range queries (findRangeK), one CTA of 256
 * threads per query, and checks every answer against a CPU binary search. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define BT_ORDER 256
#define BT_THREADS 256

/* Device layout of the kernel's BtNode (2068 bytes). */
typedef struct BtNode {
  int32_t location;
  int32_t indices[BT_ORDER + 1];
  int32_t keys[BT_ORDER + 1];
  bool is_leaf;
  int32_t num_keys;
} BtNode;
_Static_assert(sizeof(BtNode) == 2068, "BtNode layout must match the kernel's");

typedef struct BtConfig {
  int nkeys, nfind, nrange, range_span;
} BtConfig;

/* Rodinia's command file: "k 10000" and "j 6000 3000" on a 1M-key tree. */
static const BtConfig bt_cfg[BENCH_NSIZES] = {
    {8192, 64, 32, 300}, {262144, 3000, 1500, 3000}, {1000000, 10000, 6000, 3000}};

typedef struct BtTree {
  BtNode *nodes;
  long nnodes;
  long height; /* levels above the leaves */
} BtTree;

/* Bulk load: leaves of 141-255 keys, inner nodes of 141-256 children; each
 * inner slot i>0 holds the smallest key of child i, slot 0 holds INT_MIN. */
static int bt_build(BtTree *t, const int32_t *keys, int n, BenchRng *rng) {
  enum { MAX_LEVELS = 16 };
  long count[MAX_LEVELS] = {0};
  /* level sizes, bottom (0 = leaves) up, with the fill of each node */
  int32_t *fill[MAX_LEVELS] = {0};
  int levels = 0, items = n, status = -1;
  t->nodes = NULL;
  for (;;) {
    int cap = levels == 0 ? BT_ORDER - 1 : BT_ORDER;
    fill[levels] = malloc(sizeof(int32_t) * ((size_t)items / 141 + 2));
    if (!fill[levels]) goto out;
    long c = 0;
    for (int left = items; left > 0; c++) {
      int f = 141 + (int)bench_rng_below(rng, (uint32_t)(cap - 141 + 1));
      if (f > left) f = left;
      fill[levels][c] = f;
      left -= f;
    }
    count[levels++] = c;
    if (c == 1 || levels == MAX_LEVELS) break;
    items = (int)c;
  }
  long total = 0;
  for (int l = 0; l < levels; l++) total += count[l];
  t->nnodes = total;
  t->height = levels - 1;
  t->nodes = calloc((size_t)total, sizeof(BtNode));
  int32_t *minkey = malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1)); /* smallest key of each node */
  if (!t->nodes || !minkey) {
    free(minkey);
    goto out;
  }
  /* breadth-first locations: root level first, leaves last */
  long first[MAX_LEVELS];
  long next = 0;
  for (int l = levels - 1; l >= 0; l--) {
    first[l] = next;
    next += count[l];
  }
  int child = 0; /* first key / child of the current node in the level below */
  for (long i = 0; i < count[0]; i++) {
    BtNode *nd = &t->nodes[first[0] + i];
    nd->location = (int32_t)(first[0] + i);
    nd->is_leaf = true;
    nd->num_keys = fill[0][i];
    for (int s = 0; s <= BT_ORDER; s++) nd->keys[s] = INT_MAX;
    for (int s = 0; s < fill[0][i]; s++) {
      nd->keys[s] = keys[child + s];
      nd->indices[s] = child + s; /* record index */
    }
    minkey[i] = keys[child];
    child += fill[0][i];
  }
  for (int l = 1; l < levels; l++) {
    child = 0;
    for (long i = 0; i < count[l]; i++) {
      BtNode *nd = &t->nodes[first[l] + i];
      nd->location = (int32_t)(first[l] + i);
      nd->is_leaf = false;
      nd->num_keys = fill[l][i] - 1;
      for (int s = 0; s <= BT_ORDER; s++) nd->keys[s] = INT_MAX;
      for (int s = 0; s < fill[l][i]; s++) {
        nd->keys[s] = s == 0 ? INT_MIN : minkey[child + s];
        nd->indices[s] = (int32_t)(first[l - 1] + child + s);
      }
      int32_t m = minkey[child];
      child += fill[l][i];
      minkey[i] = m; /* i < child: safe to overwrite in place */
    }
  }
  free(minkey);
  status = 0;
out:
  for (int l = 0; l < MAX_LEVELS; l++) free(fill[l]);
  if (status) {
    free(t->nodes);
    t->nodes = NULL;
  }
  return status;
}

/* Index of key in the sorted array, or -1. */
static int bt_find(const int32_t *keys, int n, int32_t key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (keys[mid] == key) return mid;
    if (keys[mid] < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

static int bt_run(BenchRun *r) {
  const BtConfig *cfg = &bt_cfg[r->size];
  int n = cfg->nkeys, nq = cfg->nfind, nr = cfg->nrange, status = BENCH_ERROR;
  BtTree tree = {0};
  WsModule *mod = NULL;
  WsDevPtr d_nodes = 0, d_records = 0, d_cur = 0, d_off = 0, d_last = 0, d_off2 = 0, d_keys = 0, d_ans = 0,
           d_start = 0, d_end = 0, d_rstart = 0, d_rlen = 0;
  int32_t *keys = malloc(sizeof(int32_t) * (size_t)n), *records = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *qkeys = malloc(sizeof(int32_t) * (size_t)nq), *ans = malloc(sizeof(int32_t) * (size_t)nq);
  int32_t *want_ans = malloc(sizeof(int32_t) * (size_t)nq);
  int32_t *start = malloc(sizeof(int32_t) * (size_t)nr), *end = malloc(sizeof(int32_t) * (size_t)nr);
  int32_t *rstart = calloc((size_t)nr, sizeof(int32_t)), *rlen = calloc((size_t)nr, sizeof(int32_t));
  int32_t *want_rstart = malloc(sizeof(int32_t) * (size_t)nr),
          *want_rlen = malloc(sizeof(int32_t) * (size_t)nr);
  int64_t *zeros = calloc((size_t)(nq > nr ? nq : nr), sizeof(int64_t));
  if (!keys || !records || !qkeys || !ans || !want_ans || !start || !end || !rstart || !rlen ||
      !want_rstart || !want_rlen || !zeros) {
    fprintf(r->log, "btree: out of host memory\n");
    goto fail;
  }

  /* Sorted distinct keys with random gaps of 1-3 (about half of the key
   * range present), random record values. */
  BenchRng rng;
  bench_rng_seed(&rng, r->seed);
  int32_t k = 0;
  for (int i = 0; i < n; i++) {
    k += 1 + (int32_t)bench_rng_below(&rng, 3);
    keys[i] = k;
    records[i] = (int32_t)(bench_rng_u64(&rng) >> 33);
  }
  int32_t kmax = k;
  if (bt_build(&tree, keys, n, &rng)) {
    fprintf(r->log, "btree: out of host memory\n");
    goto fail;
  }
  /* Point queries: 7 of 8 hit an existing key, the rest are uniform over the
   * key range (hit or miss). Range queries: [key i, key i+span] mostly,
   * uniform endpoints sometimes. */
  for (int q = 0; q < nq; q++)
    qkeys[q] = bench_rng_below(&rng, 8) ? keys[bench_rng_below(&rng, (uint32_t)n)]
                                        : (int32_t)bench_rng_below(&rng, (uint32_t)kmax + 2);
  for (int q = 0; q < nr; q++) {
    if (bench_rng_below(&rng, 8)) {
      int i = (int)bench_rng_below(&rng, (uint32_t)n);
      int j = i + (int)bench_rng_below(&rng, (uint32_t)cfg->range_span + 1);
      start[q] = keys[i];
      end[q] = keys[j < n ? j : n - 1];
    } else {
      start[q] = (int32_t)bench_rng_below(&rng, (uint32_t)kmax + 2);
      end[q] = start[q] + (int32_t)bench_rng_below(&rng, 2u * (uint32_t)cfg->range_span + 1);
    }
  }
  for (int q = 0; q < nq; q++) ans[q] = -1;
  if (r->verbose > 0)
    fprintf(r->log, "btree: %d keys, %ld nodes, height %ld; %d findK and %d findRangeK queries\n", n,
            tree.nnodes, tree.height, nq, nr);

  if (bench_load_module(r, "btree", "btree.ptx", &mod)) goto fail;
  WsFunction *k_find, *k_range;
  BENCH_CK(r, ws_module_get_function(&k_find, mod, "btree_findK"));
  BENCH_CK(r, ws_module_get_function(&k_range, mod, "btree_findRangeK"));
  size_t nbytes = sizeof(BtNode) * (size_t)tree.nnodes;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_nodes, nbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_records, sizeof(int32_t) * (size_t)n));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_nodes, tree.nodes, nbytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_records, records, sizeof(int32_t) * (size_t)n));

  /* findK */
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_cur, sizeof(int64_t) * (size_t)nq));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_off, sizeof(int64_t) * (size_t)nq));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_keys, sizeof(int32_t) * (size_t)nq));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ans, sizeof(int32_t) * (size_t)nq));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_cur, zeros, sizeof(int64_t) * (size_t)nq));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_off, zeros, sizeof(int64_t) * (size_t)nq));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_keys, qkeys, sizeof(int32_t) * (size_t)nq));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_ans, ans, sizeof(int32_t) * (size_t)nq));
  void *p_find[] = {&tree.height, &d_nodes, &tree.nnodes, &d_records, &d_cur, &d_off, &d_keys, &d_ans};
  BENCH_CK(r, ws_launch_kernel(k_find, (unsigned)nq, 1, 1, BT_THREADS, 1, 1, 0, p_find));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, ans, d_ans, sizeof(int32_t) * (size_t)nq));

  /* findRangeK (fresh cursors) */
  BENCH_CK(r, ws_mem_free(r->ctx, d_cur));
  BENCH_CK(r, ws_mem_free(r->ctx, d_off));
  d_cur = d_off = 0;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_cur, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_off, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_last, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_off2, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_start, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_end, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_rstart, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_rlen, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_cur, zeros, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_off, zeros, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_last, zeros, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_off2, zeros, sizeof(int64_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_start, start, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_end, end, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_rstart, rstart, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_rlen, rlen, sizeof(int32_t) * (size_t)nr));
  void *p_range[] = {&tree.height, &d_nodes, &tree.nnodes, &d_cur,    &d_off, &d_last,
                     &d_off2,      &d_start, &d_end,       &d_rstart, &d_rlen};
  BENCH_CK(r, ws_launch_kernel(k_range, (unsigned)nr, 1, 1, BT_THREADS, 1, 1, 0, p_range));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, rstart, d_rstart, sizeof(int32_t) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, rlen, d_rlen, sizeof(int32_t) * (size_t)nr));

  /* CPU answers: binary search in the sorted keys (records are in key order). */
  for (int q = 0; q < nq; q++) {
    int i = bt_find(keys, n, qkeys[q]);
    want_ans[q] = i >= 0 ? records[i] : -1;
  }
  for (int q = 0; q < nr; q++) {
    int i = bt_find(keys, n, start[q]), j = bt_find(keys, n, end[q]);
    want_rstart[q] = i >= 0 ? i : 0;
    want_rlen[q] = j >= 0 ? j - want_rstart[q] + 1 : 0;
  }
  size_t bad = bench_check_i32(r, "findK value", ans, want_ans, (size_t)nq);
  bad += bench_check_i32(r, "findRangeK start", rstart, want_rstart, (size_t)nr);
  bad += bench_check_i32(r, "findRangeK length", rlen, want_rlen, (size_t)nr);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail : {
  WsDevPtr all[] = {d_nodes, d_records, d_cur,   d_off, d_last,   d_off2,
                    d_keys,  d_ans,     d_start, d_end, d_rstart, d_rlen};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (all[i]) ws_mem_free(r->ctx, all[i]);
}
  if (mod) ws_module_unload(mod);
  free(tree.nodes);
  free(keys);
  free(records);
  free(qkeys);
  free(ans);
  free(want_ans);
  free(start);
  free(end);
  free(rstart);
  free(rlen);
  free(want_rstart);
  free(want_rlen);
  free(zeros);
  return status;
}

const BenchDesc bench_desc_btree = {
    .name = "btree",
    .summary = "B+tree findK/findRangeK (Rodinia b+tree): one 256-thread CTA per query, barrier per level",
    .papers = "CAWA, BAWS",
    .suite = "I",
    .sizes = {"8192 keys; 64 findK + 32 findRangeK", "262144 keys; 3000 findK + 1500 findRangeK (span 3000)",
              "1M keys (CAWA); 10000 findK + 6000 findRangeK (span 3000), Rodinia's command file"},
    .run = bt_run,
};
