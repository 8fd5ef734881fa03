/* octree.cu - octree partitioning of particles with a global task queue
 * (Cederman & Tsigas style load balancing), one launch per tree level.
 * Each CTA (128 threads) repeatedly pops a node of the current level from the
 * input queue with a global atomicAdd, counts the node's particles per octant
 * with shared-memory atomics, creates the eight children (node slots, queue
 * slots and leaf slots reserved with global atomicAdd), and scatters the
 * particles into the children's ranges through shared atomic cursors; a node
 * with more than max_leaf particles goes to the next level's queue, smaller
 * ones become leaves whose particles land in their final place in `out`.
 * Barriers separate pop / count / plan / scatter; CTAs never wait on each
 * other. */

/* ctr[]: 0 input queue head, 1 output queue tail, 2 node count, 3 leaf count */
enum { OCTREE_HEAD = 0, OCTREE_TAIL = 1, OCTREE_NODES = 2, OCTREE_LEAVES = 3 };

extern "C" __global__ void octree_level(const int *__restrict__ in_queue, int n_in, int *__restrict__ out_queue,
                                        float4 *__restrict__ node_geom, int4 *__restrict__ node_info,
                                        int *__restrict__ leaves, const float4 *__restrict__ src,
                                        float4 *__restrict__ dst, float4 *__restrict__ out,
                                        int *__restrict__ ctr, int max_leaf, int max_level) {
  __shared__ int s_task;
  __shared__ int s_count[8];
  __shared__ int s_cursor[8];
  __shared__ int s_is_leaf[8];
  int tid = threadIdx.x;

  for (;;) {
    /* pop a task */
    if (tid == 0) {
      int slot = atomicAdd(&ctr[OCTREE_HEAD], 1);
      s_task = slot < n_in ? in_queue[slot] : -1;
    }
    if (tid < 8) s_count[tid] = 0;
    __syncthreads();
    int node = s_task;
    if (node < 0) break;
    float4 g = node_geom[node];
    int4 info = node_info[node];
    int start = info.x, end = info.x + info.y;

    /* count particles per octant */
    for (int p = start + tid; p < end; p += blockDim.x) {
      float4 q = src[p];
      int oct = (q.x >= g.x ? 1 : 0) | (q.y >= g.y ? 2 : 0) | (q.z >= g.z ? 4 : 0);
      atomicAdd(&s_count[oct], 1);
    }
    __syncthreads();

    /* plan: one thread per octant creates the child node */
    if (tid < 8) {
      int base = start;
      for (int o = 0; o < tid; o++) base += s_count[o];
      int cnt = s_count[tid];
      s_cursor[tid] = base;
      s_is_leaf[tid] = 0;
      if (cnt > 0) {
        float h = 0.5f * g.w;
        int child = atomicAdd(&ctr[OCTREE_NODES], 1);
        node_geom[child] = make_float4(g.x + ((tid & 1) ? h : -h), g.y + ((tid & 2) ? h : -h),
                                       g.z + ((tid & 4) ? h : -h), h);
        node_info[child] = make_int4(base, cnt, info.z + 1, node);
        if (cnt > max_leaf && info.z + 1 < max_level) {
          out_queue[atomicAdd(&ctr[OCTREE_TAIL], 1)] = child;
        } else {
          leaves[atomicAdd(&ctr[OCTREE_LEAVES], 1)] = child;
          s_is_leaf[tid] = 1;
        }
      }
    }
    __syncthreads();

    /* scatter into the children's ranges */
    for (int p = start + tid; p < end; p += blockDim.x) {
      float4 q = src[p];
      int oct = (q.x >= g.x ? 1 : 0) | (q.y >= g.y ? 2 : 0) | (q.z >= g.z ? 4 : 0);
      int pos = atomicAdd(&s_cursor[oct], 1);
      if (s_is_leaf[oct])
        out[pos] = q;
      else
        dst[pos] = q;
    }
    __syncthreads();
  }
}
