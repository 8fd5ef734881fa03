/* bfs.c - host driver of the bfs benchmarks: Rodinia-style level-synchronous
 * BFS from node 0 over a seeded random graph (bfs: every node gets 2-4 random
 * undirected edges; bfs_rmat: skewed R-MAT graph), two kernels per level until
 * no node changes, costs checked exactly against a CPU queue BFS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define BFS_BLOCK 512
#define BFS_RMAT_EDGE_FACTOR 4 /* undirected R-MAT edges generated per node */

typedef enum BfsGraphKind { BFS_UNIFORM, BFS_RMAT } BfsGraphKind;

typedef struct BfsGraph {
  int n;         /* nodes */
  int m;         /* directed edges (each undirected edge appears twice) */
  int32_t *node; /* 2 ints per node: first edge, edge count (struct BfsNode) */
  int32_t *edge; /* m destination node ids */
} BfsGraph;

static void bfs_graph_free(BfsGraph *g) {
  free(g->node);
  free(g->edge);
  g->node = g->edge = NULL;
}

/* Builds the CSR arrays from `pairs` undirected edges (src[i], dst[i]):
 * each one is stored in both directions, in generation order. */
static int bfs_graph_build(BfsGraph *g, int n, const int32_t *src, const int32_t *dst, int pairs) {
  g->n = n;
  g->m = 2 * pairs;
  g->node = calloc((size_t)n * 2, sizeof(int32_t));
  g->edge = malloc(sizeof(int32_t) * (size_t)(g->m ? g->m : 1));
  int32_t *fill = calloc((size_t)n, sizeof(int32_t));
  if (!g->node || !g->edge || !fill) {
    free(fill);
    bfs_graph_free(g);
    return -1;
  }
  for (int i = 0; i < pairs; i++) {
    g->node[2 * src[i] + 1]++;
    g->node[2 * dst[i] + 1]++;
  }
  int first = 0;
  for (int v = 0; v < n; v++) {
    g->node[2 * v] = first;
    fill[v] = first;
    first += g->node[2 * v + 1];
  }
  for (int i = 0; i < pairs; i++) {
    g->edge[fill[src[i]]++] = dst[i];
    g->edge[fill[dst[i]]++] = src[i];
  }
  free(fill);
  return 0;
}

/* Uniform graph (like Rodinia's generator): node u draws 2-4 random partners
 * v != u; every edge is undirected. */
static int bfs_gen_uniform(BfsGraph *g, int n, BenchRng *rng) {
  size_t cap = (size_t)n * 4;
  int32_t *src = malloc(sizeof(int32_t) * cap), *dst = malloc(sizeof(int32_t) * cap);
  int pairs = 0, rc = -1;
  if (src && dst) {
    for (int u = 0; u < n; u++) {
      int k = 2 + (int)bench_rng_below(rng, 3);
      for (int j = 0; j < k; j++) {
        int v = (int)bench_rng_below(rng, (uint32_t)n - 1);
        if (v >= u) v++;
        src[pairs] = u;
        dst[pairs] = v;
        pairs++;
      }
    }
    rc = bfs_graph_build(g, n, src, dst, pairs);
  }
  free(src);
  free(dst);
  return rc;
}

/* R-MAT graph (Chakrabarti et al., Graph500 parameters a=.57 b=c=.19 d=.05):
 * 2^scale nodes, BFS_RMAT_EDGE_FACTOR * 2^scale undirected edges, self loops
 * dropped, duplicates kept, vertex ids not permuted (hubs sit at low ids). */
