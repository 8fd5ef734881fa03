// srad_v2.cu - Rodinia-style SRAD v2 on 16 x 16 tiles: srad_v2_1 computes the
// derivatives and diffusion coefficient from the tile and its halo rows and
// columns (six shared arrays), srad_v2_2 the divergence and image update (five
// shared arrays); a barrier after each staging step. As in the original, the
// double constants make part of the arithmetic double precision.
#define SR_BS 16

extern "C" __global__ void srad_v2_1(float *__restrict__ e_c, float *__restrict__ w_c, float *__restrict__ n_c,
                                     float *__restrict__ s_c, const float *__restrict__ j_img,
                                     float *__restrict__ c_img, int cols, int rows, float q0sqr)
{
  __shared__ float tile[SR_BS][SR_BS];
  __shared__ float result[SR_BS][SR_BS];
  __shared__ float north[SR_BS][SR_BS];
  __shared__ float south[SR_BS][SR_BS];
  __shared__ float east[SR_BS][SR_BS];
  __shared__ float west[SR_BS][SR_BS];
  const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int corner = cols * SR_BS * by + SR_BS * bx; // top-left pixel of the tile
  const int index = corner + cols * ty + tx;

  // Row above and row below the tile (clamped to the tile's own edge row at
  // the image border); every thread row loads them, as the original does.
  north[ty][tx] = by == 0 ? j_img[corner + tx] : j_img[corner - cols + tx];
  south[ty][tx] = by == gridDim.y - 1 ? j_img[corner + cols * (SR_BS - 1) + tx]
                                      : j_img[corner + cols * SR_BS + tx];
  __syncthreads();
  // Column left and column right of the tile.
  west[ty][tx] = bx == 0 ? j_img[corner + cols * ty] : j_img[corner + cols * ty - 1];
  east[ty][tx] = bx == gridDim.x - 1 ? j_img[corner + cols * ty + SR_BS - 1]
                                     : j_img[corner + cols * ty + SR_BS];
  __syncthreads();
  tile[ty][tx] = j_img[index];
  __syncthreads();

  const float jc = tile[ty][tx];
  const float n = (ty == 0 ? north[ty][tx] : tile[ty - 1][tx]) - jc;
  const float s = (ty == SR_BS - 1 ? south[ty][tx] : tile[ty + 1][tx]) - jc;
  const float w = (tx == 0 ? west[ty][tx] : tile[ty][tx - 1]) - jc;
  const float e = (tx == SR_BS - 1 ? east[ty][tx] : tile[ty][tx + 1]) - jc;

  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
  float den = 1 + (.25 * l);
  const float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
  const float c = 1.0 / (1.0 + den);
  result[ty][tx] = c < 0 ? 0.0f : (c > 1 ? 1.0f : c);
  __syncthreads();

  c_img[index] = result[ty][tx];
  e_c[index] = e;
  w_c[index] = w;
  s_c[index] = s;
  n_c[index] = n;
}

extern "C" __global__ void srad_v2_2(const float *__restrict__ e_c, const float *__restrict__ w_c,
                                     const float *__restrict__ n_c, const float *__restrict__ s_c,
                                     float *__restrict__ j_img, const float *__restrict__ c_img, int cols,
                                     int rows, float lambda, float q0sqr)
{
  __shared__ float south_c[SR_BS][SR_BS];
  __shared__ float east_c[SR_BS][SR_BS];
  __shared__ float c_tile[SR_BS][SR_BS];
  __shared__ float result[SR_BS][SR_BS];
  __shared__ float tile[SR_BS][SR_BS];
  const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int corner = cols * SR_BS * by + SR_BS * bx;
  const int index = corner + cols * ty + tx;

  tile[ty][tx] = j_img[index];
  __syncthreads();
  south_c[ty][tx] = by == gridDim.y - 1 ? c_img[corner + cols * (SR_BS - 1) + tx]
                                        : c_img[corner + cols * SR_BS + tx];
  __syncthreads();
  east_c[ty][tx] = bx == gridDim.x - 1 ? c_img[corner + cols * ty + SR_BS - 1]
                                       : c_img[corner + cols * ty + SR_BS];
  __syncthreads();
  c_tile[ty][tx] = c_img[index];
  __syncthreads();

  const float cc = c_tile[ty][tx];
  const float cs = ty == SR_BS - 1 ? south_c[ty][tx] : c_tile[ty + 1][tx];
  const float ce = tx == SR_BS - 1 ? east_c[ty][tx] : c_tile[ty][tx + 1];
  const float cn = cc, cw = cc; // v2 uses the pixel's own coefficient north and west
  const float d_sum = cn * n_c[index] + cs * s_c[index] + cw * w_c[index] + ce * e_c[index];
  result[ty][tx] = tile[ty][tx] + 0.25 * lambda * d_sum;
  __syncthreads();
  j_img[index] = result[ty][tx];
}
