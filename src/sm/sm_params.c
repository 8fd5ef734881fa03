/* sm_params.c - the SM pipeline's parameters with GPGPU-Sim 3.x GTX480
 * defaults (gpgpusim.config of the GTX480 preset: -gpgpu_shader_core_pipeline
 * 1536:32, -gpgpu_shader_cta 8, -gpgpu_shader_registers 32768,
 * -gpgpu_num_sched_per_core 2, -ptx_opcode_latency_* and _initiation_*).
 * The SM model reads them; the memory system reads sm.count and sm.clock_mhz.
 * Depends on config.h. */
#include "sm/sm_params.h"

const CfgParam sm_cfg_params[] = {
    {.key = "count",
     .type = CFG_INT,
     .def = "15",
     .min = 1,
     .max = 4096,
     .desc = "streaming multiprocessors"},
    {.key = "clock_mhz",
     .type = CFG_INT,
     .def = "700",
     .min = 1,
     .max = 10000,
     .desc = "core clock (MHz); the interconnect and L2 run on it, DRAM has its own"},
    {.key = "warp_size",
     .type = CFG_INT,
     .def = "32",
     .min = 32,
     .max = 32,
     .desc = "threads per warp (32 only: PTX's warp size, which the functional core is built on)"},
    {.key = "max_warps",
     .type = CFG_INT,
     .def = "48",
     .min = 1,
     .max = 1024,
     .desc = "resident warps per SM"},
    {.key = "max_threads",
     .type = CFG_INT,
     .def = "1536",
     .min = 1,
     .max = 65536,
     .desc = "resident threads per SM"},
    {.key = "max_ctas", .type = CFG_INT, .def = "8", .min = 1, .max = 1024, .desc = "resident CTAs per SM"},
    {.key = "registers",
     .type = CFG_INT,
     .def = "32768",
     .min = 1,
     .max = 1 << 24,
     .desc = "32-bit registers per SM (occupancy limit)"},
    /* Register-count override: kernels' counts come from ptxas for a
     * later GPU than the papers compiled for; these keys recreate their builds. */
    {.key = "regs_max_per_thread",
     .type = CFG_INT,
     .def = "63",
     .min = 0,
     .max = 255,
     .desc = "cap on a kernel's registers per thread, like nvcc -maxrregcount (0 = none; 63 = the "
             "sm_20 ISA limit of the papers' Fermi builds); spill code is not added"},
    {.key = "regs_kernel",
     .type = CFG_STRING,
     .def = "none",
     .desc = "per-kernel registers per thread, 'kernel=n[,kernel=n...]' (exact kernel names; "
             "replaces the compiled count, then the cap applies); none = no kernel"},
    {.key = "regs_alloc_unit",
     .type = CFG_INT,
     .def = "4",
     .min = 1,
     .max = 256,
     .desc = "registers per thread are allocated in multiples of this for occupancy (GPGPU-Sim "
             "3.2.2 max_cta: (regs+3)&~3)"},
    {.key = "shared_mem",
     .type = CFG_INT,
     .def = "48K",
     .min = 0,
     .max = 1 << 24,
     .desc = "shared memory bytes per SM"},
    {.key = "shared_banks",
     .type = CFG_INT,
     .def = "32",
     .min = 1,
     .max = 1024,
     .desc = "shared memory banks"},
    {.key = "shared_latency",
     .type = CFG_INT,
     .def = "1",
     .min = 0,
     .max = 10000,
     .desc = "shared memory access cycles per conflict-free pass (bank conflicts add passes)"},
    {.key = "skip_idle_cycles",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "jump over cycles in which nothing can happen and re-simulate no SM stage whose inputs "
             "did not change (results are identical either way; false checks it)"},
    {.key = "const_latency",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 10000,
     .desc = "cycles of a constant/parameter load where sm.const_cache is false"},
    {.key = "const_cache",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "constant and kernel-parameter loads go through the per-SM constant cache (l1c.*), one "
             "access per distinct line per cycle, misses to the L2 (GPGPU-Sim 3.2.2); false: every such "
             "load takes sm.const_latency"},
    {.key = "ibuffer_slots",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 64,
     .desc = "I-buffer entries per warp"},
    {.key = "max_insn_issue_per_warp",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 8,
     .desc =
         "instructions of the same warp a scheduler may issue in one cycle, in I-buffer order, each only if "
         "the one before it issued (GPGPU-Sim -gpgpu_max_insn_issue_per_warp)"},
    {.key = "ldst_queue",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 16,
     .desc =
         "memory instructions that may issue while the LD/ST unit holds one and wait for it in issue "
         "order, one entering per cycle (GPGPU-Sim 3.2.2: the ID_OC_MEM and OC_EX_MEM pipeline registers "
         "and the memory collector units, 1 + 1 + 2); 0: a memory instruction issues only to a free unit"},
    {.key = "coalesce",
     .type = CFG_ENUM,
     .def = "arch13",
     .choices = "arch13|line",
     .desc = "how a warp's global/local accesses group into L1D requests: arch13 = GPGPU-Sim 3.2.2's "
             "memory_coalescing_arch_13, one request per 32 B segment for 1-byte, per 64 B segment for "
             "2-byte and per line for wider accesses (element size; atomics per line); line = one request "
             "per L1D line whatever the size"},
    {.key = "mem_issue",
     .type = CFG_ENUM,
     .def = "collector",
     .choices = "unit|collector",
     .desc = "how a memory instruction reaches the LD/ST unit: unit = it issues only to a free unit "
             "(its operands through the calendar); collector = GPGPU-Sim 3.2.2's path: it issues "
             "whenever the one-slot ID_OC_MEM register is free, a free memory collector unit "
             "(sm.oc_units_mem) takes it the next cycle and reads its registers, ready units go "
             "round-robin into the one-slot OC_EX_MEM register, which feeds the unit when it frees "
             "(needs sm.reg_banks > 0 and sm.ldst_queue = 0)"},
    {.key = "reg_banks",
     .type = CFG_INT,
     .def = "16",
     .min = 0,
     .max = 64,
     .desc =
         "register-file banks read by the operand collector, bank = (register + warp slot) mod banks, one "
         "read per bank per cycle (GPGPU-Sim -gpgpu_num_reg_banks, register_bank()); 0 = no operand "
         "collector "
         "stage (an instruction reaches its unit at issue)"},
    {.key = "oc_units_sp",
     .type = CFG_INT,
     .def = "6",
     .min = 1,
     .max = 64,
     .desc = "operand collector units for SP instructions (-gpgpu_operand_collector_num_units_sp)"},
    {.key = "oc_units_sfu",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 64,
     .desc = "operand collector units for SFU instructions (-gpgpu_operand_collector_num_units_sfu)"},
    {.key = "oc_units_mem",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 64,
     .desc = "operand collector units for memory instructions (-gpgpu_operand_collector_num_units_mem)"},
    {.key = "oc_ports_sp",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 8,
     .desc = "SP collector in/out ports: SP instructions entering, and leaving for their unit, per cycle "
             "(-gpgpu_operand_collector_num_in_ports_sp / _out_ports_sp)"},
    {.key = "oc_ports_sfu",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 8,
     .desc = "SFU collector in/out ports (-gpgpu_operand_collector_num_in_ports_sfu / _out_ports_sfu)"},
    {.key = "oc_ports_mem",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 8,
     .desc = "memory collector in/out ports (-gpgpu_operand_collector_num_in_ports_mem / _out_ports_mem)"},
    {.key = "fetch_width",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 64,
     .desc = "instructions fetched per fetch (one warp per cycle)"},
    {.key = "front_end",
     .type = CFG_ENUM,
     .def = "gpgpusim",
     .choices = "gpgpusim|direct",
     .desc = "fetch and I-buffer control: gpgpusim = GPGPU-Sim 3.2.2 (shader_core_ctx::fetch, "
             "scheduler_unit::cycle): a warp fetches at the pc after its last issued instruction, so after "
             "a taken branch or a reconvergence it fetches the fall-through, which the scheduler flushes "
             "when it next examines the warp (a control hazard), then fetches its real pc; an L1I miss's "
             "fill lets the warp fetch again (a hit) instead of filling its I-buffer; a refused fetch "
             "moves the round-robin pointer past the warp; direct = fetch at the warp's real pc, flush "
             "at issue, a fill fills the I-buffer, a refused fetch is retried by the same warp"},
    {.key = "exit_waits_stores",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "a warp that executed its exit retires only when every store it sent has been acknowledged "
             "(GPGPU-Sim 3.2.2 shd_warp_t::hardware_done: stores_done), so its CTA's slot frees and the "
             "kernel ends after its last store's ack; false = it retires when its loads and writes are done"},
    {.key = "fetch_policy",
     .type = CFG_STRING,
     .def = "rr",
     .desc = "fetch-selection policy (registry.def, FETCH; sched = the warp scheduler's fetch_select)"},
    {.key = "observers",
     .type = CFG_STRING,
     .def = "none",
     .desc =
         "SM observer plugins beside the warp scheduler, comma-separated (registry.def, OBSERVER), or none"},
    {.key = "deadlock_cycles",
     .type = CFG_INT,
     .def = "100000",
     .min = 0,
     .max = INT64_MAX,
     .desc = "stop a run that makes no progress for this many cycles (0 = never)"},
    {0},
};