static int bfs_gen_rmat(BfsGraph *g, int scale, BenchRng *rng) {
  int n = 1 << scale;
  size_t cap = (size_t)n * BFS_RMAT_EDGE_FACTOR;
  int32_t *src = malloc(sizeof(int32_t) * cap), *dst = malloc(sizeof(int32_t) * cap);
  int pairs = 0, rc = -1;
  if (src && dst) {
    for (size_t i = 0; i < cap; i++) {
      int u = 0, v = 0;
      for (int bit = scale - 1; bit >= 0; bit--) {
        float p = bench_rng_float(rng);
        if (p < 0.57f) {
        } else if (p < 0.76f) {
          v |= 1 << bit;
        } else if (p < 0.95f) {
          u |= 1 << bit;
        } else {
          u |= 1 << bit;
          v |= 1 << bit;
        }
      }
      if (u == v) continue;
      src[pairs] = u;
      dst[pairs] = v;
      pairs++;
    }
    rc = bfs_graph_build(g, n, src, dst, pairs);
  }
  free(src);
  free(dst);
  return rc;
}

/* CPU reference: queue BFS from node 0; unreached nodes keep cost -1. */
static int bfs_cpu(const BfsGraph *g, int32_t *cost) {
  int32_t *queue = malloc(sizeof(int32_t) * (size_t)g->n);
  if (!queue) return -1;
  for (int v = 0; v < g->n; v++) cost[v] = -1;
  int head = 0, tail = 0;
  cost[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int u = queue[head++];
    for (int e = g->node[2 * u]; e < g->node[2 * u] + g->node[2 * u + 1]; e++) {
      int v = g->edge[e];
      if (cost[v] < 0) {
        cost[v] = cost[u] + 1;
        queue[tail++] = v;
      }
    }
  }
  free(queue);
  return 0;
}

static int bfs_run_graph(BenchRun *r, BfsGraphKind kind, int size_param) {
  int status = BENCH_ERROR;
  BfsGraph g = {0};
  WsModule *mod = NULL;
  WsFunction *k_expand = NULL, *k_advance = NULL;
  WsDevPtr d_node = 0, d_edge = 0, d_frontier = 0, d_updating = 0, d_visited = 0, d_cost = 0, d_again = 0;
  int32_t *cost = NULL, *want = NULL;
  uint8_t *mask = NULL;
  const char *name = kind == BFS_RMAT ? "bfs_rmat" : "bfs";

  BenchRng rng;
  bench_rng_seed(&rng, r->seed);
  int grc = kind == BFS_RMAT ? bfs_gen_rmat(&g, size_param, &rng) : bfs_gen_uniform(&g, size_param, &rng);
  if (grc != 0) {
    fprintf(r->log, "%s: out of host memory\n", name);
    return BENCH_ERROR;
  }
  int n = g.n;
  cost = malloc(sizeof(int32_t) * (size_t)n);
  want = malloc(sizeof(int32_t) * (size_t)n);
  mask = calloc((size_t)n, 1);
  if (!cost || !want || !mask || bfs_cpu(&g, want) != 0) {
    fprintf(r->log, "%s: out of host memory\n", name);
    goto fail;
  }
  if (r->verbose > 0) {
    int maxdeg = 0, reached = 0, depth = 0;
    for (int v = 0; v < n; v++) {
      if (g.node[2 * v + 1] > maxdeg) maxdeg = g.node[2 * v + 1];
      if (want[v] >= 0) reached++;
      if (want[v] > depth) depth = want[v];
    }
    fprintf(r->log, "%s: %d nodes, %d directed edges, max degree %d; %d reached, depth %d\n", name, n, g.m,
            maxdeg, reached, depth);
  }

  if (bench_load_module(r, "bfs", "bfs.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_expand, mod, "bfs_expand"));
  BENCH_CK(r, ws_module_get_function(&k_advance, mod, "bfs_advance"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_node, sizeof(int32_t) * 2 * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_edge, sizeof(int32_t) * (size_t)(g.m ? g.m : 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_frontier, (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_updating, (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_visited, (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_cost, sizeof(int32_t) * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_again, 1));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_node, g.node, sizeof(int32_t) * 2 * (size_t)n));
  if (g.m) BENCH_CK(r, ws_memcpy_htod(r->ctx, d_edge, g.edge, sizeof(int32_t) * (size_t)g.m));
  mask[0] = 1; /* source: node 0 */
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_frontier, mask, (size_t)n));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_visited, mask, (size_t)n));
  BENCH_CK(r, ws_memset_d8(r->ctx, d_updating, 0, (size_t)n));
  for (int v = 0; v < n; v++) cost[v] = v == 0 ? 0 : -1;
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_cost, cost, sizeof(int32_t) * (size_t)n));

  unsigned grid = (unsigned)((n + BFS_BLOCK - 1) / BFS_BLOCK);
  void *expand_params[] = {&d_node, &d_edge, &d_frontier, &d_updating, &d_visited, &d_cost, &n};
  void *advance_params[] = {&d_frontier, &d_updating, &d_visited, &d_again, &n};
  int levels = 0;
  uint8_t again;
  do {
    if (levels > n) {
      fprintf(r->log, "%s: no convergence after %d levels\n", name, levels);
      status = BENCH_MISMATCH;
      goto fail;
    }
    BENCH_CK(r, ws_memset_d8(r->ctx, d_again, 0, 1));
    BENCH_CK(r, ws_launch_kernel(k_expand, grid, 1, 1, BFS_BLOCK, 1, 1, 0, expand_params));
    BENCH_CK(r, ws_launch_kernel(k_advance, grid, 1, 1, BFS_BLOCK, 1, 1, 0, advance_params));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, &again, d_again, 1));
    levels++;
  } while (again);
  if (r->verbose > 0)
    fprintf(r->log, "%s: %d levels, %u CTAs of %d threads per kernel\n", name, levels, grid, BFS_BLOCK);

  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, cost, d_cost, sizeof(int32_t) * (size_t)n));
  status = bench_check_i32(r, "cost", cost, want, (size_t)n) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_node) ws_mem_free(r->ctx, d_node);
  if (d_edge) ws_mem_free(r->ctx, d_edge);
  if (d_frontier) ws_mem_free(r->ctx, d_frontier);
  if (d_updating) ws_mem_free(r->ctx, d_updating);
  if (d_visited) ws_mem_free(r->ctx, d_visited);
  if (d_cost) ws_mem_free(r->ctx, d_cost);
  if (d_again) ws_mem_free(r->ctx, d_again);
  if (mod) ws_module_unload(mod);
  free(cost);
  free(want);
  free(mask);
  bfs_graph_free(&g);
  return status;
}

