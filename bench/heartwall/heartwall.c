/* heartwall.c - host driver of the heartwall benchmark (Rodinia's heart wall
 * tracking): a seeded synthetic ultrasound-like video (speckle texture on a
 * bright myocardium ring that contracts and relaxes), points on the inner and
 * outer wall, one kernel launch per frame with one CTA per point. Parameters
 * and per-point buffer pointers go to __constant__ memory. The tracked
 * positions are checked against a CPU replay of the same pipeline (exact, or
 * a tie of the correlation peak), the last correlation maps and the refreshed
 * templates with a float tolerance. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define HW_THREADS 256
#define HW_MAX_POINTS 51
#define HW_ALPHA 0.87f

/* Device layouts of the kernel's HwParams, HwFrame and HwPoint. */
typedef struct HwParams {
  int32_t tsize, ssize, maxmove;
  float alpha;
  int32_t frame_rows, frame_cols, no_frames, all_points;
  int32_t in_rows, in_elem, in2_rows, in2_elem, conv_rows, conv_elem, pad_rows, pad_elem, sel_elem;
  int32_t mask_rows, mask_off;
} HwParams;
typedef struct HwFrame {
  uint64_t frame;
  int32_t frame_no, pad;
} HwFrame;
typedef struct HwPoint {
  uint64_t row, col, trow, tcol;
  int32_t point_no, pad0;
  uint64_t tmpl, in2, in_mod, conv, pad, pad_sel, pad_sel2, sub_sel, sub2, in2_sqr, sqr_sub2, in_sqr, tmask,
      mask_conv;
} HwPoint;

typedef struct HwConfig {
  int frame_rows, frame_cols, tsize, ssize, maxmove, endo, epi, frames;
} HwConfig;

static const HwConfig hw_cfg[BENCH_NSIZES] = {
    {128, 144, 3, 6, 4, 2, 2, 11},     /* 10 tracked frames: reaches the frame-10 template refresh */
    {656, 744, 10, 18, 10, 20, 31, 2}, /* Rodinia geometry, smaller template and window */
    {656, 744, 25, 40, 10, 20, 31, 2}, /* Rodinia's parameters (tSize 25, sSize 40, maxMove 10) */
};

static void hw_params_init(HwParams *p, const HwConfig *c) {
  memset(p, 0, sizeof *p);
  p->tsize = c->tsize;
  p->ssize = c->ssize;
  p->maxmove = c->maxmove;
  p->alpha = HW_ALPHA;
  p->frame_rows = c->frame_rows;
  p->frame_cols = c->frame_cols;
  p->no_frames = c->frames;
  p->all_points = c->endo + c->epi;
  p->in_rows = 2 * c->tsize + 1;
  p->in_elem = p->in_rows * p->in_rows;
  p->in2_rows = 2 * c->ssize + 1;
  p->in2_elem = p->in2_rows * p->in2_rows;
  p->conv_rows = p->in_rows + p->in2_rows - 1;
  p->conv_elem = p->conv_rows * p->conv_rows;
  p->pad_rows = p->in2_rows + 2 * p->in_rows;
  p->pad_elem = p->pad_rows * p->pad_rows;
  p->sel_elem = p->conv_rows * p->pad_rows;
  p->mask_rows = c->maxmove;
  p->mask_off = (c->maxmove - 1) / 2 + ((c->maxmove - 1) % 2 ? 1 : 0);
}

/* ---- synthetic video ---- */

typedef struct HwVideo {
  int rows, cols;
  float cr, cc;                       /* centre of the ventricle */
  float endo_r, endo_c, epi_r, epi_c; /* semi-axes of the walls (rows, columns) */
  float *speckle;                     /* static speckle amplitude, mean ~1 */
} HwVideo;

