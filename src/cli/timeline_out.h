/* timeline_out.h - the timeline file of run and launch (cli/timeline_out.c). */
#ifndef WS_TIMELINE_OUT_H
#define WS_TIMELINE_OUT_H

#include <sys/types.h>

#include "core/outfile.h"
#include "core/config.h"
#include "sim/gpu.h"

typedef struct CliTimeline {
  OutFile of;
  FILE *f;  /* what the recorder writes to: of.f, or the pipe to gzip; NULL: no timeline */
  pid_t gz; /* the gzip process, -1 none */
} CliTimeline;

/* Opens timeline.file if cfg names one (t->f set): 0, or -1 after printing why. */
int cli_timeline_open(CliTimeline *t, const Config *cfg, const char *cmd);
/* Ends the recorder's JSON (gpu_timeline_finish), then makes the file appear whole: 0, or -1
 * after printing why (the file is then left out). Nothing to do without a timeline. */
int cli_timeline_close(CliTimeline *t, Gpu *g, const char *cmd);
void cli_timeline_abort(CliTimeline *t);

#endif
