/* t113_half_printf.c - FP16 arithmetic and device printf.
 *
 * FP16 (PTX ISA 9.0, "Half Precision Floating-Point Instructions"): add, sub, mul, fma
 *   (.rn), neg, abs, min, max, setp on .f16 and add, mul, fma on .f16x2, from nvcc's own
 *   code for __half/__half2 (tests/kernels/half_printf.cu) and hand-written PTX; results
 *   must equal the exact result rounded once to the nearest half (ties to even), computed
 *   here in long double (exact for these operands) with this file's own rounding.
 * printf (vprintf): the text each thread prints, in thread order within a warp, the
 *   conversions %d %5.2f %lld %x %c %s %u %%; a call with a bad argument buffer faults. */
#include "common/opkit.h"

#include <unistd.h>

TEST_GLOBALS;

static char *kernels_ptx;

/* ---- reference FP16 ---- */
static long double ref_from_half(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  long double v = e == 0 ? ldexpl(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpl(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}

/* Round to nearest half, ties to even (the host's default rounding mode for nearbyintl). */
static uint16_t ref_to_half(long double v) {
  if (isnan(v)) return 0x7E00;
  uint16_t s = signbit(v) ? 0x8000 : 0;
  long double a = fabsl(v);
  if (a >= 65520.0L) return s | 0x7C00; /* max 65504; halfway to 65536 rounds to even = infinity */
  if (a < ldexpl(1, -14)) return s | (uint16_t)nearbyintl(a * ldexpl(1, 24));
  int ex;
  frexpl(a, &ex);
  int e = ex - 1;
  long double q = nearbyintl(a * ldexpl(1, 10 - e));
  if (q >= 2048) q = 1024, e++;
  if (e + 15 >= 31) return s | 0x7C00;
  return s | (uint16_t)((e + 15) << 10) | (uint16_t)(q - 1024);
}

static int same_half(uint16_t got, uint16_t want) {
  if ((want & 0x7C00) == 0x7C00 && (want & 0x3FF))
    return (got & 0x7C00) == 0x7C00 && (got & 0x3FF); /* any NaN */
  return got == want;
}

static int cmp_lt(long double a, long double b) { return a < b; }

static const uint16_t special[] = {0x0000, 0x8000, 0x3C00, 0xBC00, 0x3555, 0x7BFF, 0xFBFF,
                                   0x0001, 0x03FF, 0x0400, 0x7C00, 0xFC00, 0x7E00, 0x3C01,
                                   0x6800, 0x4200, 0x3800, 0x1400, 0x5BFF, 0x0200};
#define NSPEC (int)(sizeof special / sizeof special[0])

/* nvcc's __half code (hops) on all pairs of special values plus random triples. */
static void test_half_nvcc(void) {
  enum { NR = 600 };
  int n = NSPEC * NSPEC + NR;
  uint16_t *a = malloc(sizeof(uint16_t) * (size_t)n), *b = malloc(sizeof(uint16_t) * (size_t)n),
           *c = malloc(sizeof(uint16_t) * (size_t)n);
  uint16_t *out = calloc((size_t)n * 12, sizeof(uint16_t));
  CHECK(a && b && c && out);
  if (!a || !b || !c || !out) {
    free(a), free(b), free(c), free(out);
    return;
  }
  uint64_t seed = 7;
  for (int i = 0; i < NSPEC * NSPEC; i++)
    a[i] = special[i / NSPEC], b[i] = special[i % NSPEC], c[i] = special[(i * 7) % NSPEC];
  for (int i = NSPEC * NSPEC; i < n; i++) {
    a[i] = (uint16_t)ov_rand(&seed), b[i] = (uint16_t)ov_rand(&seed), c[i] = (uint16_t)ov_rand(&seed);
    if (i % 3 == 0) b[i] = (uint16_t)((a[i] & 0xFC00) | (b[i] & 0x3FF)); /* same exponent: cancellation */
  }
  TK k;
  if (tk_open(&k, kernels_ptx, "hops") == 0) {
    WsDevPtr da = tk_alloc(&k, 2 * (size_t)n, a), db = tk_alloc(&k, 2 * (size_t)n, b),
             dc = tk_alloc(&k, 2 * (size_t)n, c);
    WsDevPtr dout = tk_alloc(&k, 24 * (size_t)n, NULL);
    void *params[] = {&da, &db, &dc, &dout, &n};
    if (tk_launch(&k, (unsigned)(n + 127) / 128, 1, 1, 128, 1, 1, 0, params) == WS_SUCCESS)
      tk_get(&k, out, dout, 24 * (size_t)n);
    else
      CHECK(0);
  } else
    CHECK(0);
  tk_close(&k);
  int bad = 0;
  for (int i = 0; i < n && bad < 10; i++) {
    long double x = ref_from_half(a[i]), y = ref_from_half(b[i]), z = ref_from_half(c[i]);
    const uint16_t *o = out + 12 * i;
    uint16_t want[12] = {ref_to_half(x + y),
                         ref_to_half(x - y),
                         ref_to_half(x * y),
                         ref_to_half(x * y + z),
                         0,
                         0,
                         (uint16_t)(a[i] ^ 0x8000),
                         (uint16_t)(a[i] & 0x7FFF),
                         (uint16_t)(cmp_lt(x, y) | (x >= y) << 1 | (isnan(x) || isnan(y) || x == y) << 2),
                         ref_to_half(x * z + x),
                         ref_to_half(y * x + y),
                         ref_to_half(x * z)};
    for (int r = 0; r < 12; r++) {
      if (r == 4 || r == 5) continue; /* min/max: below, on their own */
      int ok = r == 8 ? o[r] == want[r] : same_half(o[r], want[r]);
      if (!ok) {
        fprintf(stderr, "  hops %d: a 0x%04x b 0x%04x c 0x%04x result %d: got 0x%04x want 0x%04x\n", i, a[i],
                b[i], c[i], r, o[r], want[r]);
        bad++;
      }
    }
    if (!isnan(x) && !isnan(y) && x != y) { /* hmin/hmax (through f32 on sm_75) */
      CHECK(o[4] == (x < y ? a[i] : b[i]));
      CHECK(o[5] == (x < y ? b[i] : a[i]));
    }
  }
  test_failures_ += bad;
  free(a), free(b), free(c), free(out);
}

/* Hand-written PTX: rounding ties, overflow, min/max and f16x2 forms, and setp.f16. */
static void test_half_ptx(void) {
  static const struct {
    const char *body;
    uint64_t a, b, c, want;
  } cases[] = {
      {"add.f16 %rs20, %rs10, %rs11" ST_RS, 0x6800, 0x3C00, 0, 0x6800},    /* 2048 + 1: tie to even 2048 */
      {"add.f16 %rs20, %rs10, %rs11" ST_RS, 0x6800, 0x4200, 0, 0x6802},    /* 2048 + 3: tie to even 2052 */
      {"add.rz.f16 %rs20, %rs10, %rs11" ST_RS, 0x6800, 0x4200, 0, 0x6801}, /* .rz: 2050 */
      {"add.f16 %rs20, %rs10, %rs11" ST_RS, 0x7BFF, 0x7BFF, 0, 0x7C00},    /* overflow to infinity */
      {"mul.f16 %rs20, %rs10, %rs11" ST_RS, 0x0001, 0x3800, 0, 0x0000},    /* min subnormal * 0.5: tie to 0 */
      {"sub.f16 %rs20, %rs10, %rs11" ST_RS, 0x3C00, 0x3C00, 0, 0x0000},    /* 1 - 1 = +0 */
      {"fma.rn.f16 %rs20, %rs10, %rs11, %rs12" ST_RS, 0x3C01, 0x3C01, 0xBC00,
       0x1800}, /* (1+u)^2 - 1 = 2u + u^2: a tie, to even 2u */
      {"min.f16 %rs20, %rs10, %rs11" ST_RS, 0x7E00, 0x3C00, 0, 0x3C00}, /* NaN loses */
      {"max.f16 %rs20, %rs10, %rs11" ST_RS, 0xC000, 0x3C00, 0, 0x3C00},
      {"min.f16 %rs20, %rs10, %rs11" ST_RS, 0x0000, 0x8000, 0, 0x8000}, /* -0 < +0 */
      {"neg.f16 %rs20, %rs10" ST_RS, 0x3C00, 0, 0, 0xBC00},
      {"abs.f16 %rs20, %rs10" ST_RS, 0xFC00, 0, 0, 0x7C00},
      {"add.f16x2 %r20, %r10, %r11" ST_R, 0x3C004000, 0x3C00BC00, 0, 0x40003C00}, /* {1+1, 2-1}: hi 2, lo 1 */
      {"mul.f16x2 %r20, %r10, %r11" ST_R, 0x42004400, 0x38004000, 0, 0x3E004800}, /* {3*0.5, 4*2} */
      {"fma.rn.f16x2 %r20, %r10, %r11, %r12" ST_R, 0x3C003C00, 0x40004200, 0x3C00BC00, 0x42004000},
      {"setp.lt.f16 %p1, %rs10, %rs11;" ST_P2, 0xBC00, 0x3C00, 0, 1},
      {"setp.gtu.f16 %p1, %rs10, %rs11;" ST_P2, 0x7E00, 0x3C00, 0, 1},
      {"setp.gt.f16 %p1, %rs10, %rs11;" ST_P2, 0x7E00, 0x3C00, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint64_t in[1][3] = {{cases[i].a, cases[i].b, cases[i].c}}, out[1][2];
    if (op_run(cases[i].body, (const uint64_t(*)[3])in, 1, out)) {
      CHECK(0);
      continue;
    }
    uint64_t got = strstr(cases[i].body, "setp") ? out[0][1] : out[0][0];
    if (got != cases[i].want) {
      fprintf(stderr, "  %s: got 0x%llx want 0x%llx\n", cases[i].body, (unsigned long long)got,
              (unsigned long long)cases[i].want);
      test_failures_++;
    }
  }
  /* what is not modelled is refused at load time, naming it */
  char *ptx = op_kernel_text("ex2.approx.f16 %rs20, %rs10" ST_RS);
  WsContext *ctx;
  WsModule *mod;
  CHECK(ptx && ws_ctx_create(&ctx, NULL) == WS_SUCCESS);
  if (ptx && ctx) {
    CHECK(ws_module_load_data(ctx, &mod, ptx, "t.ptx") == WS_ERROR_INVALID_PTX);
    CHECK_STR_CONTAINS(ws_ctx_error(ctx), "half-precision .f16 ex2 is not supported");
    ws_ctx_destroy(ctx);
  }
  free(ptx);
}

/* Runs hprint on 2 CTAs of 3 threads with stdout sent to a file; returns what was printed. */
static char *capture_hprint(const char *ptx, WsResult *rc) {
  fflush(stdout);
  FILE *tmp = tmpfile();
  int saved = dup(1);
  if (!tmp || saved < 0) return NULL;
  dup2(fileno(tmp), 1);
  TK k;
  *rc = WS_ERROR_INVALID_VALUE;
  if (tk_open(&k, ptx, "hprint") == 0) {
    int base = 10;
    double d = 1.5;
    long long v = 1LL << 40;
    void *params[] = {&base, &d, &v};
    *rc = ws_launch_kernel(k.fn, 2, 1, 1, 3, 1, 1, 0, params);
  }
  tk_close(&k);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  long n = ftell(tmp);
  char *text = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
  rewind(tmp);
  if (text && n > 0 && fread(text, 1, (size_t)n, tmp) != (size_t)n) text[0] = 0;
  fclose(tmp);
  return text;
}

static void test_printf(void) {
  WsResult rc;
  char *text = capture_hprint(kernels_ptx, &rc);
  CHECK(rc == WS_SUCCESS);
  const char *want = "t0 b0: 10| 0.00|1099511627776|ff|a|even|7%\n"
                     "t1 b0: 11| 1.50|1099511627776|100|b|odd|7%\n"
                     "t2 b0: 12| 3.00|1099511627776|101|c|even|7%\n"
                     "t0 b1: 10| 0.00|1099511627776|ff|a|even|7%\n"
                     "t1 b1: 11| 1.50|1099511627776|100|b|odd|7%\n"
                     "t2 b1: 12| 3.00|1099511627776|101|c|even|7%\n";
  CHECK(text && !strcmp(text, want));
  if (text && strcmp(text, want)) fprintf(stderr, "  printed:\n%s  expected:\n%s", text, want);
  free(text);
  /* an argument buffer that is not memory faults the warp with a message naming printf */
  char *bad = strdup(kernels_ptx);
  char *call = bad ? strstr(bad, "[param1+0], %rd2;") : NULL;
  CHECK(call != NULL);
  if (call) {
    memcpy(call + 12, "8   ", 4); /* a null-page pointer instead of the local depot's address */
    TK k;
    if (tk_open(&k, bad, "hprint") == 0) {
      int base = 0;
      double d = 0;
      long long v = 0;
      void *params[] = {&base, &d, &v};
      fflush(stdout);
      CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 1, 1, 1, 0, params) == WS_ERROR_ILLEGAL_ADDRESS);
      CHECK_STR_CONTAINS(ws_ctx_error(k.ctx), "printf: argument");
    } else
      CHECK(0);
    tk_close(&k);
  }
  free(bad);
}

int main(void) {
  kernels_ptx = test_read_file(test_path("tests/kernels/half_printf.ptx"));
  if (!kernels_ptx) {
    fprintf(stderr, "tests/kernels/half_printf.ptx not readable (run from the repository root)\n");
    return 1;
  }
  TEST_RUN(test_half_nvcc);
  TEST_RUN(test_half_ptx);
  TEST_RUN(test_printf);
  free(kernels_ptx);
  return TEST_DONE();
}