static int hw_video_init(HwVideo *v, int rows, int cols, BenchRng *rng) {
  size_t n = (size_t)rows * cols;
  float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n), *t = malloc(sizeof(float) * n);
  v->speckle = malloc(sizeof(float) * n);
  if (!a || !b || !t || !v->speckle) {
    free(a);
    free(b);
    free(t);
    free(v->speckle);
    v->speckle = NULL;
    return -1;
  }
  v->rows = rows;
  v->cols = cols;
  v->cr = rows * 0.5f;
  v->cc = cols * 0.5f;
  v->endo_r = rows * 0.17f;
  v->endo_c = cols * 0.18f;
  v->epi_r = rows * 0.27f;
  v->epi_c = cols * 0.29f;
  /* speckle: amplitude of a smoothed complex Gaussian field */
  float *fld[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    float *f = fld[k];
    for (size_t i = 0; i < n; i++) f[i] = (float)bench_rng_normal(rng);
    for (int pass = 0; pass < 2; pass++) { /* 3x3 box blur, twice */
      for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++) {
          float s = 0;
          for (int dc = -1; dc <= 1; dc++)
            for (int dr = -1; dr <= 1; dr++) {
              int rr = r + dr < 0 ? 0 : r + dr >= rows ? rows - 1 : r + dr;
              int cc = c + dc < 0 ? 0 : c + dc >= cols ? cols - 1 : c + dc;
              s += f[(size_t)cc * rows + rr];
            }
          t[(size_t)c * rows + r] = s / 9.0f;
        }
      memcpy(f, t, sizeof(float) * n);
    }
  }
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    v->speckle[i] = sqrtf(a[i] * a[i] + b[i] * b[i]);
    sum += v->speckle[i];
  }
  float scale = (float)(n / sum);
  for (size_t i = 0; i < n; i++) v->speckle[i] *= scale;
  free(a);
  free(b);
  free(t);
  return 0;
}

/* Frame f (column-major): the ventricle scaled by 1 + 3% sin(2 pi f / 20)
 * about its centre, speckle moving with the tissue, fresh noise per frame. */
static void hw_video_frame(const HwVideo *v, int f, float *out, BenchRng *rng) {
  float k = 1.0f + 0.03f * (float)sin(6.283185307179586 * f / 20.0);
  for (int c = 0; c < v->cols; c++)
    for (int r = 0; r < v->rows; r++) {
      float rs = v->cr + (r - v->cr) / k, cs = v->cc + (c - v->cc) / k;
      int r0 = (int)floorf(rs), c0 = (int)floorf(cs);
      float fr = rs - r0, fc = cs - c0;
      if (r0 < 0) {
        r0 = 0;
        fr = 0;
      }
      if (c0 < 0) {
        c0 = 0;
        fc = 0;
      }
      if (r0 >= v->rows - 1) {
        r0 = v->rows - 2;
        fr = 1;
      }
      if (c0 >= v->cols - 1) {
        c0 = v->cols - 2;
        fc = 1;
      }
      const float *s0 = &v->speckle[(size_t)c0 * v->rows + r0], *s1 = s0 + v->rows;
      float sp = (1 - fc) * ((1 - fr) * s0[0] + fr * s0[1]) + fc * ((1 - fr) * s1[0] + fr * s1[1]);
      float er = (rs - v->cr) / v->endo_r, ec = (cs - v->cc) / v->endo_c;
      float pr = (rs - v->cr) / v->epi_r, pc = (cs - v->cc) / v->epi_c;
      float tissue = er * er + ec * ec < 1.0f ? 0.12f : pr * pr + pc * pc < 1.0f ? 0.85f : 0.35f;
      float val = 0.02f + 0.9f * tissue * sp * (0.85f + 0.3f * bench_rng_float(rng));
      out[(size_t)c * v->rows + r] = val > 1.0f ? 1.0f : val;
    }
}

/* ---- CPU replay of the kernel, one point ---- */

typedef struct HwWork {
  float *in2, *in_mod, *conv, *pad, *pad_sel, *pad_sel2, *sub_sel, *sub2, *in2_sqr, *sqr_sub2, *in_sqr,
      *tmask, *mask_conv;
} HwWork;

static int hw_work_alloc(HwWork *w, const HwParams *p) {
  w->in2 = malloc(sizeof(float) * p->in2_elem);
  w->in2_sqr = malloc(sizeof(float) * p->in2_elem);
  w->in_mod = malloc(sizeof(float) * p->in_elem);
  w->in_sqr = malloc(sizeof(float) * p->in_elem);
  w->pad = malloc(sizeof(float) * p->pad_elem);
  w->pad_sel = malloc(sizeof(float) * p->sel_elem);
  w->pad_sel2 = malloc(sizeof(float) * p->sel_elem);
  w->conv = malloc(sizeof(float) * p->conv_elem);
  w->sub_sel = malloc(sizeof(float) * p->conv_elem);
  w->sub2 = malloc(sizeof(float) * p->conv_elem);
  w->sqr_sub2 = malloc(sizeof(float) * p->conv_elem);
  w->tmask = malloc(sizeof(float) * p->conv_elem);
  w->mask_conv = malloc(sizeof(float) * p->conv_elem);
  return w->in2 && w->in2_sqr && w->in_mod && w->in_sqr && w->pad && w->pad_sel && w->pad_sel2 && w->conv &&
                 w->sub_sel && w->sub2 && w->sqr_sub2 && w->tmask && w->mask_conv
             ? 0
             : -1;
}

