/* sssp.cu - single-source shortest paths in the style of Harish and Narayanan
 * ("Accelerating large graph algorithms on the GPU using CUDA", HiPC 2007):
 * one thread per node, 512 threads per CTA, two kernels per iteration over a
 * byte-sized mask, the cost array and an updating-cost array, on a CSR graph
 * with integer edge weights. The relaxation uses atomicMin (the published
 * kernel's unsynchronised compare-and-store can lose an update). */

/* Relaxes the edges of every masked node: the node clears its mask byte and
 * lowers each neighbour's updating cost to cost[v] + weight. */
extern "C" __global__ void sssp_relax(const int *offset, const int *edges, const int *weights,
                                      bool *mask, const int *cost, int *updating, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && mask[tid]) {
    mask[tid] = false;
    int c = cost[tid];
    int end = offset[tid + 1];
    for (int e = offset[tid]; e < end; e++) atomicMin(&updating[edges[e]], c + weights[e]);
  }
}

/* Commits the updating costs: a node whose cost fell joins the mask and
 * raises the "continue" flag; updating is reset to the cost. */
extern "C" __global__ void sssp_update(bool *mask, int *cost, int *updating, bool *again, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    int u = updating[tid];
    if (cost[tid] > u) {
      cost[tid] = u;
      mask[tid] = true;
      *again = true;
    }
    updating[tid] = cost[tid];
  }
}
