// heartwall.cu - heart wall tracking (Rodinia's heartwall): one CTA per
// tracked point of the inner (endo) and outer (epi) heart wall, 256 threads,
// one launch per video frame. Frame 0 cuts the templates; every later frame
// correlates the point's template with a search window around it (full 2-D
// convolution with the rotated template), normalises it with box sums built
// from padded cumulative sums (for the window and its square), restricts the
// peak search to maxMove around the last position and records the new one.
// Every 10th frame the point moves and its template is blended with the frame.
// Each phase is a CTA-strided loop over an array in global memory followed by
// a barrier. Parameters, the frame pointer and the per-point buffer pointers
// live in __constant__ memory, set by the host.

#define HW_THREADS 256
#define HW_MAX_POINTS 51
#define HW_MAX_IN_ROWS 51    // 2*tSize+1 with tSize <= 25
#define HW_MAX_CONV_ROWS 131 // in_rows + in2_rows - 1 with sSize <= 40

typedef struct HwParams {
  int tsize, ssize, maxmove;
  float alpha;
  int frame_rows, frame_cols, no_frames, all_points;
  int in_rows, in_elem;     // template: in_rows x in_rows
  int in2_rows, in2_elem;   // search window: in2_rows x in2_rows
  int conv_rows, conv_elem; // correlation: conv_rows x conv_rows
  int pad_rows, pad_elem;   // zero-padded window: in2_rows + 2*in_rows square
  int sel_elem;             // conv_rows x pad_rows (after the vertical box sum)
  int mask_rows;            // maxMove x maxMove search mask
  int mask_off;             // offset of the mask centre (rounded up)
} HwParams;

typedef struct HwFrame {
  const float *frame; // frame_rows x frame_cols, column-major
  int frame_no;
} HwFrame;

typedef struct HwPoint {
  int *row, *col;   // current position of the point (endo or epi array)
  int *trow, *tcol; // tracked position per frame: [point_no*no_frames + frame]
  int point_no;
  float *tmpl;      // template, in_rows x in_rows
  float *in2;       // search window
  float *in_mod;    // template rotated by 180 degrees
  float *conv;      // correlation, then numerator
  float *pad;       // padded window (or its square) with vertical cumulative sums
  float *pad_sel;   // lower rows of pad, then horizontal cumulative sums
  float *pad_sel2;  // upper rows of pad
  float *sub_sel;   // right columns
  float *sub2;      // box sums of the window
  float *in2_sqr;   // window squared
  float *sqr_sub2;  // box sums of the squares, then denominator, then correlation
  float *in_sqr;    // template squared
  float *tmask;     // one at the last position
  float *mask_conv; // correlation restricted to the search mask
} HwPoint;

__constant__ HwParams hw_params;
__constant__ HwFrame hw_frame;
__constant__ HwPoint hw_points[HW_MAX_POINTS];

// Zero-pads src (rows x rows) into the pad array and takes column-wise
// cumulative sums, then box-sums over in_rows rows and over in_cols columns:
// out[c*conv_rows + r] = sum of src over the template-sized window whose
// lower-right corner is (r, c) in correlation coordinates.
__device__ void hw_box_sums(const HwPoint *pt, const float *src, float *out) {
  const HwParams &p = hw_params;
  int tx = threadIdx.x;
  // pad
  for (int ei = tx; ei < p.pad_elem; ei += HW_THREADS) {
    int row = ei % p.pad_rows, col = ei / p.pad_rows;
    int r = row - p.in_rows, c = col - p.in_rows;
    if (r >= 0 && r < p.in2_rows && c >= 0 && c < p.in2_rows)
      pt->pad[ei] = src[c * p.in2_rows + r];
    else
      pt->pad[ei] = 0.0f;
  }
  __syncthreads();
  // vertical cumulative sums, one column per thread
  for (int col = tx; col < p.pad_rows; col += HW_THREADS) {
    float sum = 0.0f;
    for (int pos = col * p.pad_rows; pos < (col + 1) * p.pad_rows; pos++) {
      pt->pad[pos] = pt->pad[pos] + sum;
      sum = pt->pad[pos];
    }
  }
  __syncthreads();
  // select rows in_rows .. pad_rows-2 (all columns)
  for (int ei = tx; ei < p.sel_elem; ei += HW_THREADS) {
    int row = ei % p.conv_rows, col = ei / p.conv_rows;
    pt->pad_sel[ei] = pt->pad[col * p.pad_rows + row + p.in_rows];
  }
  __syncthreads();
  // select rows 0 .. conv_rows-1
  for (int ei = tx; ei < p.sel_elem; ei += HW_THREADS) {
    int row = ei % p.conv_rows, col = ei / p.conv_rows;
    pt->pad_sel2[ei] = pt->pad[col * p.pad_rows + row];
  }
  __syncthreads();
  // vertical box sums
  for (int ei = tx; ei < p.sel_elem; ei += HW_THREADS) pt->pad_sel2[ei] = pt->pad_sel[ei] - pt->pad_sel2[ei];
  __syncthreads();
  // horizontal cumulative sums, one row per thread
  for (int row = tx; row < p.conv_rows; row += HW_THREADS) {
    float sum = 0.0f;
    for (int pos = row; pos < p.sel_elem; pos += p.conv_rows) {
      pt->pad_sel2[pos] = pt->pad_sel2[pos] + sum;
      sum = pt->pad_sel2[pos];
    }
  }
  __syncthreads();
  // select columns in_rows .. pad_rows-2
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) {
    int row = ei % p.conv_rows, col = ei / p.conv_rows;
    pt->sub_sel[ei] = pt->pad_sel2[(col + p.in_rows) * p.conv_rows + row];
  }
  __syncthreads();
  // select columns 0 .. conv_rows-1
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) out[ei] = pt->pad_sel2[ei];
  __syncthreads();
  // horizontal box sums
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) out[ei] = pt->sub_sel[ei] - out[ei];
  __syncthreads();
}