static void hw_work_free(HwWork *w) {
  float *all[] = {w->in2,  w->in2_sqr, w->in_mod, w->in_sqr,   w->pad,   w->pad_sel,  w->pad_sel2,
                  w->conv, w->sub_sel, w->sub2,   w->sqr_sub2, w->tmask, w->mask_conv};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
  memset(w, 0, sizeof *w);
}

static void hw_cpu_box_sums(const HwParams *p, HwWork *w, const float *src, float *out) {
  for (int ei = 0; ei < p->pad_elem; ei++) {
    int r = ei % p->pad_rows - p->in_rows, c = ei / p->pad_rows - p->in_rows;
    w->pad[ei] = r >= 0 && r < p->in2_rows && c >= 0 && c < p->in2_rows ? src[c * p->in2_rows + r] : 0.0f;
  }
  for (int col = 0; col < p->pad_rows; col++) {
    float sum = 0.0f;
    for (int pos = col * p->pad_rows; pos < (col + 1) * p->pad_rows; pos++)
      sum = w->pad[pos] = w->pad[pos] + sum;
  }
  for (int ei = 0; ei < p->sel_elem; ei++) {
    int row = ei % p->conv_rows, col = ei / p->conv_rows;
    w->pad_sel[ei] = w->pad[col * p->pad_rows + row + p->in_rows];
    w->pad_sel2[ei] = w->pad_sel[ei] - w->pad[col * p->pad_rows + row];
  }
  for (int row = 0; row < p->conv_rows; row++) {
    float sum = 0.0f;
    for (int pos = row; pos < p->sel_elem; pos += p->conv_rows)
      sum = w->pad_sel2[pos] = w->pad_sel2[pos] + sum;
  }
  for (int ei = 0; ei < p->conv_elem; ei++) {
    int row = ei % p->conv_rows, col = ei / p->conv_rows;
    w->sub_sel[ei] = w->pad_sel2[(col + p->in_rows) * p->conv_rows + row];
    out[ei] = w->sub_sel[ei] - w->pad_sel2[ei];
  }
}

