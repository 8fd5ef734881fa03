/* t503_stats.c - the statistics registry (core/stats.h): one stream of declared values gives
 * text lines named by their JSON paths with their units, JSON with the values at the right
 * precision (NaN as null), per-instance detail in JSON only, and a schema that lists each
 * statistic once (a list's first element) with its unit, aggregation, direction and
 * description. */
#include <stdlib.h>

#include "common/test.h"
#include "core/stats.h"

TEST_GLOBALS;

/* A small tree: two scalars, a group, a list of two groups, a detail list of numbers. */
static void emit(StatsOut *o) {
  STAT_U64(o, "cycles", "cycles", STAT_SUM, STAT_LOWER, "core cycles", 1234);
  STAT_F64(o, "ipc", "warp_insts/cycle", STAT_RATIO, STAT_HIGHER, 4, "warp instructions per cycle", 0.123456);
  stats_group(o, "l1d", 0, "the L1D");
  STAT_U64(o, "reads", "requests", STAT_SUM, STAT_NEUTRAL, "reads", 7);
  STAT_F64(o, "rate", "fraction", STAT_MEAN, STAT_NEUTRAL, STAT_PREC_G, "a rate", NAN);
  stats_end(o);
  stats_list(o, "kernels", 0, "launches");
  for (int k = 0; k < 2; k++) {
    stats_group(o, NULL, 0, NULL);
    STAT_STR(o, "name", "the kernel", k ? "b\"q" : "a");
    STAT_U64(o, "ctas", "ctas", STAT_SUM, STAT_NEUTRAL, "CTAs", (uint64_t)(10 + k));
    STAT_BOOL(o, "ok", "it completed", k == 0);
    stats_end(o);
  }
  stats_end(o);
  stats_list(o, "per_sm", STATS_DETAIL, "each SM");
  for (int i = 0; i < 3; i++)
    STAT_U64(o, "busy", "cycles", STAT_SUM, STAT_NEUTRAL, "busy cycles", (uint64_t)i);
  stats_end(o);
}

static char *print(StatsFormat fmt, const char *root) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  StatsOut *o = stats_open(f, fmt, root);
  emit(o);
  stats_close(o);
  fclose(f);
  return buf;
}

/* The value on the text line of `name` ("name  value unit"), or NULL. */
static const char *line_of(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
    if (!strncmp(l, name, n) && l[n] == ' ') return l + n + strspn(l + n, " ");
  return NULL;
}

static void test_text(void) {
  char *t = print(STATS_TEXT, "gpu");
  CHECK(line_of(t, "gpu.cycles") && !strncmp(line_of(t, "gpu.cycles"), "1234 cycles\n", 12));
  CHECK(line_of(t, "gpu.ipc") && !strncmp(line_of(t, "gpu.ipc"), "0.1235 warp_insts/cycle\n", 24));
  CHECK(line_of(t, "gpu.l1d.reads") && !strncmp(line_of(t, "gpu.l1d.reads"), "7 requests\n", 11));
  CHECK(line_of(t, "gpu.l1d.rate") && !strncmp(line_of(t, "gpu.l1d.rate"), "nan fraction\n", 13));
  CHECK(line_of(t, "gpu.kernels[1].ctas") && !strncmp(line_of(t, "gpu.kernels[1].ctas"), "11 ctas\n", 8));
  CHECK(line_of(t, "gpu.kernels[1].name") && !strncmp(line_of(t, "gpu.kernels[1].name"), "b\"q\n", 4));
  CHECK(line_of(t, "gpu.kernels[1].ok") && !strncmp(line_of(t, "gpu.kernels[1].ok"), "false\n", 6));
  CHECK(!strstr(t, "per_sm")); /* detail: JSON only */
  free(t);
}

static void test_json(void) {
  char *j = print(STATS_JSON, "gpu");
  CHECK_STR_CONTAINS(j, "{\"cycles\": 1234, \"ipc\": 0.1235,");
  CHECK_STR_CONTAINS(j, "\"l1d\": {\"reads\": 7, \"rate\": null}");
  CHECK_STR_CONTAINS(j, "\"kernels\": [{\"name\": \"a\", \"ctas\": 10, \"ok\": true}, "
                        "{\"name\": \"b\\\"q\", \"ctas\": 11, \"ok\": false}]");
  CHECK_STR_CONTAINS(j, "\"per_sm\": [0, 1, 2]}");
  CHECK(!strstr(j, "gpu")); /* the root names text lines only */
  free(j);
}

static void test_schema(void) {
  char *s = print(STATS_SCHEMA, "gpu");
  CHECK_STR_CONTAINS(
      s, "{\"name\": \"gpu.cycles\", \"type\": \"u64\", \"unit\": \"cycles\", \"aggregation\": \"sum\", "
         "\"better\": \"lower\", \"description\": \"core cycles\"}");
  CHECK_STR_CONTAINS(
      s, "\"name\": \"gpu.ipc\", \"type\": \"f64\", \"unit\": \"warp_insts/cycle\", \"aggregation\": "
         "\"ratio\", \"better\": \"higher\"");
  CHECK_STR_CONTAINS(s, "{\"name\": \"gpu.l1d\", \"type\": \"group\", \"description\": \"the L1D\"}");
  CHECK_STR_CONTAINS(s, "\"name\": \"gpu.kernels[].ctas\"");
  CHECK_STR_CONTAINS(
      s, "\"name\": \"gpu.kernels[].ok\", \"type\": \"bool\", \"unit\": \"\", \"aggregation\": \"info\"");
  CHECK_STR_CONTAINS(
      s, "{\"name\": \"gpu.per_sm\", \"type\": \"list\", \"description\": \"each SM\", \"detail\": true}");
  CHECK_STR_CONTAINS(s, "\"name\": \"gpu.per_sm[]\", \"type\": \"u64\"");
  /* each statistic once: the second kernel and the other SMs add nothing */
  const char *first = strstr(s, "gpu.kernels[].ctas");
  CHECK(first && !strstr(first + 1, "gpu.kernels[].ctas"));
  const char *sm = strstr(s, "\"gpu.per_sm[]\"");
  CHECK(sm && !strstr(sm + 1, "\"gpu.per_sm[]\""));
  free(s);
}

int main(void) {
  TEST_RUN(test_text);
  TEST_RUN(test_json);
  TEST_RUN(test_schema);
  return TEST_DONE();
}
