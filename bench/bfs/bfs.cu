/* bfs.cu - level-synchronous breadth-first search in the style of Rodinia's
 * bfs: one thread per node, 512 threads per CTA, two kernels per level over
 * byte-sized frontier/updating/visited masks and a CSR-like node array. */

struct BfsNode {
  int first; /* index of the node's first edge in the edge array */
  int count; /* number of edges */
};

/* Expands the frontier: every frontier node clears its mask bit, walks its
 * edge list and marks each unvisited neighbour for the next level. */
extern "C" __global__ void bfs_expand(const BfsNode *nodes, const int *edges, bool *frontier,
                                      bool *updating, const bool *visited, int *cost, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && frontier[tid]) {
    frontier[tid] = false;
    int end = nodes[tid].first + nodes[tid].count;
    for (int e = nodes[tid].first; e < end; e++) {
      int id = edges[e];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        updating[id] = true;
      }
    }
  }
}

/* Moves the updating mask into the frontier, marks those nodes visited and
 * raises the "continue" flag when the next level is not empty. */
extern "C" __global__ void bfs_advance(bool *frontier, bool *updating, bool *visited, bool *again,
                                       int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && updating[tid]) {
    frontier[tid] = true;
    visited[tid] = true;
    *again = true;
    updating[tid] = false;
  }
}
