// btree.cu - B+tree queries of Rodinia's b+tree: findK (point lookups) and
// findRangeK (range lookups). One CTA per query, one thread per key slot of
// an order-256 node: at every level each thread tests whether the query falls
// between its key and the next one, the matching thread publishes the child
// and the CTA moves down after a barrier. Nodes are flattened records as in
// Rodinia's knode; the per-query node cursors are 64-bit.

#define BT_ORDER 256

typedef struct BtNode {
  int location;
  int indices[BT_ORDER + 1]; // child node (inner) or record (leaf) of each slot
  int keys[BT_ORDER + 1];    // slot i covers keys[i] <= key < keys[i+1]
  bool is_leaf;
  int num_keys;
} BtNode;

typedef struct BtRecord {
  int value;
} BtRecord;

extern "C" __global__ void btree_findK(long height, const BtNode *nodes, long nnodes, const BtRecord *records,
                                       long *cur_node, long *offset, const int *keys, BtRecord *ans) {
  int t = threadIdx.x;
  int q = blockIdx.x;
  for (int level = 0; level < height; level++) {
    if (nodes[cur_node[q]].keys[t] <= keys[q] && nodes[cur_node[q]].keys[t + 1] > keys[q]) {
      if (nodes[offset[q]].indices[t] < nnodes) offset[q] = nodes[offset[q]].indices[t];
    }
    __syncthreads();
    if (t == 0) cur_node[q] = offset[q];
    __syncthreads();
  }
  if (nodes[cur_node[q]].keys[t] == keys[q]) ans[q].value = records[nodes[cur_node[q]].indices[t]].value;
}

extern "C" __global__ void btree_findRangeK(long height, const BtNode *nodes, long nnodes, long *cur_node,
                                            long *offset, long *last_node, long *offset2, const int *start,
                                            const int *end, int *rec_start, int *rec_len) {
  int t = threadIdx.x;
  int q = blockIdx.x;
  for (int level = 0; level < height; level++) {
    if (nodes[cur_node[q]].keys[t] <= start[q] && nodes[cur_node[q]].keys[t + 1] > start[q]) {
      if (nodes[cur_node[q]].indices[t] < nnodes) offset[q] = nodes[cur_node[q]].indices[t];
    }
    if (nodes[last_node[q]].keys[t] <= end[q] && nodes[last_node[q]].keys[t + 1] > end[q]) {
      if (nodes[last_node[q]].indices[t] < nnodes) offset2[q] = nodes[last_node[q]].indices[t];
    }
    __syncthreads();
    if (t == 0) {
      cur_node[q] = offset[q];
      last_node[q] = offset2[q];
    }
    __syncthreads();
  }
  if (nodes[cur_node[q]].keys[t] == start[q]) rec_start[q] = nodes[cur_node[q]].indices[t];
  __syncthreads();
  if (nodes[last_node[q]].keys[t] == end[q]) rec_len[q] = nodes[last_node[q]].indices[t] - rec_start[q] + 1;
}
