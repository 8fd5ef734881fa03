/* l1d_trace.c - an SM observer that writes every L1D access of global/local
 * loads and stores to a text file, in simulation order (`sm.observers =
 * l1d-trace`, `observer.l1d-trace.file = PATH`): the input of offline cache
 * studies such as Belady-optimal replacement (CCWS's Figure 8). One file for
 * the whole GPU, shared by the SMs' instances through a policy_shared block;
 * a policy output (policy_env.h): opened when the first kernel begins, PATH
 * holds a whole trace of a completed run or is left as it was.
 *
 * Format: '#' lines (a header; "# kernel NAME INDEX" at each kernel), then one
 * line per line request: cycle sm warp_slot cta_id pc line_addr outcome, with
 * pc in the policies' PC space, line_addr in hex and outcome H (hit),
 * M (miss: allocated), G (merged into a pending miss), B (bypassed) or
 * S (store: write-evict, the line is invalidated if present), A (an atomic
 * that found its line valid: the L1 counts a read hit and LRU promotes the
 * line; other atomics go down without touching the L1), and one line
 * F per fill (the line's data arrived: it is no longer reserved, so LRU may
 * evict it; warp_slot is the allocating warp, 4294967295 if it exited). At each
 * kernel's end every SM adds "# insts SM N": the warp instructions it issued
 * in that kernel (the MPKI denominator of `warpsim belady`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/warp_sched.h"

typedef struct TraceFile {
  FILE *f; /* NULL until the first kernel begins (or if it cannot be opened) */
  PolicyGpu *gpu;
  int out;          /* policy_out handle */
  int named;        /* the first SM named the output */
  uint32_t kernels; /* KERNEL_BEGIN lines written (one per kernel, not per SM) */
} TraceFile;

typedef struct Trace {
  TraceFile *tf;
  uint32_t sm;
  uint64_t lines;
  uint64_t insts; /* warp instructions issued in the running kernel */
} Trace;

static const CfgParam trace_params[] = {
    {.key = "file", .type = CFG_STRING, .def = "", .desc = "path of the L1D access trace (required)"},
    {0},
};

/* The output is closed by the GPU: nothing may write to it after the run. */
static void trace_file_fini(void *block) { ((TraceFile *)block)->f = NULL; }

static int trace_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  const char *path = cfg_str_in(env->cfg, env->prefix, "file");
  char key[128];
  snprintf(key, sizeof key, "%s.file", env->prefix);
  if (!path[0]) return cfg_errorf(env->cfg, key, err, errlen, "the l1d-trace observer needs a file to write");
  TraceFile *tf = policy_shared(env->gpu, "l1d-trace", sizeof *tf, trace_file_fini);
  Trace *t = calloc(1, sizeof *t);
  if (!tf || !t) {
    free(t);
    return cfg_errorf(env->cfg, key, err, errlen, "out of memory");
  }
  if (!tf->named) { /* the first SM names it: an unwritable path fails now */
    char msg[1400];
    tf->gpu = env->gpu;
    if ((tf->out = policy_out(env->gpu, key, path, msg, sizeof msg)) < 0) {
      free(t);
      return cfg_errorf(env->cfg, key, err, errlen, "%s", msg);
    }
    tf->named = 1;
  }
  t->tf = tf;
  t->sm = env->sm;
  *state = t;
  return 0;
}

static void trace_free(void *state) { free(state); }

static void trace_event(void *state, const SchedEvent *ev) {
  Trace *t = state;
  char o;
  switch (ev->kind) {
  case SCHED_EV_L1_HIT:
    o = 'H';
    break;
  case SCHED_EV_L1_MISS:
    o = 'M';
    break;
  case SCHED_EV_L1_MERGE:
    o = 'G';
    break;
  case SCHED_EV_L1_BYPASS:
    o = 'B';
    break;
  case SCHED_EV_STORE:
    o = 'S';
    break;
  case SCHED_EV_L1_FILL:
    o = 'F';
    break;
  case SCHED_EV_L1_ATOMIC_HIT:
    o = 'A';
    break;
  case SCHED_EV_KERNEL_BEGIN:
    if (!t->tf->f && !t->tf->kernels) { /* opened when the run really starts */
      if (!(t->tf->f = policy_out_file(t->tf->gpu, t->tf->out))) return;
      fprintf(t->tf->f,
              "# warpsim L1D access trace: cycle sm warp_slot cta_id pc line_addr outcome (H hit, M miss, "
              "G merged, B bypassed, S store, A atomic hit, F fill)\n");
    }
    if (!t->tf->f) return;
    if (ev->kernel->launch_index >= t->tf->kernels) { /* the first SM to hear of it */
      t->tf->kernels = ev->kernel->launch_index + 1;
      fprintf(t->tf->f, "# kernel %s %u\n", ev->kernel->name, ev->kernel->launch_index);
    }
    return;
  case SCHED_EV_KERNEL_END:
    if (t->tf->f) fprintf(t->tf->f, "# insts %u %llu\n", t->sm, (unsigned long long)t->insts);
    t->insts = 0;
    return;
  default:
    return;
  }
  t->lines += o != 'F';
  if (t->tf->f)
    fprintf(t->tf->f, "%llu %u %u %u %u %llx %c\n", (unsigned long long)ev->cycle, t->sm, ev->slot,
            ev->cta_id, ev->pc, (unsigned long long)ev->line_addr, o);
}

static void trace_issue(void *state, const WarpView *v, const SchedIssue *is) {
  (void)v, (void)is;
  ((Trace *)state)->insts++;
}

static void trace_stats(void *state, PolicyStats *out) {
  policy_stat_u64(out, "traced_accesses", "requests", "L1D line requests written to the trace file",
                  ((Trace *)state)->lines);
}

const SmObserver observer_l1d_trace = {.name = "l1d-trace",
                                       .params = trace_params,
                                       .init = trace_init,
                                       .free = trace_free,
                                       .on_event = trace_event,
                                       .on_issue = trace_issue,
                                       .stats = trace_stats,
                                       .shares_state = policy_shares_always,
                                       .hints = &(const PolicyEngineHints){.l1_stream_events = true}};
