// needle.cu - Needleman-Wunsch global alignment scores (Rodinia "nw" algorithm).
// The (n+1)x(n+1) score matrix is processed in 16x16 tiles along anti-diagonals
// of tiles: needle_ul covers the upper-left triangle of tiles, needle_lr the
// lower-right one. One 16-thread CTA per tile; inside a tile the cells are
// swept along anti-diagonals in shared memory with a barrier per step.

#define NW_BS 16

__device__ __forceinline__ int needle_max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

// Computes tile (tile_row, tile_col): its cells are rows/columns
// 1 + 16*tile_row .. 16 + 16*tile_row (resp. col) of the score matrix.
__device__ __forceinline__ void needle_tile(const int *ref, int *score, int cols, int penalty,
                                            int tile_row, int tile_col) {
  __shared__ int s_score[NW_BS + 1][NW_BS + 1];
  __shared__ int s_ref[NW_BS][NW_BS];
  int tx = threadIdx.x;
  int corner = cols * NW_BS * tile_row + NW_BS * tile_col; // north-west neighbour of the tile
  int cell = corner + cols + 1 + tx;                      // first row of the tile, column tx

  // Substitution scores of the tile, one column per thread (coalesced rows).
  for (int r = 0; r < NW_BS; r++) s_ref[r][tx] = ref[cell + cols * r];
  __syncthreads();

  // Borders: the row above and the column left of the tile.
  if (tx == 0) s_score[0][0] = score[corner];
  s_score[tx + 1][0] = score[corner + cols * (tx + 1)];
  s_score[0][tx + 1] = score[corner + tx + 1];
  __syncthreads();

  // Upper-left half of the tile: anti-diagonals 0..15.
  for (int d = 0; d < NW_BS; d++) {
    if (tx <= d) {
      int x = tx + 1, y = d - tx + 1;
      s_score[y][x] = needle_max3(s_score[y - 1][x - 1] + s_ref[y - 1][x - 1],
                                  s_score[y][x - 1] - penalty, s_score[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  // Lower-right half: anti-diagonals 16..30.
  for (int d = NW_BS - 2; d >= 0; d--) {
    if (tx <= d) {
      int x = tx + NW_BS - d, y = NW_BS - tx;
      s_score[y][x] = needle_max3(s_score[y - 1][x - 1] + s_ref[y - 1][x - 1],
                                  s_score[y][x - 1] - penalty, s_score[y - 1][x] - penalty);
    }
    __syncthreads();
  }

  for (int r = 0; r < NW_BS; r++) score[cell + cols * r] = s_score[r + 1][tx + 1];
}

// Tile anti-diagonal `diag` (1..tiles) of the upper-left triangle: CTA b
// takes tile (diag-1-b, b).
extern "C" __global__ void needle_ul(const int *ref, int *score, int cols, int penalty, int diag,
                                     int tiles) {
  int b = blockIdx.x;
  needle_tile(ref, score, cols, penalty, diag - 1 - b, b);
}

// Tile anti-diagonal of the lower-right triangle holding `diag` tiles
// (tiles-1 down to 1): CTA b takes tile (tiles-1-b, b+tiles-diag).
extern "C" __global__ void needle_lr(const int *ref, int *score, int cols, int penalty, int diag,
                                     int tiles) {
  int b = blockIdx.x;
  needle_tile(ref, score, cols, penalty, tiles - 1 - b, b + tiles - diag);
}