/* Nodes of the uniform graph per size; R-MAT scale (log2 nodes) per size. */
static const int bfs_uniform_nodes[BENCH_NSIZES] = {8192, 65536, 1048576};
static const int bfs_rmat_scale[BENCH_NSIZES] = {13, 16, 20};

static int bfs_run_uniform(BenchRun *r) { return bfs_run_graph(r, BFS_UNIFORM, bfs_uniform_nodes[r->size]); }
static int bfs_run_rmat(BenchRun *r) { return bfs_run_graph(r, BFS_RMAT, bfs_rmat_scale[r->size]); }

const BenchDesc bench_desc_bfs = {
    .name = "bfs",
    .summary = "Rodinia-style level-synchronous BFS, uniform random graph: divergent, irregular gathers",
    .papers = "CAWA, CCWS, iWarp, bypass",
    .suite = "I",
    .sizes = {"8192 nodes, 2-4 undirected edges each", "65536 nodes (Rodinia graph65536)",
              "1048576 nodes (Rodinia graph1MW)"},
    .run = bfs_run_uniform,
};

const BenchDesc bench_desc_bfs_rmat = {
    .name = "bfs_rmat",
    .summary = "Rodinia-style BFS on a skewed R-MAT graph: per-warp load imbalance from hub nodes",
    .papers = "CAWA, CCWS",
    .suite = "I",
    .sizes = {"R-MAT scale 13 (8192 nodes, 32K edges)", "R-MAT scale 16 (65536 nodes, 256K edges)",
              "R-MAT scale 20 (1M nodes, 4M edges)"},
    .run = bfs_run_rmat,
};
