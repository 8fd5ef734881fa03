/* sssp.c - host driver of sssp: Harish-Narayanan style single-source shortest
 * paths from node 0 over a seeded random weighted graph (every node gets 2-4
 * random undirected edges, integer weights 1-10), two kernels per iteration
 * until no cost changes, costs checked exactly against a CPU Dijkstra. */
#include <stdint.h>
#include <stdlib.h>

#include "bench.h"

#define SSSP_BLOCK 512
#define SSSP_MAX_WEIGHT 10
#define SSSP_INF INT32_MAX

typedef struct SsspGraph {
  int n;           /* nodes */
  int m;           /* directed edges (each undirected edge appears twice) */
  int32_t *offset; /* n + 1: node v's edges are [offset[v], offset[v + 1]) */
  int32_t *edge;   /* m destination node ids */
  int32_t *weight; /* m weights (both directions of an edge share one) */
} SsspGraph;

static void sssp_graph_free(SsspGraph *g) {
  free(g->offset);
  free(g->edge);
  free(g->weight);
  g->offset = g->edge = g->weight = NULL;
}

/* Node u draws 2-4 random partners v != u (as bfs's uniform graph), each
 * undirected edge with a weight in [1, SSSP_MAX_WEIGHT]; CSR in generation order. */
static int sssp_gen(SsspGraph *g, int n, BenchRng *rng) {
  size_t cap = (size_t)n * 4;
  int32_t *src = malloc(sizeof(int32_t) * cap), *dst = malloc(sizeof(int32_t) * cap);
  int32_t *w = malloc(sizeof(int32_t) * cap), *fill = calloc((size_t)n + 1, sizeof(int32_t));
  g->n = n;
  g->offset = calloc((size_t)n + 1, sizeof(int32_t));
  int pairs = 0, rc = -1;
  if (!src || !dst || !w || !fill || !g->offset) goto out;
  for (int u = 0; u < n; u++) {
    int k = 2 + (int)bench_rng_below(rng, 3);
    for (int j = 0; j < k; j++) {
      int v = (int)bench_rng_below(rng, (uint32_t)n - 1);
      if (v >= u) v++;
      src[pairs] = u;
      dst[pairs] = v;
      w[pairs] = 1 + (int)bench_rng_below(rng, SSSP_MAX_WEIGHT);
      pairs++;
    }
  }
  g->m = 2 * pairs;
  g->edge = malloc(sizeof(int32_t) * (size_t)g->m);
  g->weight = malloc(sizeof(int32_t) * (size_t)g->m);
  if (!g->edge || !g->weight) goto out;
  for (int i = 0; i < pairs; i++) {
    g->offset[src[i] + 1]++;
    g->offset[dst[i] + 1]++;
  }
  for (int v = 0; v < n; v++) g->offset[v + 1] += g->offset[v];
  for (int v = 0; v < n; v++) fill[v] = g->offset[v];
  for (int i = 0; i < pairs; i++) {
    g->edge[fill[src[i]]] = dst[i];
    g->weight[fill[src[i]]++] = w[i];
    g->edge[fill[dst[i]]] = src[i];
    g->weight[fill[dst[i]]++] = w[i];
  }
  rc = 0;
out:
  free(src);
  free(dst);
  free(w);
  free(fill);
  if (rc != 0) sssp_graph_free(g);
  return rc;
}

/* Binary min-heap of (distance, node) pairs for Dijkstra, lazy deletion. */
typedef struct SsspHeapItem {
  int32_t dist, node;
} SsspHeapItem;

static void sssp_heap_push(SsspHeapItem *h, size_t *len, SsspHeapItem it) {
  size_t i = (*len)++;
  while (i > 0 && h[(i - 1) / 2].dist > it.dist) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = it;
}

static SsspHeapItem sssp_heap_pop(SsspHeapItem *h, size_t *len) {
  SsspHeapItem top = h[0], last = h[--*len];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= *len) break;
    if (c + 1 < *len && h[c + 1].dist < h[c].dist) c++;
    if (h[c].dist >= last.dist) break;
    h[i] = h[c];
    i = c;
  }
  if (*len > 0) h[i] = last;
  return top;
}

/* CPU reference: Dijkstra from node 0; unreached nodes keep SSSP_INF. */
static int sssp_cpu(const SsspGraph *g, int32_t *dist) {
  /* every relaxation pushes at most once per directed edge, plus the source */
  SsspHeapItem *heap = malloc(sizeof(SsspHeapItem) * ((size_t)g->m + 1));
  if (!heap) return -1;
  size_t len = 0;
  for (int v = 0; v < g->n; v++) dist[v] = SSSP_INF;
  dist[0] = 0;
  sssp_heap_push(heap, &len, (SsspHeapItem){0, 0});
  while (len > 0) {
    SsspHeapItem it = sssp_heap_pop(heap, &len);
    if (it.dist != dist[it.node]) continue; /* stale entry */
    for (int e = g->offset[it.node]; e < g->offset[it.node + 1]; e++) {
      int v = g->edge[e];
      int32_t d = it.dist + g->weight[e];
      if (d < dist[v]) {
        dist[v] = d;
        sssp_heap_push(heap, &len, (SsspHeapItem){d, v});
      }
    }
  }
  free(heap);
  return 0;
}

