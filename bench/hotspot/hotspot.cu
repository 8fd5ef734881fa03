// hotspot.cu - Rodinia-style HotSpot: transient thermal simulation of a chip on
// a rows x cols grid. One CTA owns a 16 x 16 shared-memory tile that overlaps
// its neighbours by `pyramid` cells on each side; it loads temperature and
// power once, then advances `steps` (<= pyramid) time steps in shared memory,
// the valid region shrinking by one ring per step (the "pyramid"), with two
// barriers per step, and writes only the inner (16 - 2 * pyramid)^2 cells.
// As in the original, the 2.0 constants make part of the arithmetic double.
#define HS_TILE 16

extern "C" __global__ void hotspot_step(int steps, const float *__restrict__ power,
                                        const float *__restrict__ t_in, float *__restrict__ t_out,
                                        int cols, int rows, int halo_x, int halo_y, float cap,
                                        float rx, float ry, float rz, float dt)
{
  __shared__ float t_sh[HS_TILE][HS_TILE];
  __shared__ float p_sh[HS_TILE][HS_TILE];
  __shared__ float t_next[HS_TILE][HS_TILE];
  const float ambient = 80.0f;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const float k_dt = dt / cap, inv_rx = 1.0f / rx, inv_ry = 1.0f / ry, inv_rz = 1.0f / rz;

  // The tile's first cell in the grid: each CTA advances by the inner width.
  const int inner = HS_TILE - 2 * steps;
  const int y0 = inner * (int)blockIdx.y - halo_y;
  const int x0 = inner * (int)blockIdx.x - halo_x;
  const int gy = y0 + ty, gx = x0 + tx;
  const int g = gy * cols + gx;
  if (gy >= 0 && gy < rows && gx >= 0 && gx < cols) {
    t_sh[ty][tx] = t_in[g];
    p_sh[ty][tx] = power[g];
  }
  __syncthreads();

  // Part of the tile inside the grid; neighbours clamp to it (the chip's edge).
  const int lo_y = y0 < 0 ? -y0 : 0;
  const int hi_y = y0 + HS_TILE - 1 > rows - 1 ? rows - 1 - y0 : HS_TILE - 1;
  const int lo_x = x0 < 0 ? -x0 : 0;
  const int hi_x = x0 + HS_TILE - 1 > cols - 1 ? cols - 1 - x0 : HS_TILE - 1;
  const int yn = ty - 1 < lo_y ? lo_y : ty - 1, ys = ty + 1 > hi_y ? hi_y : ty + 1;
  const int xw = tx - 1 < lo_x ? lo_x : tx - 1, xe = tx + 1 > hi_x ? hi_x : tx + 1;

  bool done = false;
  for (int s = 0; s < steps; s++) {
    // Ring s of the tile is stale after step s: only cells deeper inside advance.
    done = tx > s && tx < HS_TILE - 1 - s && ty > s && ty < HS_TILE - 1 - s && tx >= lo_x &&
           tx <= hi_x && ty >= lo_y && ty <= hi_y;
    if (done) {
      const float tc = t_sh[ty][tx];
      t_next[ty][tx] = tc + k_dt * (p_sh[ty][tx] + (t_sh[ys][tx] + t_sh[yn][tx] - 2.0 * tc) * inv_ry +
                                    (t_sh[ty][xe] + t_sh[ty][xw] - 2.0 * tc) * inv_rx +
                                    (ambient - tc) * inv_rz);
    }
    __syncthreads();
    if (s == steps - 1) break;
    if (done) t_sh[ty][tx] = t_next[ty][tx];
    __syncthreads();
  }
  if (done) t_out[g] = t_next[ty][tx];
}
