/* t501_config.c - configuration: typed values, files with include, --set
 * overrides after files, unknown-key and bad-value messages with file:line,
 * sorted text/JSON output, and the presets. Runs from the repository root. */
#include <stdlib.h>
#include <unistd.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "policy/registry.h"

TEST_GLOBALS;

static char tmpdir[64];

static void write_file(const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static const char *tmp_path(const char *name) {
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  return path;
}

/* Captures a printer's output in a malloc'd string. */
static char *capture(void (*print)(const Config *, FILE *), const Config *cfg) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  print(cfg, f);
  fclose(f);
  return buf;
}

static const CfgParam test_params[] = {
    {.key = "size", .type = CFG_INT, .def = "16K", .min = 1, .max = 1 << 30, .desc = "bytes"},
    {.key = "ratio", .type = CFG_DOUBLE, .def = "0.5", .desc = "a ratio"},
    {.key = "on", .type = CFG_BOOL, .def = "false", .desc = "a switch"},
    {.key = "name", .type = CFG_STRING, .def = "x", .desc = "a name"},
    {.key = "mode", .type = CFG_ENUM, .def = "a", .choices = "a|bb|c", .desc = "a mode"},
    {0},
};
static const CfgGroup test_groups[] = {
    {"t.", test_params, NULL},
    {"u.", test_params, "size=2K mode=c"},
    {NULL, NULL, NULL},
};

static void test_types_and_defaults(void) {
  Config *c = cfg_create_schema(test_groups);
  CHECK_EQ_U64(cfg_int(c, "t.size"), 16384);
  CHECK_EQ_U64(cfg_int(c, "u.size"), 2048);
  CHECK(!strcmp(cfg_str(c, "u.mode"), "c"));
  CHECK(cfg_double(c, "t.ratio") == 0.5);
  CHECK(!cfg_bool(c, "t.on"));
  CHECK(!strcmp(cfg_origin(c, "t.size"), "default"));
  CHECK(cfg_set(c, "t.size = 3M") == 0);
  CHECK_EQ_U64(cfg_int(c, "t.size"), 3 * 1024 * 1024);
  CHECK(cfg_set(c, "t.size=768KB") == 0);
  CHECK_EQ_U64(cfg_int(c, "t.size"), 768 * 1024);
  CHECK(cfg_set(c, "t.size=0x80") == 0);
  CHECK_EQ_U64(cfg_int(c, "t.size"), 128);
  CHECK(cfg_set(c, "t.on=yes") == 0 && cfg_bool(c, "t.on"));
  CHECK(cfg_set(c, "t.ratio=1e-3") == 0 && cfg_double(c, "t.ratio") == 1e-3);
  CHECK(cfg_set(c, "t.name=\"hello world\"") == 0 && !strcmp(cfg_str(c, "t.name"), "hello world"));
  CHECK(cfg_set(c, "t.mode=bb") == 0 && !strcmp(cfg_str(c, "t.mode"), "bb"));
  CHECK_EQ_U64(cfg_int_in(c, "u", "size"), 2048);
  CHECK(!strcmp(cfg_origin(c, "t.mode"), "--set"));
  cfg_free(c);
}

static void test_bad_values(void) {
  Config *c = cfg_create_schema(test_groups);
  CHECK(cfg_set(c, "t.size=12Q") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "--set: bad value '12Q' for t.size (int)");
  CHECK(cfg_set(c, "t.size=0") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "out of range [1, 1073741824]");
  CHECK(cfg_set(c, "t.size=99999999999999999999") != 0);
  CHECK(cfg_set(c, "t.on=maybe") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "expected true or false");
  CHECK(cfg_set(c, "t.mode=d") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "expected one of a|bb|c");
  CHECK(cfg_set(c, "t.ratio=abc") != 0);
  CHECK(cfg_set(c, "t.ratio=inf") != 0);
  CHECK(cfg_set(c, "t.ratio=") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "missing value");
  CHECK(cfg_set(c, "t.ratio") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "expected key=value");
  /* rejected values leave the old value in place */
  CHECK_EQ_U64(cfg_int(c, "t.size"), 16384);
  write_file("bad.cfg", "# comment\nt.size = 4K\n\nt.on = 2\n");
  CHECK(cfg_load_file(c, tmp_path("bad.cfg")) != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "bad.cfg:4: bad value '2' for t.on (bool)");
  write_file("syntax.cfg", "t.size 4K\n");
  CHECK(cfg_load_file(c, tmp_path("syntax.cfg")) != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "syntax.cfg:1: expected 'key = value'");
  cfg_free(c);
}