/* Nodes per size. */
static const int sssp_nodes[BENCH_NSIZES] = {8192, 65536, 1048576};

static int sssp_run(BenchRun *r) {
  int status = BENCH_ERROR;
  SsspGraph g = {0};
  WsModule *mod = NULL;
  WsFunction *k_relax = NULL, *k_update = NULL;
  WsDevPtr d_offset = 0, d_edge = 0, d_weight = 0, d_mask = 0, d_cost = 0, d_updating = 0, d_again = 0;
  int32_t *cost = NULL, *want = NULL;
  uint8_t *mask = NULL;

  BenchRng rng;
  bench_rng_seed(&rng, r->seed);
  if (sssp_gen(&g, sssp_nodes[r->size], &rng) != 0) {
    fprintf(r->log, "sssp: out of host memory\n");
    return BENCH_ERROR;
  }
  int n = g.n;
  cost = malloc(sizeof(int32_t) * (size_t)n);
  want = malloc(sizeof(int32_t) * (size_t)n);
  mask = calloc((size_t)n, 1);
  if (!cost || !want || !mask || sssp_cpu(&g, want) != 0) {
    fprintf(r->log, "sssp: out of host memory\n");
    goto fail;
  }
  if (r->verbose > 0) {
    int reached = 0;
    int32_t far = 0;
    for (int v = 0; v < n; v++) {
      if (want[v] == SSSP_INF) continue;
      reached++;
      if (want[v] > far) far = want[v];
    }
    fprintf(r->log, "sssp: %d nodes, %d directed edges, weights 1-%d; %d reached, farthest %d\n", n, g.m,
            SSSP_MAX_WEIGHT, reached, (int)far);
  }

  if (bench_load_module(r, "sssp", "sssp.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_relax, mod, "sssp_relax"));
  BENCH_CK(r, ws_module_get_function(&k_update, mod, "sssp_update"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_offset, sizeof(int32_t) * ((size_t)n + 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_edge, sizeof(int32_t) * (size_t)g.m));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_weight, sizeof(int32_t) * (size_t)g.m));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_mask, (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_cost, sizeof(int32_t) * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_updating, sizeof(int32_t) * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_again, 1));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_offset, g.offset, sizeof(int32_t) * ((size_t)n + 1)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_edge, g.edge, sizeof(int32_t) * (size_t)g.m));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_weight, g.weight, sizeof(int32_t) * (size_t)g.m));
  mask[0] = 1; /* source: node 0 */
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_mask, mask, (size_t)n));
  for (int v = 0; v < n; v++) cost[v] = v == 0 ? 0 : SSSP_INF;
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_cost, cost, sizeof(int32_t) * (size_t)n));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_updating, cost, sizeof(int32_t) * (size_t)n));

  unsigned grid = (unsigned)((n + SSSP_BLOCK - 1) / SSSP_BLOCK);
  void *relax_params[] = {&d_offset, &d_edge, &d_weight, &d_mask, &d_cost, &d_updating, &n};
  void *update_params[] = {&d_mask, &d_cost, &d_updating, &d_again, &n};
  int iters = 0;
  uint8_t again;
  do {
    if (iters > n) {
      fprintf(r->log, "sssp: no convergence after %d iterations\n", iters);
      status = BENCH_MISMATCH;
      goto fail;
    }
    BENCH_CK(r, ws_memset_d8(r->ctx, d_again, 0, 1));
    BENCH_CK(r, ws_launch_kernel(k_relax, grid, 1, 1, SSSP_BLOCK, 1, 1, 0, relax_params));
    BENCH_CK(r, ws_launch_kernel(k_update, grid, 1, 1, SSSP_BLOCK, 1, 1, 0, update_params));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, &again, d_again, 1));
    iters++;
  } while (again);
  if (r->verbose > 0)
    fprintf(r->log, "sssp: %d iterations, %u CTAs of %d threads per kernel\n", iters, grid, SSSP_BLOCK);

  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, cost, d_cost, sizeof(int32_t) * (size_t)n));
  status = bench_check_i32(r, "cost", cost, want, (size_t)n) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_offset) ws_mem_free(r->ctx, d_offset);
  if (d_edge) ws_mem_free(r->ctx, d_edge);
  if (d_weight) ws_mem_free(r->ctx, d_weight);
  if (d_mask) ws_mem_free(r->ctx, d_mask);
  if (d_cost) ws_mem_free(r->ctx, d_cost);
  if (d_updating) ws_mem_free(r->ctx, d_updating);
  if (d_again) ws_mem_free(r->ctx, d_again);
  if (mod) ws_module_unload(mod);
  free(cost);
  free(want);
  free(mask);
  sssp_graph_free(&g);
  return status;
}

const BenchDesc bench_desc_sssp = {
    .name = "sssp",
    .summary =
        "Harish-Narayanan SSSP (mask/relax kernels, atomicMin), weighted random graph: divergent gathers",
    .papers = "CCWS",
    .suite = "I",
    .sizes = {"8192 nodes, 2-4 undirected edges each, weights 1-10", "65536 nodes",
              "1048576 nodes (Harish-Narayanan's 1M-node graphs)"},
    .run = sssp_run,
};
