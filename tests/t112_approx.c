/* t112_approx.c - PTX's approximate transcendentals (ex2, lg2, sin, cos, tanh) are computed
 * without the host's libm (src/ptx/approx.c), so they give the same bits on every host
 * (host libms differ in the last bit). Fixed expected bit patterns (f32 and the double before rounding),
 * the same through PTX instructions, and agreement with the host's libm within approx.c's
 * documented bounds (a check on accuracy, not on bits). */
#include "common/opkit.h"

#include <math.h>

#include "ptx/approx.h"

TEST_GLOBALS;

typedef struct Exp {
  int op;
  uint32_t in, f32;
  uint64_t f64;
} Exp;
static const Exp EXPECTED[] = {
    /* ex2 */
    {0, 0x00000000u, 0x3f800000u, 0x3ff0000000000000ull},
    {0, 0x80000000u, 0x3f800000u, 0x3ff0000000000000ull},
    {0, 0x3f800000u, 0x40000000u, 0x4000000000000000ull},
    {0, 0xbf800000u, 0x3f000000u, 0x3fe0000000000000ull},
    {0, 0x3f000000u, 0x3fb504f3u, 0x3ff6a09e667f3bccull},
    {0, 0x3dcccccdu, 0x3f892fdfu, 0x3ff125fbee7118fcull},
    {0, 0x40490fdbu, 0x410d331du, 0x4021a66390580a2cull},
    {0, 0xc0200000u, 0x3e3504f3u, 0x3fc6a09e667f3bccull},
    {0, 0x41200000u, 0x44800000u, 0x4090000000000000ull},
    {0, 0x42c80000u, 0x71800000u, 0x4630000000000000ull},
    {0, 0xc2fd0000u, 0x005a827au, 0x3806a09e667f3bccull},
    {0, 0x42ffcccdu, 0x7f6edb51u, 0x47eddb6a12e4ae4dull},
    {0, 0x0da24260u, 0x3f800000u, 0x3ff0000000000000ull},
    {0, 0x3f800001u, 0x40000001u, 0x40000000162e430eull},
    {0, 0x3f7fffffu, 0x3fffffffu, 0x3fffffffe9d1bd09ull},
    {0, 0x42053333u, 0x501d961eu, 0x4203b2c3cd3aa8b8ull},
    {0, 0x49742400u, 0x7f800000u, 0x7ff0000000000000ull},
    {0, 0x4b189680u, 0x7f800000u, 0x7ff0000000000000ull},
    {0, 0xcc8583b0u, 0x00000000u, 0x0000000000000000ull},
    {0, 0x3e99999au, 0x3f9d9624u, 0x3ff3b2c47eba969full},
    /* lg2 */
    {1, 0x00000000u, 0xff800000u, 0xfff0000000000000ull},
    {1, 0x80000000u, 0xff800000u, 0xfff0000000000000ull},
    {1, 0x3f800000u, 0x00000000u, 0x0000000000000000ull},
    {1, 0xbf800000u, 0x7fc00000u, 0x7ff8000000000000ull},
    {1, 0x3f000000u, 0xbf800000u, 0xbff0000000000000ull},
    {1, 0x3dcccccdu, 0xc0549a78u, 0xc00a934f0696fa85ull},
    {1, 0x40490fdbu, 0x3fd3643au, 0x3ffa6c873f5fb93dull},
    {1, 0xc0200000u, 0x7fc00000u, 0x7ff8000000000000ull},
    {1, 0x41200000u, 0x40549a78u, 0x400a934f0979a371ull},
    {1, 0x42c80000u, 0x40d49a78u, 0x401a934f0979a371ull},
    {1, 0xc2fd0000u, 0x7fc00000u, 0x7ff8000000000000ull},
    {1, 0x42ffcccdu, 0x40dff6c3u, 0x401bfed86cd2d152ull},
    {1, 0x0da24260u, 0xc2c750d1u, 0xc058ea1a18dd1fb1ull},
    {1, 0x3f800001u, 0x3438aa3au, 0x3e8715474e163bb7ull},
    {1, 0x3f7fffffu, 0xb3b8aa3cu, 0xbe77154770b626b8ull},
    {1, 0x42053333u, 0x40a1d6a2u, 0x40143ad43c48d890ull},
    {1, 0x49742400u, 0x419f73dau, 0x4033ee7b471b3a95ull},
    {1, 0x4b189680u, 0x41ba0729u, 0x403740e5284a6f03ull},
    {1, 0xcc8583b0u, 0x7fc00000u, 0x7ff8000000000000ull},
    {1, 0x3e99999au, 0xbfde54e3u, 0xbffbca9c5ff00491ull},
    /* sin */
    {2, 0x00000000u, 0x00000000u, 0x0000000000000000ull},
    {2, 0x80000000u, 0x80000000u, 0x8000000000000000ull},
    {2, 0x3f800000u, 0x3f576aa4u, 0x3feaed548f090ceeull},
    {2, 0xbf800000u, 0xbf576aa4u, 0xbfeaed548f090ceeull},
    {2, 0x3f000000u, 0x3ef57744u, 0x3fdeaee8744b05f0ull},
    {2, 0x3dcccccdu, 0x3dcc7577u, 0x3fb98eaed1ea022bull},
    {2, 0x40490fdbu, 0xb3bbbd2eu, 0xbe7777a5cf72cec6ull},
    {2, 0xc0200000u, 0xbf193578u, 0xbfe326af0dcfcab0ull},
    {2, 0x41200000u, 0xbf0b44f8u, 0xbfe1689ef5f34f52ull},
    {2, 0x42c80000u, 0xbf01a12eu, 0xbfe03425b78c4db8ull},
    {2, 0xc2fd0000u, 0xbf3dfe7bu, 0xbfe7bfcf57cfe624ull},
    {2, 0x42ffcccdu, 0x3f495f31u, 0x3fe92be617d8512dull},
    {2, 0x0da24260u, 0x0da24260u, 0x39b4484c00000000ull},
    {2, 0x3f800001u, 0x3f576aa6u, 0x3feaed54b19d5cd8ull},
    {2, 0x3f7fffffu, 0x3f576aa4u, 0x3feaed547dbee4d1ull},
    {2, 0x42053333u, 0x3f738a4cu, 0x3fee714975d573b8ull},
    {2, 0x49742400u, 0xbeb33259u, 0xbfd6664b2568d867ull},
    {2, 0x4b189680u, 0x3ed7520au, 0x3fdaea414a8a3351ull},
    {2, 0xcc8583b0u, 0xbdd3145du, 0xbfba628b9af44f30ull},
    {2, 0x3e99999au, 0x3e974e6du, 0x3fd2e9cda1f52c88ull},
    /* cos */
    {3, 0x00000000u, 0x3f800000u, 0x3ff0000000000000ull},
    {3, 0x80000000u, 0x3f800000u, 0x3ff0000000000000ull},
    {3, 0x3f800000u, 0x3f0a5140u, 0x3fe14a280fb5068bull},
    {3, 0xbf800000u, 0x3f0a5140u, 0x3fe14a280fb5068bull},
    {3, 0x3f000000u, 0x3f60a940u, 0x3fec1528065b7d50ull},
    {3, 0x3dcccccdu, 0x3f7eb898u, 0x3fefd712f993a59bull},
    {3, 0x40490fdbu, 0xbf800000u, 0xbfefffffffffffdeull},
    {3, 0xc0200000u, 0xbf4d17bfu, 0xbfe9a2f7ef858b7dull},
    {3, 0x41200000u, 0xbf56cd64u, 0xbfead9ac890c6b1full},
    {3, 0x42c80000u, 0x3f5cc0eeu, 0x3feb981dbf665fe0ull},
    {3, 0xc2fd0000u, 0x3f2b9368u, 0x3fe5726cff7852cdull},
    {3, 0x42ffcccdu, 0xbf1e1152u, 0xbfe3c22a376b9ce4ull},
    {3, 0x0da24260u, 0x3f800000u, 0x3ff0000000000000ull},
    {3, 0x3f800001u, 0x3f0a513fu, 0x3fe14a27d9da5d4aull},
    {3, 0x3f7fffffu, 0x3f0a5141u, 0x3fe14a282aa25b12ull},
    {3, 0x42053333u, 0xbe9dc967u, 0xbfd3b92cd7469040ull},
    {3, 0x49742400u, 0x3f6fcefdu, 0x3fedf9df9906d32cull},
    {3, 0x4b189680u, 0xbf6842dfu, 0xbfed085be7a8f4a1ull},
    {3, 0xcc8583b0u, 0x3f7ea2fdu, 0x3fefd45f9e4036a9ull},
    {3, 0x3e99999au, 0x3f7490efu, 0x3fee921dd24adb91ull},
    /* tanh */
    {4, 0x00000000u, 0x00000000u, 0x0000000000000000ull},
    {4, 0x80000000u, 0x80000000u, 0x8000000000000000ull},
    {4, 0x3f800000u, 0x3f42f7d6u, 0x3fe85efab514f394ull},
    {4, 0xbf800000u, 0xbf42f7d6u, 0xbfe85efab514f394ull},
    {4, 0x3f000000u, 0x3eec9a9fu, 0x3fdd9353d7568af4ull},
    {4, 0x3dcccccdu, 0x3dcc1ebcu, 0x3fb983d77fb56120ull},
    {4, 0x40490fdbu, 0x3f7f0bb0u, 0x3fefe175fa8292dfull},
    {4, 0xc0200000u, 0xbf7c92c1u, 0xbfef9258260a71c2ull},
    {4, 0x41200000u, 0x3f800000u, 0x3feffffffdc96f35ull},
    {4, 0x42c80000u, 0x3f800000u, 0x3ff0000000000000ull},
    {4, 0xc2fd0000u, 0xbf800000u, 0xbff0000000000000ull},
    {4, 0x42ffcccdu, 0x3f800000u, 0x3ff0000000000000ull},
    {4, 0x0da24260u, 0x0da24260u, 0x39b4484c00000000ull},
    {4, 0x3f800001u, 0x3f42f7d6u, 0x3fe85efacff5cf7bull},
    {4, 0x3f7fffffu, 0x3f42f7d5u, 0x3fe85efaa7a48582ull},
    {4, 0x42053333u, 0x3f800000u, 0x3ff0000000000000ull},
    {4, 0x49742400u, 0x3f800000u, 0x3ff0000000000000ull},
    {4, 0x4b189680u, 0x3f800000u, 0x3ff0000000000000ull},
    {4, 0xcc8583b0u, 0xbf800000u, 0xbff0000000000000ull},
    {4, 0x3e99999au, 0x3e9526eeu, 0x3fd2a4ddb38fcd7full},
};
#define NEXP (sizeof EXPECTED / sizeof EXPECTED[0])

