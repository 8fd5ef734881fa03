/* kmeans.cu - assignment step of k-means (Rodinia kmeansPoint algorithm) with
 * a POINT-MAJOR feature layout: thread p streams its own row
 * features[p * nfeatures + f] once per cluster (intra-thread reuse, 32
 * different lines per warp load), centroids in global memory. */

#include <float.h>

extern "C" __global__ void kmeans_assign(const float *features, const float *clusters,
                                         int *membership, int npoints, int nclusters,
                                         int nfeatures) {
  int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point < npoints) {
    int index = 0;
    float min_dist = FLT_MAX;
    for (int c = 0; c < nclusters; c++) {
      float dist = 0.0f;
      for (int f = 0; f < nfeatures; f++) {
        float d = features[point * nfeatures + f] - clusters[c * nfeatures + f];
        dist += d * d;
      }
      if (dist < min_dist) {
        min_dist = dist;
        index = c;
      }
    }
    membership[point] = index;
  }
}
