// backprop.cu - the two GPU kernels of one training step of a 3-layer
// perceptron (the Rodinia backprop algorithm): the input->hidden forward pass
// as per-CTA partial sums (16 input units x 16 hidden units per 16x16 CTA,
// shared-memory tiles, log-step reduction with a barrier per step) and the
// input->hidden weight update with momentum.
#define BP_TILE 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

// Weights are an (in+1) x (hid+1) row-major matrix; row 0 and column 0 are the
// bias entries. CTA (0, by) handles input units 16*by+1 .. 16*by+16.
extern "C" __global__ void bpnn_layerforward(const float *input, float *weights, float *partial,
                                             int in, int hid) {
  __shared__ float unit[BP_TILE];
  __shared__ float prod[BP_TILE][BP_TILE];
  int tx = threadIdx.x, ty = threadIdx.y, by = blockIdx.y;
  int row = BP_TILE * by + ty + 1;
  int w = (hid + 1) * row + tx + 1;

  if (tx == 0) unit[ty] = input[row];
  __syncthreads();
  prod[ty][tx] = weights[w];
  __syncthreads();
  prod[ty][tx] = prod[ty][tx] * unit[ty];
  __syncthreads();
  // Tree reduction over the 16 input units (rows), one barrier per level.
  for (int half = 1; half < BP_TILE; half *= 2) {
    if (ty % (2 * half) == 0) prod[ty][tx] = prod[ty][tx] + prod[ty + half][tx];
    __syncthreads();
  }
  // As in the original, the tile is written back over the weight matrix (the
  // host uploads the weights again before the update kernel).
  weights[w] = prod[ty][tx];
  __syncthreads();
  if (tx == 0) partial[by * hid + ty] = prod[0][ty];
}

// w[row][j] += ETA * delta[j] * ly[row] + MOMENTUM * oldw[row][j]; oldw = that step.
extern "C" __global__ void bpnn_adjust_weights(const float *delta, int hid, const float *ly, int in,
                                               float *w, float *oldw) {
  int tx = threadIdx.x, ty = threadIdx.y, by = blockIdx.y;
  int row = BP_TILE * by + ty + 1;
  int j = tx + 1;
  int idx = (hid + 1) * row + j;

  float step = BP_ETA * delta[j] * ly[row] + BP_MOMENTUM * oldw[idx];
  w[idx] += step;
  oldw[idx] = step;
  __syncthreads();
  // The bias row (input unit 0, whose output is 1) is updated by the first CTA row.
  if (ty == 0 && by == 0) {
    float bstep = BP_ETA * delta[j] + BP_MOMENTUM * oldw[j];
    w[j] += bstep;
    oldw[j] = bstep;
  }
}