static double run_op(int op, double x) {
  switch (op) {
  case 0:
    return ws_exp2(x);
  case 1:
    return ws_log2(x);
  case 2:
    return ws_sin(x);
  case 3:
    return ws_cos(x);
  default:
    return ws_tanh(x);
  }
}

static double libm_op(int op, double x) {
  switch (op) {
  case 0:
    return exp2(x);
  case 1:
    return log2(x);
  case 2:
    return sin(x);
  case 3:
    return cos(x);
  default:
    return tanh(x);
  }
}

static void test_fixed_bits(void) {
  for (size_t i = 0; i < NEXP; i++) {
    double r = run_op(EXPECTED[i].op, (double)u2f(EXPECTED[i].in));
    CHECK_EQ_U64(d2u(r), EXPECTED[i].f64);
    CHECK_EQ_U64(f2u((float)r), EXPECTED[i].f32);
  }
}

/* Accuracy (not bits): within 2^-48 of the host's double result (relative for ex2 and tanh,
 * absolute for lg2 near 1, sin and cos), special values exactly. */
static void test_against_libm(void) {
  uint64_t s = 12345;
  for (int i = 0; i < 200000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    int op = i % 5;
    static const double lim[5] = {140, 64, 1000, 1e6, 10};
    double x = ((double)(s >> 11) / 9007199254740992.0 * 2 - 1) * lim[op];
    if (op == 1) x = fabs(x);
    double r = run_op(op, x), ref = libm_op(op, x);
    double err = fabs(r - ref);
    if (op == 0 || op == 4 || (op == 1 && fabs(x - 1) > 0.5)) err /= fabs(ref) > 0 ? fabs(ref) : 1;
    if (!(err <= 0x1p-48)) {
      fprintf(stderr, "  op %d x %a: %a vs libm %a\n", op, x, r, ref);
      test_failures_++;
      break;
    }
  }
  CHECK(isnan(ws_exp2(NAN)) && isnan(ws_log2(-1.0)) && isnan(ws_sin(INFINITY)) && isnan(ws_cos(-INFINITY)));
  CHECK(ws_exp2(INFINITY) == INFINITY && ws_exp2(-INFINITY) == 0 && ws_exp2(2000) == INFINITY);
  CHECK(ws_log2(0.0) == -INFINITY && ws_log2(-0.0) == -INFINITY && ws_log2(INFINITY) == INFINITY);
  CHECK(ws_log2(1024.0) == 10.0 && ws_log2(0x1p-1074) == -1074.0 && ws_exp2(-1074.0) == 0x1p-1074);
  CHECK(ws_tanh(30.0) == 1.0 && ws_tanh(-30.0) == -1.0 && signbit(ws_tanh(-0.0)) && signbit(ws_sin(-0.0)));
}

