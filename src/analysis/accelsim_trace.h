/* accelsim_trace.h - writes the executed warp-instruction stream of a run as an Accel-Sim trace
 * (trace format 4: kernelslist.g plus one kernel-N.traceg per launch), so that Accel-Sim's
 * GPGPU-Sim core times exactly the instructions warpsim executed (tools/accelsim_compare.sh).
 * Observes the functional core only (ptx.h, warpsim.h): the stream is the functional execution's,
 * the same whichever engine drives it. The mapping is in doc/accelsim.md.
 */
#ifndef ACCELSIM_TRACE_H
#define ACCELSIM_TRACE_H

#include <stddef.h>

#include "runtime/warpsim.h"

typedef struct AtWriter AtWriter;

/* Creates the folder `dir` if missing (its parent must exist). NULL with the reason in err. */
AtWriter *at_create(const char *dir, char *err, size_t errlen);
/* The observer to attach with ws_ctx_set_observer: each launch becomes kernel-N.traceg (N from 1),
 * written to a temporary file and renamed when the launch ends; a failed launch leaves none. */
WsObserver at_observer(AtWriter *a);
/* Writes kernelslist.g (whole or not at all) listing the launches written. 0, or -1 with err. */
int at_finish(AtWriter *a, char *err, size_t errlen);
/* Frees the writer; removes the temporary file of a launch still open. */
void at_free(AtWriter *a);
/* Number of launches written so far. */
unsigned at_kernels(const AtWriter *a);

/* The trace opcode (Pascal SASS name, `-binary version = 61`) of the instruction at pc, run by the
 * kernel of function index `kernel`, for a memory access in `space` (PtxSpace; ignored for other
 * instructions) of `bytes` bytes per lane. */
struct PtxModule;
const char *at_opcode(const struct PtxModule *m, unsigned kernel, unsigned pc, unsigned space, unsigned bytes,
                      char *buf, size_t len);

#endif
