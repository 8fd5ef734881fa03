// streamcluster.cu - the pgain kernel of streamcluster (Rodinia's online
// k-median clustering): each thread takes one point, computes the weighted
// cost of serving it from candidate facility x and records in its own row of
// work_mem either the saving (column K: reassign to x) or the extra cost
// charged to its current center (column center_table[assign]).
// Points are dimension-major (coord[d*num + i]); the per-point records are an
// array of structs as in the original (weight, coordinate pointer, 64-bit
// assignment, cost), so the record loads are strided.

typedef struct ScPoint {
  float weight;
  float *coord; // host pointer in the original; unused on the device
  long assign;  // index of the point's current center
  float cost;   // weighted distance to that center
} ScPoint;

extern "C" __global__ void streamcluster_pgain(int num, int dim, long x, const ScPoint *p, int K,
                                               int stride, const float *coord, float *work_mem,
                                               const int *center_table, bool *switch_membership) {
  int bid = blockIdx.x + gridDim.x * blockIdx.y;
  int tid = blockDim.x * bid + threadIdx.x;
  if (tid < num) {
    float *lower = &work_mem[tid * stride];
    float d = 0.0f;
    for (int i = 0; i < dim; i++) {
      float t = coord[i * num + tid] - coord[i * num + (int)x];
      d += t * t;
    }
    float x_cost = d * p[tid].weight;
    float cur = p[tid].cost;
    if (x_cost < cur) {
      // opening x saves cost for this point: it would switch to x
      switch_membership[tid] = 1;
      lower[K] += x_cost - cur;
    } else {
      // x is worse: closing this point's center would cost the difference
      lower[center_table[p[tid].assign]] += cur - x_cost;
    }
  }
}
