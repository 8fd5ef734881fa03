/* xbar.h - one subnet of GPGPU-Sim 3.2.2's intersim2 crossbar (icnt.model = intersim), flit by flit:
 * the interface's input queues and ejection/boundary buffers (interconnect_interface.cpp), and the
 * single k x k input-queued router a one-stage fly builds (networks/fly.cpp, routers/iq_router.cpp)
 * with 1 VC, iSLIP VC and switch allocation and credit flow. Sources and destinations are network
 * nodes; the caller (icnt.c) maps its ports onto them. Depends on mem_req.h only. */
#ifndef WS_XBAR_H
#define WS_XBAR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "policy/mem_req.h"

typedef struct XbarParams {
  uint32_t n_in, n_out;      /* injecting and ejecting nodes of this subnet */
  uint32_t vc_buf;           /* vc_buf_size: router input buffer (and ejection buffer) flits per VC */
  uint32_t input_buf;        /* input_buffer_size: flits HasBuffer lets a node's input queue hold */
  uint32_t boundary_buf;     /* boundary_buffer_size: flits per node between ejection and Pop */
  uint32_t internal_speedup; /* router internal steps per network cycle */
  uint32_t steps;            /* network cycles per core cycle */
  uint32_t flit_size;        /* bytes */
  bool by_flit;              /* eject every flit through its output's visit, never booked at its switch
                              * grant (the same outcome: the reference for tests) */
} XbarParams;

/* A packet that finished ejecting: its tail reached node `out`'s boundary buffer. It may be
 * popped from core cycle `ready` on; until then its flits stay in that buffer (xbar_pop frees
 * them). */
typedef void (*XbarDeliver)(void *ctx, uint32_t out, const MemRequest *r, uint32_t flits, uint64_t push,
                            uint64_t ready);

typedef struct Xbar Xbar;

Xbar *xbar_create(const XbarParams *p, XbarDeliver deliver, void *ctx, char *err, size_t errlen);
void xbar_free(Xbar *x);
/* InterconnectInterface::HasBuffer: node in's input queue holds at most input_buf flits. */
bool xbar_has_buffer(const Xbar *x, uint32_t in, uint32_t flits);
/* A packet of `flits` flits found no room at node in (xbar_has_buffer): the injection that makes
 * room marks the node for xbar_take_room (a later call for the node replaces the wait). */
void xbar_wait_room(Xbar *x, uint32_t in, uint32_t flits);
/* Some node's wait was met since the last xbar_take_room. */
bool xbar_room_pending(const Xbar *x);
/* ORs the nodes whose waits were met into nodes[] (a bit per node) and clears them. */
void xbar_take_room(Xbar *x, uint64_t *nodes);
/* InterconnectInterface::Push: queues a packet of `flits` flits from in to out at core cycle now. */
void xbar_push(Xbar *x, uint32_t in, uint32_t out, const MemRequest *r, uint32_t flits, uint64_t now);
/* InterconnectInterface::Pop: a delivered packet of `flits` flits left node out's boundary buffer. */
void xbar_pop(Xbar *x, uint32_t out, uint32_t flits);
/* The network cycles of core cycle `now` (GPUTrafficManager::_Step each). */
void xbar_tick(Xbar *x, uint64_t now);
/* A flit or credit is somewhere in the network: the next core cycle must tick. */
bool xbar_busy(const Xbar *x);
/* Core cycles from pushing a 1-flit packet into an empty network to its first cycle of pop. */
uint32_t xbar_unloaded_latency(const XbarParams *p);
/* Network cycles a node's next flit could not be injected (no credit for the router's input
 * buffer; intersim2 also checks that a head finds its VC free, which it always does here: the
 * node's previous packet has sent its tail), and head-cycles that lost VC allocation to another
 * input. */
uint64_t xbar_inject_stalls(const Xbar *x);
uint64_t xbar_vc_conflicts(const Xbar *x);
void xbar_dump(const Xbar *x, FILE *out);

#endif