/* Tracks one point in one frame; returns the peak index in mask_conv. */
static int hw_cpu_track(const HwParams *p, const float *frame, const float *tmpl, int prow, int pcol,
                        int last_row, int last_col, HwWork *w) {
  for (int ei = 0; ei < p->in2_elem; ei++) {
    int fr = prow - p->ssize + ei % p->in2_rows, fc = pcol - p->ssize + ei / p->in2_rows;
    w->in2[ei] = frame[fc * p->frame_rows + fr];
  }
  for (int ei = 0; ei < p->in_elem; ei++) {
    int row = ei % p->in_rows, col = ei / p->in_rows;
    w->in_mod[ei] = tmpl[(p->in_rows - 1 - col) * p->in_rows + (p->in_rows - 1 - row)];
  }
  for (int ei = 0; ei < p->conv_elem; ei++) {
    int ic = ei % p->conv_rows, jc = ei / p->conv_rows;
    int a_lo = ic - (p->in2_rows - 1), a_hi = ic, b_lo = jc - (p->in2_rows - 1), b_hi = jc;
    if (a_lo < 0) a_lo = 0;
    if (a_hi > p->in_rows - 1) a_hi = p->in_rows - 1;
    if (b_lo < 0) b_lo = 0;
    if (b_hi > p->in_rows - 1) b_hi = p->in_rows - 1;
    float s = 0.0f;
    for (int b = b_lo; b <= b_hi; b++)
      for (int a = a_lo; a <= a_hi; a++)
        s = fmaf(w->in_mod[b * p->in_rows + a], w->in2[(jc - b) * p->in2_rows + (ic - a)], s);
    w->conv[ei] = s;
  }
  hw_cpu_box_sums(p, w, w->in2, w->sub2);
  for (int ei = 0; ei < p->in2_elem; ei++) w->in2_sqr[ei] = w->in2[ei] * w->in2[ei];
  hw_cpu_box_sums(p, w, w->in2_sqr, w->sqr_sub2);
  for (int ei = 0; ei < p->conv_elem; ei++) {
    float s = w->sub2[ei];
    float v = w->sqr_sub2[ei] - (s * s / (float)p->in_elem);
    w->sqr_sub2[ei] = sqrtf(v < 0.0f ? 0.0f : v);
  }
  for (int ei = 0; ei < p->in_elem; ei++) w->in_sqr[ei] = tmpl[ei] * tmpl[ei];
  float in_final_sum = 0.0f, in_sqr_final_sum = 0.0f;
  for (int col = 0; col < p->in_rows; col++) {
    float sum = 0.0f;
    for (int i = 0; i < p->in_rows; i++) sum = sum + tmpl[col * p->in_rows + i];
    in_final_sum = in_final_sum + sum;
  }
  for (int row = 0; row < p->in_rows; row++) {
    float sum = 0.0f;
    for (int i = 0; i < p->in_rows; i++) sum = sum + w->in_sqr[row + p->in_rows * i];
    in_sqr_final_sum = in_sqr_final_sum + sum;
  }
  float mean = in_final_sum / (float)p->in_elem;
  float variance = (in_sqr_final_sum / (float)p->in_elem) - mean * mean;
  float denom_t = sqrtf((float)(p->in_elem - 1)) * sqrtf(variance);
  for (int ei = 0; ei < p->conv_elem; ei++) {
    float den = w->sqr_sub2[ei] * denom_t;
    w->conv[ei] = w->conv[ei] - w->sub2[ei] * in_final_sum / (float)p->in_elem;
    w->sqr_sub2[ei] = w->conv[ei] / den;
  }
  int cent = p->ssize + p->tsize;
  int mloc = (cent + last_col - pcol) * p->conv_rows + (cent + last_row - prow);
  for (int ei = 0; ei < p->conv_elem; ei++) w->tmask[ei] = ei == mloc ? 1.0f : 0.0f;
  for (int ei = 0; ei < p->conv_elem; ei++) {
    int ic = ei % p->conv_rows, jc = ei / p->conv_rows;
    int a_lo = ic + p->mask_off - (p->mask_rows - 1), a_hi = ic + p->mask_off;
    int b_lo = jc + p->mask_off - (p->mask_rows - 1), b_hi = jc + p->mask_off;
    if (a_lo < 0) a_lo = 0;
    if (a_hi > p->conv_rows - 1) a_hi = p->conv_rows - 1;
    if (b_lo < 0) b_lo = 0;
    if (b_hi > p->conv_rows - 1) b_hi = p->conv_rows - 1;
    float s = 0.0f;
    for (int b = b_lo; b <= b_hi; b++)
      for (int a = a_lo; a <= a_hi; a++) s = s + w->tmask[b * p->conv_rows + a];
    w->mask_conv[ei] = w->sqr_sub2[ei] * s;
  }
  float best = 0.0f;
  int best_at = 0;
  for (int col = 0; col < p->conv_rows; col++) {
    float cbest = 0.0f;
    int cbest_at = 0;
    for (int i = 0; i < p->conv_rows; i++) {
      int at = col * p->conv_rows + i;
      float v = fabsf(w->mask_conv[at]);
      if (v > cbest) {
        cbest = v;
        cbest_at = at;
      }
    }
    if (cbest > best) {
      best = cbest;
      best_at = cbest_at;
    }
  }
  return best_at;
}

/* Template refresh of every 10th frame. */
static void hw_cpu_refresh(const HwParams *p, const float *frame, float *tmpl, int nrow, int ncol) {
  for (int ei = 0; ei < p->in_elem; ei++) {
    int fr = nrow - p->tsize + ei % p->in_rows, fc = ncol - p->tsize + ei / p->in_rows;
    tmpl[ei] = fmaf(p->alpha, tmpl[ei], (1.0f - p->alpha) * frame[fc * p->frame_rows + fr]);
  }
}