/* The PTX instructions give the same f32 bits. */
static void test_through_ptx(void) {
  static const char *body[5] = {"ex2.approx.f32 %f20, %f10" ST_F, "lg2.approx.f32 %f20, %f10" ST_F,
                                "sin.approx.f32 %f20, %f10" ST_F, "cos.approx.f32 %f20, %f10" ST_F,
                                "tanh.approx.f32 %f20, %f10" ST_F};
  for (int op = 0; op < 5; op++) {
    uint64_t in[32][3], out[32][2];
    int n = 0;
    for (size_t i = 0; i < NEXP && n < 32; i++)
      if (EXPECTED[i].op == op) {
        in[n][0] = EXPECTED[i].in;
        in[n][1] = in[n][2] = 0;
        n++;
      }
    if (op_run(body[op], in, n, out)) {
      test_failures_++;
      continue;
    }
    for (int k = 0, j = 0; k < (int)NEXP; k++) {
      if (EXPECTED[k].op != op) continue;
      uint32_t want = EXPECTED[k].f32;
      if (isnan(u2f(want)))
        CHECK(isnan(u2f((uint32_t)out[j][0])));
      else
        CHECK_EQ_U64(out[j][0] & 0xFFFFFFFFu, want);
      j++;
    }
  }
}

int main(void) {
  TEST_RUN(test_fixed_bits);
  TEST_RUN(test_against_libm);
  TEST_RUN(test_through_ptx);
  return TEST_DONE();
}