extern "C" __global__ void heartwall_kernel() {
  __shared__ float in_partial_sum[HW_MAX_IN_ROWS];
  __shared__ float in_sqr_partial_sum[HW_MAX_IN_ROWS];
  __shared__ float in_final_sum, in_sqr_final_sum, denom_t;
  __shared__ float par_max_val[HW_MAX_CONV_ROWS];
  __shared__ int par_max_coo[HW_MAX_CONV_ROWS];

  const HwParams &p = hw_params;
  const HwPoint *pt = &hw_points[blockIdx.x];
  const float *frame = hw_frame.frame;
  int frame_no = hw_frame.frame_no;
  int tx = threadIdx.x;
  int prow = pt->row[pt->point_no], pcol = pt->col[pt->point_no];
  int loc = pt->point_no * p.no_frames + frame_no;

  if (frame_no == 0) {
    // the point's position is its tracked position in frame 0; cut the template
    if (tx == 0) {
      pt->trow[loc] = prow;
      pt->tcol[loc] = pcol;
    }
    for (int ei = tx; ei < p.in_elem; ei += HW_THREADS) {
      int row = ei % p.in_rows, col = ei / p.in_rows;
      int fr = prow - p.tsize + row, fc = pcol - p.tsize + col;
      pt->tmpl[ei] = frame[fc * p.frame_rows + fr];
    }
    __syncthreads();
    return;
  }

  // ---- search window around the point ----
  for (int ei = tx; ei < p.in2_elem; ei += HW_THREADS) {
    int row = ei % p.in2_rows, col = ei / p.in2_rows;
    int fr = prow - p.ssize + row, fc = pcol - p.ssize + col;
    pt->in2[ei] = frame[fc * p.frame_rows + fr];
  }
  __syncthreads();

  // ---- rotate the template ----
  for (int ei = tx; ei < p.in_elem; ei += HW_THREADS) {
    int row = ei % p.in_rows, col = ei / p.in_rows;
    pt->in_mod[ei] = pt->tmpl[(p.in_rows - 1 - col) * p.in_rows + (p.in_rows - 1 - row)];
  }
  __syncthreads();

  // ---- full convolution of the window with the rotated template ----
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) {
    int ic = ei % p.conv_rows, jc = ei / p.conv_rows;
    int a_lo = ic - (p.in2_rows - 1), a_hi = ic;
    int b_lo = jc - (p.in2_rows - 1), b_hi = jc;
    if (a_lo < 0) a_lo = 0;
    if (a_hi > p.in_rows - 1) a_hi = p.in_rows - 1;
    if (b_lo < 0) b_lo = 0;
    if (b_hi > p.in_rows - 1) b_hi = p.in_rows - 1;
    float s = 0.0f;
    for (int b = b_lo; b <= b_hi; b++)
      for (int a = a_lo; a <= a_hi; a++)
        s = s + pt->in_mod[b * p.in_rows + a] * pt->in2[(jc - b) * p.in2_rows + (ic - a)];
    pt->conv[ei] = s;
  }
  __syncthreads();

  // ---- local sums of the window and of its square ----
  hw_box_sums(pt, pt->in2, pt->sub2);
  for (int ei = tx; ei < p.in2_elem; ei += HW_THREADS) {
    float v = pt->in2[ei];
    pt->in2_sqr[ei] = v * v;
  }
  __syncthreads();
  hw_box_sums(pt, pt->in2_sqr, pt->sqr_sub2);

  // ---- denominator of the window part ----
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) {
    float s = pt->sub2[ei];
    float v = pt->sqr_sub2[ei] - (s * s / p.in_elem);
    if (v < 0.0f) v = 0.0f;
    pt->sqr_sub2[ei] = sqrtf(v);
  }
  __syncthreads();

  // ---- template statistics ----
  for (int ei = tx; ei < p.in_elem; ei += HW_THREADS) {
    float v = pt->tmpl[ei];
    pt->in_sqr[ei] = v * v;
  }
  __syncthreads();
  for (int col = tx; col < p.in_rows; col += HW_THREADS) {
    float sum = 0.0f;
    for (int i = 0; i < p.in_rows; i++) sum = sum + pt->tmpl[col * p.in_rows + i];
    in_partial_sum[col] = sum;
  }
  __syncthreads();
  for (int row = tx; row < p.in_rows; row += HW_THREADS) {
    float sum = 0.0f;
    for (int i = 0; i < p.in_rows; i++) sum = sum + pt->in_sqr[row + p.in_rows * i];
    in_sqr_partial_sum[row] = sum;
  }
  __syncthreads();
  if (tx == 0) {
    float sum = 0.0f;
    for (int i = 0; i < p.in_rows; i++) sum = sum + in_partial_sum[i];
    in_final_sum = sum;
  } else if (tx == 1) {
    float sum = 0.0f;
    for (int i = 0; i < p.in_rows; i++) sum = sum + in_sqr_partial_sum[i];
    in_sqr_final_sum = sum;
  }
  __syncthreads();
  if (tx == 0) {
    float mean = in_final_sum / p.in_elem;
    float variance = (in_sqr_final_sum / p.in_elem) - mean * mean;
    denom_t = sqrtf((float)(p.in_elem - 1)) * sqrtf(variance);
  }
  __syncthreads();

  // ---- full denominator, numerator, normalised correlation ----
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) pt->sqr_sub2[ei] = pt->sqr_sub2[ei] * denom_t;
  __syncthreads();
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS)
    pt->conv[ei] = pt->conv[ei] - pt->sub2[ei] * in_final_sum / p.in_elem;
  __syncthreads();
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) pt->sqr_sub2[ei] = pt->conv[ei] / pt->sqr_sub2[ei];
  __syncthreads();

  // ---- mask at the previous position ----
  int cent = p.ssize + p.tsize;
  int mrow = cent + pt->trow[loc - 1] - prow, mcol = cent + pt->tcol[loc - 1] - pcol;
  int mloc = mcol * p.conv_rows + mrow;
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) pt->tmask[ei] = ei == mloc ? 1.0f : 0.0f;
  __syncthreads();

  // ---- correlation restricted to a maxMove x maxMove box around it ----
  for (int ei = tx; ei < p.conv_elem; ei += HW_THREADS) {
    int ic = ei % p.conv_rows, jc = ei / p.conv_rows;
    int a_lo = ic + p.mask_off - (p.mask_rows - 1), a_hi = ic + p.mask_off;
    int b_lo = jc + p.mask_off - (p.mask_rows - 1), b_hi = jc + p.mask_off;
    if (a_lo < 0) a_lo = 0;
    if (a_hi > p.conv_rows - 1) a_hi = p.conv_rows - 1;
    if (b_lo < 0) b_lo = 0;
    if (b_hi > p.conv_rows - 1) b_hi = p.conv_rows - 1;
    float s = 0.0f;
    for (int b = b_lo; b <= b_hi; b++)
      for (int a = a_lo; a <= a_hi; a++) s = s + pt->tmask[b * p.conv_rows + a];
    pt->mask_conv[ei] = pt->sqr_sub2[ei] * s;
  }
  __syncthreads();

  // ---- peak: per-column maxima, then the overall one ----
  for (int col = tx; col < p.conv_rows; col += HW_THREADS) {
    float best = 0.0f;
    int best_at = 0;
    for (int i = 0; i < p.conv_rows; i++) {
      int at = col * p.conv_rows + i;
      float v = fabsf(pt->mask_conv[at]);
      if (v > best) {
        best = v;
        best_at = at;
      }
    }
    par_max_val[col] = best;
    par_max_coo[col] = best_at;
  }
  __syncthreads();
  if (tx == 0) {
    float best = 0.0f;
    int best_at = 0;
    for (int i = 0; i < p.conv_rows; i++) {
      if (par_max_val[i] > best) {
        best = par_max_val[i];
        best_at = par_max_coo[i];
      }
    }
    int brow = best_at % p.conv_rows, bcol = best_at / p.conv_rows;
    pt->trow[loc] = prow + brow - cent;
    pt->tcol[loc] = pcol + bcol - cent;
  }
  __syncthreads();

  // ---- every 10th frame: move the point and refresh its template ----
  if (frame_no % 10 == 0) {
    int nrow = pt->trow[loc], ncol = pt->tcol[loc];
    __syncthreads();
    if (tx == 0) {
      pt->row[pt->point_no] = nrow;
      pt->col[pt->point_no] = ncol;
    }
    for (int ei = tx; ei < p.in_elem; ei += HW_THREADS) {
      int row = ei % p.in_rows, col = ei / p.in_rows;
      int fr = nrow - p.tsize + row, fc = ncol - p.tsize + col;
      pt->tmpl[ei] = p.alpha * pt->tmpl[ei] + (1.0f - p.alpha) * frame[fc * p.frame_rows + fr];
    }
    __syncthreads();
  }
}
