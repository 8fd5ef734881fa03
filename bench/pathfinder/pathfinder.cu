// pathfinder.cu - pyramid dynamic programming over a rows x cols grid of
// weights (the Rodinia pathfinder algorithm): cost[r][x] = wall[r][x] +
// min(cost[r-1][x-1], cost[r-1][x], cost[r-1][x+1]). Each 256-thread CTA loads
// 256 columns of the previous row into shared memory and advances `iters` rows
// with a barrier per row; its valid region shrinks by one column (the halo) on
// each side per row, so it finalises 256 - 2*iters columns per launch.
#define PF_BLOCK 256
#define PF_HALO 1

extern "C" __global__ void pathfinder_step(int iters, const int *wall,
                                           const int *src, int *dst, int cols,
                                           int rows, int start_row, int border) {
  __shared__ int prev[PF_BLOCK];
  __shared__ int cur[PF_BLOCK];
  int tx = threadIdx.x;
  int out_cols = PF_BLOCK - 2 * iters * PF_HALO;
  int x0 = out_cols * (int)blockIdx.x - border; // grid column of thread 0
  int x = x0 + tx;
  // Thread range holding real columns (the grid edges clip the block).
  int lo = x0 < 0 ? -x0 : 0;
  int hi = x0 + PF_BLOCK > cols ? cols - 1 - x0 : PF_BLOCK - 1;
  bool valid = tx >= lo && tx <= hi;

  if (valid) prev[tx] = src[x];
  __syncthreads();

  bool computed = false;
  for (int i = 0; i < iters; i++) {
    computed = false;
    if (tx >= i + 1 && tx <= PF_BLOCK - 2 - i && valid) {
      computed = true;
      int left = prev[tx - 1 < lo ? lo : tx - 1];
      int up = prev[tx];
      int right = prev[tx + 1 > hi ? hi : tx + 1];
      int best = left < up ? left : up;
      best = best < right ? best : right;
      cur[tx] = best + wall[cols * (start_row + i) + x];
    }
    __syncthreads();
    if (i == iters - 1) break;
    if (computed) prev[tx] = cur[tx];
    __syncthreads();
  }
  if (computed) dst[x] = cur[tx];
}