const CfgParam sched_cfg_params[] = {
    {.key = "count",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 64,
     .desc = "warp schedulers per SM (warp w belongs to scheduler w mod count)"},
    {.key = "first",
     .type = CFG_ENUM,
     .def = "fixed",
     .choices = "rotate|fixed",
     .desc = "which scheduler issues first in a cycle, and so takes a unit the schedulers share (the "
             "LD/ST unit's ID_OC_MEM register, the SFU) before the others: rotate = scheduler "
             "(cycle mod count), as GPGPU-Sim 4.x (shader_core_ctx::issue, Issue_Prio); fixed = "
             "scheduler 0, then 1, ... every cycle, as GPGPU-Sim 3.2.2 (shader_core_ctx::issue)"},
    {0},
};

/* sched.policy sits between these two tables: the composition root declares it (src/sim/), so no
 * policy is named in the SM's code. */
const CfgParam sched_issue_cfg_params[] = {
    {.key = "issue_per_cycle",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 8,
     .desc = "instructions one scheduler issues per cycle"},
    {0},
};

/* Latency / initiation interval per opcode class, GPGPU-Sim's
 * <ADD,MAX,MUL,MAD,DIV> lists for int, fp and dp; transcendental ops (SFU)
 * take the fp DIV entry in GPGPU-Sim 3.x. */