static void test_unknown_key(void) {
  Config *c = cfg_create();
  write_file("unk.cfg", "l1d.size = 32K\nl1d.asoc = 8\n");
  CHECK(cfg_load_file(c, tmp_path("unk.cfg")) != 0);
  const char *e = cfg_error(c);
  CHECK_STR_CONTAINS(e, "unk.cfg:2: unknown key 'l1d.asoc'");
  CHECK_STR_CONTAINS(e, "did you mean l1d.assoc");
  CHECK_STR_CONTAINS(e, "valid keys under 'l1d.': l1d.assoc, l1d.bypass_cg");
  CHECK_STR_CONTAINS(e, "l1d.write_policy");
  CHECK(cfg_set(c, "dram.tcl=10") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "did you mean dram.tCL");
  CHECK(cfg_set(c, "nosuch.key=1") != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "--set: unknown key 'nosuch.key'");
  CHECK_STR_CONTAINS(
      cfg_error(c),
      "valid sections: dram, icnt, l1c, l1d, l1i, l2, limit, mem, observer, sched, sim, sm, timeline, unit");
  cfg_free(c);
}

static void test_include_and_overrides(void) {
  write_file("base.cfg", "t.size = 1K   # base\nt.mode = bb\nt.name = base\n");
  write_file("mid.cfg", "include base.cfg\nt.size = 2K\n");
  write_file("top.cfg", "include \"mid.cfg\"\nt.on = true\n");
  Config *c = cfg_create_schema(test_groups);
  const char *files[] = {tmp_path("top.cfg")};
  char f0[256];
  snprintf(f0, sizeof f0, "%s", files[0]);
  files[0] = f0;
  const char *sets[] = {"t.size=8K", "t.name=cli"};
  CHECK(cfg_resolve(c, files, 1, sets, 2) == 0);
  CHECK_EQ_U64(cfg_int(c, "t.size"), 8192);   /* --set wins over every file */
  CHECK(!strcmp(cfg_str(c, "t.mode"), "bb")); /* from the innermost include */
  CHECK(cfg_bool(c, "t.on"));
  CHECK(!strcmp(cfg_str(c, "t.name"), "cli"));
  CHECK_STR_CONTAINS(cfg_origin(c, "t.mode"), "base.cfg:2");
  CHECK(!strcmp(cfg_origin(c, "t.size"), "--set"));
  write_file("missing.cfg", "include nothere.cfg\n");
  CHECK(cfg_load_file(c, tmp_path("missing.cfg")) != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "missing.cfg:1: include: cannot open");
  CHECK_STR_CONTAINS(cfg_error(c), "nothere.cfg");
  write_file("loop.cfg", "include loop.cfg\n");
  CHECK(cfg_load_file(c, tmp_path("loop.cfg")) != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "include nesting deeper than");
  CHECK(cfg_load_file(c, tmp_path("none.cfg")) != 0);
  CHECK_STR_CONTAINS(cfg_error(c), "cannot open config");
  cfg_free(c);
}

static void test_print_text_json(void) {
  Config *c = cfg_create_schema(test_groups);
  CHECK(cfg_set(c, "t.name=a \"q\"") == 0);
  CHECK(cfg_set(c, "t.ratio=0.1") == 0);
  char *json = capture(cfg_print_json, c);
  CHECK_STR_CONTAINS(json, "{\n  \"t.mode\": \"a\",\n  \"t.name\": \"a \\\"q\\\"\",\n  \"t.on\": false,\n"
                           "  \"t.ratio\": 0.1,\n  \"t.size\": 16384,\n  \"u.mode\": \"c\"");
  char *text = capture(cfg_print_text, c);
  CHECK_STR_CONTAINS(text, "t.size = 16384  # bytes\n");
  /* the text form loads back to the same config */
  Config *d = cfg_create_schema(test_groups);
  CHECK(cfg_load_string(d, text, "printed") == 0);
  char *json2 = capture(cfg_print_json, d);
  CHECK(json && json2 && !strcmp(json, json2));
  free(json), free(json2), free(text);
  cfg_free(c), cfg_free(d);
  /* the full schema is sorted */
  Config *full = cfg_create();
  for (size_t i = 1; i < cfg_count(full); i++)
    CHECK(strcmp(cfg_key_at(full, i - 1), cfg_key_at(full, i)) < 0);
  cfg_free(full);
}

