/* approx.h - PTX's approximate transcendentals computed without the host's libm (approx.c):
 * the same bits on every host. Error bounds are in approx.c's header. */
#ifndef WS_PTX_APPROX_H
#define WS_PTX_APPROX_H

double ws_exp2(double x);
double ws_log2(double x);
double ws_sin(double x);
double ws_cos(double x);
double ws_tanh(double x);

#endif