#define UNIT(k, lat, ii, what)                                                                               \
  {.key = k ".latency", .type = CFG_INT, .def = #lat, .min = 1, .max = 100000, .desc = what " latency"}, {   \
    .key = k ".ii", .type = CFG_INT, .def = #ii, .min = 1, .max = 100000,                                    \
    .desc = what " initiation interval"                                                                      \
  }
const CfgParam unit_cfg_params[] = {
    {.key = "sp.count", .type = CFG_INT, .def = "2", .min = 1, .max = 64, .desc = "SP units per SM"},
    {.key = "sfu.count", .type = CFG_INT, .def = "1", .min = 1, .max = 64, .desc = "SFU units per SM"},
    {.key = "ldst.count", .type = CFG_INT, .def = "1", .min = 1, .max = 64, .desc = "LD/ST units per SM"},
    UNIT("int_add", 4, 1, "integer add/sub/logic"),
    UNIT("int_max", 13, 2, "integer min/max/compare"),
    UNIT("int_mul", 4, 2, "integer mul"),
    UNIT("int_mad", 5, 1, "integer mad"),
    UNIT("int_div", 145, 8, "integer div/rem"),
    UNIT("fp_add", 4, 1, "fp32 add"),
    UNIT("fp_max", 13, 2, "fp32 min/max/compare"),
    UNIT("fp_mul", 4, 1, "fp32 mul"),
    UNIT("fp_mad", 5, 1, "fp32 mad/fma"),
    UNIT("fp_div", 39, 4, "fp32 div"),
    UNIT("dp_add", 8, 8, "fp64 add"),
    UNIT("dp_max", 19, 16, "fp64 min/max/compare"),
    UNIT("dp_mul", 8, 8, "fp64 mul"),
    UNIT("dp_mad", 8, 8, "fp64 mad/fma"),
    UNIT("dp_div", 330, 130, "fp64 div"),
    UNIT("sfu", 39, 4, "SFU transcendental (sin, cos, ex2, lg2, rsqrt, sqrt, rcp)"),
    UNIT("ldst", 1, 1, "LD/ST unit pipeline before the L1/shared access"),
    {0},
};
#undef UNIT

/* Run limits: a kernel that never ends (an endless loop, a spin lock between the lanes of one
 * warp, which the SIMT stack cannot run) is stopped with a report instead of running forever.
 * Per launch; 0 = no limit. The defaults stop a runaway within minutes, not hours (functional
 * about 20 M warp instructions/s, timing about 2 M, on one core): 1e9 cycles is 1.4 s of GPU time
 * at 700 MHz, far beyond any benchmark's launch, and 4e9 warp instructions hundreds of times a
 * `small` launch (kmeans: 1.5e7 warp instructions, 2.7e7 cycles). */
const CfgParam limit_cfg_params[] = {
    {.key = "max_warp_insts",
     .type = CFG_INT,
     .def = "4000000000",
     .min = 0,
     .max = INT64_MAX,
     .desc = "stop a launch after this many warp instructions (0: never; --max-insts)"},
    {.key = "max_cycles",
     .type = CFG_INT,
     .def = "1000000000",
     .min = 0,
     .max = INT64_MAX,
     .desc = "timing model: stop a launch after this many cycles (0: never; --max-cycles)"},
    {0},
};