/* Is k a parameter of some policy (under its kind's root and its name)? */
static int policy_param_key(const char *k) {
  static const char *const caches[] = {"l1d", "l1i", "l1c", "l2"};
  for (const PolicyEntry *e = policy_registry; e->name; e++) {
    if (!policy_params(e)) continue;
    char pre[128];
    for (int c = 0; c < (e->kind == POLICY_CACHE ? 4 : 1); c++) {
      snprintf(pre, sizeof pre, "%s.%s.", e->kind == POLICY_CACHE ? caches[c] : policy_param_root(e->kind),
               e->name);
      if (!strncmp(k, pre, strlen(pre))) return 1;
    }
  }
  return 0;
}

static void test_presets(void) {
  Config *c = cfg_create();
  CHECK(cfg_load_file(c, "configs/gtx480.cfg") == 0);
  /* the baseline preset sets every key explicitly, except policies' own
   * parameters ("sched.<name>.", "<cache>.<name>.", ...): a new policy needs
   * no line there (its defaults are in its table) */
  for (size_t i = 0; i < cfg_count(c); i++) {
    const char *k = cfg_key_at(c, i);
    if (policy_param_key(k)) continue;
    if (!strstr(cfg_origin(c, k), "gtx480.cfg:")) fprintf(stderr, "gtx480.cfg does not set %s\n", k);
    CHECK(strstr(cfg_origin(c, k), "gtx480.cfg:") != NULL);
  }
  CHECK_EQ_U64(cfg_int(c, "sm.count"), 15);
  CHECK_EQ_U64(cfg_int(c, "l1d.size"), 16384);
  CHECK_EQ_U64(cfg_int(c, "l2.size"), 768 * 1024);
  CHECK_EQ_U64(cfg_int(c, "l2.min_latency"), 120);
  CHECK_EQ_U64(cfg_int(c, "dram.min_latency"), 220);
  CHECK(!strcmp(cfg_str(c, "sm.mem_issue"), "collector")); /* GPGPU-Sim 3.2.2's memory-instruction path */
  /* the built-in defaults are the GTX480 values too */
  Config *d = cfg_create();
  char *a = capture(cfg_print_json, c), *b = capture(cfg_print_json, d);
  CHECK(a && b && !strcmp(a, b));
  free(a), free(b);
  cfg_free(d);
  cfg_free(c);
  c = cfg_create();
  CHECK(cfg_load_file(c, "configs/ccws-gt200.cfg") == 0);
  CHECK_EQ_U64(cfg_int(c, "sm.count"), 30);
  CHECK_EQ_U64(cfg_int(c, "sm.max_warps"), 32);
  CHECK_EQ_U64(cfg_int(c, "sched.count"), 1);
  CHECK_EQ_U64(cfg_int(c, "l1d.size"), 32768);
  CHECK_EQ_U64(cfg_int(c, "l1d.assoc"), 8);
  CHECK_EQ_U64(cfg_int(c, "mem.partitions"), 8);
  CHECK_EQ_U64(cfg_int(c, "l2.size"), 1024 * 1024);
  CHECK_STR_CONTAINS(cfg_origin(c, "l1d.line_size"), "gtx480.cfg:"); /* inherited */
  CHECK(!strcmp(cfg_str(c, "sm.mem_issue"), "collector"));           /* inherited too */
  CHECK(cfg_set(c, "l1d.assoc=16") == 0);
  CHECK_EQ_U64(cfg_int(c, "l1d.assoc"), 16);
  cfg_free(c);
}

static void test_component_error(void) {
  Config *c = cfg_create();
  write_file("pol.cfg", "l1d.policy = lur\n");
  CHECK(cfg_load_file(c, tmp_path("pol.cfg")) == 0); /* strings are checked by their reader */
  char err[512];
  CHECK(cfg_errorf(c, "l1d.policy", err, sizeof err, "unknown cache policy '%s'", cfg_str(c, "l1d.policy")) ==
        -1);
  CHECK_STR_CONTAINS(err, "pol.cfg:1: l1d.policy: unknown cache policy 'lur'");
  cfg_free(c);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/ws_t501_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  TEST_RUN(test_types_and_defaults);
  TEST_RUN(test_bad_values);
  TEST_RUN(test_unknown_key);
  TEST_RUN(test_include_and_overrides);
  TEST_RUN(test_print_text_json);
  TEST_RUN(test_presets);
  TEST_RUN(test_component_error);
  const char *names[] = {"bad.cfg", "syntax.cfg",  "unk.cfg",  "base.cfg", "mid.cfg",
                         "top.cfg", "missing.cfg", "loop.cfg", "pol.cfg"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) unlink(tmp_path(names[i]));
  rmdir(tmpdir);
  return TEST_DONE();
}