static int hw_run(BenchRun *r) {
  const HwConfig *cfg = &hw_cfg[r->size];
  HwParams prm;
  hw_params_init(&prm, cfg);
  int np = prm.all_points, nf = cfg->frames, status = BENCH_ERROR;
  size_t fpix = (size_t)cfg->frame_rows * cfg->frame_cols;
  HwVideo video = {0};
  HwWork work = {0};
  WsModule *mod = NULL;
  enum { NBUF = 14 };
  /* per-point buffers, in HwPoint order from tmpl to mask_conv */
  int buf_elems[NBUF] = {prm.in_elem,   prm.in2_elem, prm.in_elem,   prm.conv_elem, prm.pad_elem,
                         prm.sel_elem,  prm.sel_elem, prm.conv_elem, prm.conv_elem, prm.in2_elem,
                         prm.conv_elem, prm.in_elem,  prm.conv_elem, prm.conv_elem};
  WsDevPtr d_buf[NBUF] = {0}, d_frame = 0, d_endo_pos[2] = {0}, d_epi_pos[2] = {0}, d_endo_t[2] = {0},
           d_epi_t[2] = {0};
  float *frames = malloc(sizeof(float) * fpix * nf);
  int32_t *row0 = malloc(sizeof(int32_t) * np), *col0 = malloc(sizeof(int32_t) * np);
  int32_t *trow = malloc(sizeof(int32_t) * np * nf), *tcol = malloc(sizeof(int32_t) * np * nf);
  int32_t *grow = malloc(sizeof(int32_t) * np), *gcol = malloc(sizeof(int32_t) * np);
  float *tmpl = malloc(sizeof(float) * prm.in_elem * np), *gtmpl = malloc(sizeof(float) * prm.in_elem * np);
  float *gcorr = malloc(sizeof(float) * prm.conv_elem * np),
        *ccorr = malloc(sizeof(float) * prm.conv_elem * np);
  if (!frames || !row0 || !col0 || !trow || !tcol || !grow || !gcol || !tmpl || !gtmpl || !gcorr || !ccorr ||
      hw_work_alloc(&work, &prm)) {
    fprintf(r->log, "heartwall: out of host memory\n");
    goto fail;
  }

  BenchRng rng;
  bench_rng_seed(&rng, r->seed);
  if (hw_video_init(&video, cfg->frame_rows, cfg->frame_cols, &rng)) {
    fprintf(r->log, "heartwall: out of host memory\n");
    goto fail;
  }
  for (int f = 0; f < nf; f++) hw_video_frame(&video, f, frames + fpix * f, &rng);
  /* points evenly spaced on the two walls (endo first, then epi) */
  for (int i = 0; i < np; i++) {
    int endo = i < cfg->endo, k = endo ? i : i - cfg->endo, cnt = endo ? cfg->endo : cfg->epi;
    double th = 6.283185307179586 * (k + 0.5 * !endo) / cnt;
    row0[i] = (int32_t)lround(video.cr + (endo ? video.endo_r : video.epi_r) * sin(th));
    col0[i] = (int32_t)lround(video.cc + (endo ? video.endo_c : video.epi_c) * cos(th));
  }
  for (int i = 0; i < np; i++) {
    int m = prm.ssize + prm.tsize;
    if (row0[i] < m || row0[i] + m >= cfg->frame_rows || col0[i] < m || col0[i] + m >= cfg->frame_cols) {
      fprintf(r->log, "heartwall: point %d at (%d,%d) too close to the frame border\n", i, row0[i], col0[i]);
      goto fail;
    }
  }
  if (r->verbose > 0)
    fprintf(r->log, "heartwall: %dx%d frames x %d, %d endo + %d epi points, tSize %d sSize %d maxMove %d\n",
            cfg->frame_rows, cfg->frame_cols, nf, cfg->endo, cfg->epi, cfg->tsize, cfg->ssize, cfg->maxmove);

  if (bench_load_module(r, "heartwall", "heartwall.ptx", &mod)) goto fail;
  WsFunction *fn;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "heartwall_kernel"));
  WsDevPtr g_params, g_frame, g_points;
  size_t sz_params, sz_frame, sz_points;
  BENCH_CK(r, ws_module_get_global(&g_params, &sz_params, mod, "hw_params"));
  BENCH_CK(r, ws_module_get_global(&g_frame, &sz_frame, mod, "hw_frame"));
  BENCH_CK(r, ws_module_get_global(&g_points, &sz_points, mod, "hw_points"));
  if (sz_params != sizeof(HwParams) || sz_frame != sizeof(HwFrame) ||
      sz_points != sizeof(HwPoint) * HW_MAX_POINTS) {
    fprintf(r->log, "heartwall: __constant__ sizes %zu/%zu/%zu do not match the host layouts\n", sz_params,
            sz_frame, sz_points);
    goto fail;
  }
  for (int b = 0; b < NBUF; b++)
    BENCH_CK(r, ws_mem_alloc(r->ctx, &d_buf[b], sizeof(float) * (size_t)buf_elems[b] * np));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_frame, sizeof(float) * fpix));
  /* position and tracked-position arrays, separate for endo and epi points */
  int counts[2] = {cfg->endo, cfg->epi};
  WsDevPtr *pos[2] = {d_endo_pos, d_epi_pos}, *tpos[2] = {d_endo_t, d_epi_t};
  for (int k = 0; k < 2; k++) {
    int first = k ? cfg->endo : 0;
    for (int j = 0; j < 2; j++) {
      BENCH_CK(r, ws_mem_alloc(r->ctx, &pos[k][j], sizeof(int32_t) * (size_t)counts[k]));
      BENCH_CK(r, ws_mem_alloc(r->ctx, &tpos[k][j], sizeof(int32_t) * (size_t)counts[k] * nf));
      BENCH_CK(r, ws_memset_d32(r->ctx, tpos[k][j], 0, (size_t)counts[k] * nf));
    }
    BENCH_CK(r, ws_memcpy_htod(r->ctx, pos[k][0], row0 + first, sizeof(int32_t) * (size_t)counts[k]));
    BENCH_CK(r, ws_memcpy_htod(r->ctx, pos[k][1], col0 + first, sizeof(int32_t) * (size_t)counts[k]));
  }
  HwPoint pts[HW_MAX_POINTS];
  memset(pts, 0, sizeof pts);
  for (int i = 0; i < np; i++) {
    int k = i < cfg->endo ? 0 : 1;
    pts[i].row = pos[k][0];
    pts[i].col = pos[k][1];
    pts[i].trow = tpos[k][0];
    pts[i].tcol = tpos[k][1];
    pts[i].point_no = k ? i - cfg->endo : i;
    uint64_t *slot = &pts[i].tmpl;
    for (int b = 0; b < NBUF; b++) slot[b] = d_buf[b] + sizeof(float) * (size_t)buf_elems[b] * i;
  }
  BENCH_CK(r, ws_memcpy_htod(r->ctx, g_params, &prm, sizeof prm));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, g_points, pts, sizeof pts));
  for (int f = 0; f < nf; f++) {
    HwFrame hf = {.frame = d_frame, .frame_no = f};
    BENCH_CK(r, ws_memcpy_htod(r->ctx, d_frame, frames + fpix * f, sizeof(float) * fpix));
    BENCH_CK(r, ws_memcpy_htod(r->ctx, g_frame, &hf, sizeof hf));
    void *noargs[1] = {NULL};
    BENCH_CK(r, ws_launch_kernel(fn, (unsigned)np, 1, 1, HW_THREADS, 1, 1, 0, noargs));
  }
  for (int k = 0; k < 2; k++) {
    int first = k ? cfg->endo : 0;
    BENCH_CK(r,
             ws_memcpy_dtoh(r->ctx, trow + (size_t)first * nf, tpos[k][0], sizeof(int32_t) * counts[k] * nf));
    BENCH_CK(r,
             ws_memcpy_dtoh(r->ctx, tcol + (size_t)first * nf, tpos[k][1], sizeof(int32_t) * counts[k] * nf));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, grow + first, pos[k][0], sizeof(int32_t) * counts[k]));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, gcol + first, pos[k][1], sizeof(int32_t) * counts[k]));
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, gtmpl, d_buf[0], sizeof(float) * prm.in_elem * np));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, gcorr, d_buf[10], sizeof(float) * prm.conv_elem * np));

  /* CPU replay. Each frame is checked given the device's positions of the
   * frame before, so a tie of the peak cannot cascade. */
  size_t bad = 0;
  int ties = 0, moved = 0, cent = prm.ssize + prm.tsize;
  double track_err = 0;
  for (int i = 0; i < np; i++) {
    const float *f0 = frames;
    float *t = tmpl + (size_t)prm.in_elem * i;
    for (int ei = 0; ei < prm.in_elem; ei++)
      t[ei] = f0[(col0[i] - prm.tsize + ei / prm.in_rows) * prm.frame_rows + row0[i] - prm.tsize +
                 ei % prm.in_rows];
    int32_t *tr = trow + (size_t)i * nf, *tc = tcol + (size_t)i * nf;
    if (tr[0] != row0[i] || tc[0] != col0[i]) {
      if (bad++ < 10)
        fprintf(r->log, "point %d frame 0: position (%d,%d), want (%d,%d)\n", i, tr[0], tc[0], row0[i],
                col0[i]);
      continue;
    }
    int prow = row0[i], pcol = col0[i];
    for (int f = 1; f < nf; f++) {
      const float *fr = frames + fpix * f;
      int at = hw_cpu_track(&prm, fr, t, prow, pcol, tr[f - 1], tc[f - 1], &work);
      int wrow = prow + at % prm.conv_rows - cent, wcol = pcol + at / prm.conv_rows - cent;
      if (tr[f] != wrow || tc[f] != wcol) {
        int gr = tr[f] - prow + cent, gc = tc[f] - pcol + cent;
        float best = fabsf(work.mask_conv[at]);
        if (gr >= 0 && gr < prm.conv_rows && gc >= 0 && gc < prm.conv_rows &&
            fabsf(work.mask_conv[gc * prm.conv_rows + gr]) >= best * (1.0f - 1e-4f)) {
          ties++;
        } else if (bad++ < 10) {
          fprintf(r->log, "point %d frame %d: tracked to (%d,%d), want (%d,%d)\n", i, f, tr[f], tc[f], wrow,
                  wcol);
        }
      }
      if (tr[f] != prow || tc[f] != pcol) moved++;
      { /* distance to where the tissue under the point really moved */
        double k = 1.0 + 0.03 * sin(6.283185307179586 * f / 20.0);
        double er = tr[f] - (video.cr + (row0[i] - video.cr) * k),
               ec = tc[f] - (video.cc + (col0[i] - video.cc) * k);
        track_err += sqrt(er * er + ec * ec);
      }
      if (f == nf - 1)
        memcpy(ccorr + (size_t)prm.conv_elem * i, work.sqr_sub2, sizeof(float) * prm.conv_elem);
      if (f % 10 == 0) {
        prow = tr[f];
        pcol = tc[f];
        hw_cpu_refresh(&prm, fr, t, prow, pcol);
      }
    }
    if (grow[i] != prow || gcol[i] != pcol) {
      if (bad++ < 10)
        fprintf(r->log, "point %d: final position (%d,%d), want (%d,%d)\n", i, grow[i], gcol[i], prow, pcol);
    }
  }
  bad += bench_check_f32(r, "template", gtmpl, tmpl, (size_t)prm.in_elem * np, 1e-4, 1e-5);
  if (nf > 1) bad += bench_check_f32(r, "correlation", gcorr, ccorr, (size_t)prm.conv_elem * np, 1e-3, 1e-3);
  if (r->verbose > 0)
    fprintf(r->log, "heartwall: %d point-frames moved, mean tracking error %.2f px, %d peak ties accepted\n",
            moved, track_err / (np * (nf > 1 ? nf - 1 : 1)), ties);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  for (int b = 0; b < NBUF; b++)
    if (d_buf[b]) ws_mem_free(r->ctx, d_buf[b]);
  {
    WsDevPtr all[] = {d_frame,     d_endo_pos[0], d_endo_pos[1], d_epi_pos[0], d_epi_pos[1],
                      d_endo_t[0], d_endo_t[1],   d_epi_t[0],    d_epi_t[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
      if (all[i]) ws_mem_free(r->ctx, all[i]);
  }
  if (mod) ws_module_unload(mod);
  hw_work_free(&work);
  free(video.speckle);
  free(frames);
  free(row0);
  free(col0);
  free(trow);
  free(tcol);
  free(grow);
  free(gcol);
  free(tmpl);
  free(gtmpl);
  free(gcorr);
  free(ccorr);
  return status;
}

const BenchDesc bench_desc_heartwall = {
    .name = "heartwall",
    .summary = "heart wall tracking: few long 256-thread CTAs (one per point), ~40 barrier phases, constants",
    .papers = "CAWA",
    .suite = "I",
    .sizes = {"128x144 video, 11 frames, 4 points, tSize 3 sSize 6 maxMove 4",
              "656x744 video, 2 frames, 51 points, tSize 10 sSize 18",
              "656x744 video (CAWA), 2 frames, 51 points, Rodinia's tSize 25 sSize 40"},
    .run = hw_run,
};
