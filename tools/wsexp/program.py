"""program.py - a user's CUDA program in a sweep (`program NAME PATH [ARGS...]`): where a run's
program is, whether `warpsim exec` can run it (a file, executable, the CUDA runtime loaded as a
shared library), its command line, and what its outcome means: the program's exit status is its
output check. Stdlib only; spec.py parses the line, runner.py calls this for runs that have one.
"""

import os
import struct

from . import spec as specmod

# The program's exit status is its check: "PASS" at 0, else this (status.json "check").
FAIL_CHECK = "exit {}"


def resolve(run):
    """(absolute program path, args) of a run: a relative path is taken from the sweep file's
    folder; {sweepdir} in the path or an argument is that folder."""
    prog = run["program"]
    base = run.get("sweep_dir") or os.getcwd()
    path = specmod.resolve_sweepdir([prog["path"]], base)[0]
    args = specmod.resolve_sweepdir(list(prog.get("args", [])), base)
    return os.path.normpath(os.path.join(base, path)), args


def _elf_cudart(data):
    """(loads libcudart.so, defines __cudaRegisterFatBinary itself) of an ELF64 image, or None when
    it is not one. The same reading of the section headers as src/cli/exec.c."""
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2:
        return None
    end = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(end + "Q", data, 0x28)
    shentsize, shnum = struct.unpack_from(end + "HH", data, 0x3a)
    n = len(data)
    if shentsize < 64 or shoff > n or shnum * shentsize > n - shoff:
        return None
    needs = static = False
    for i in range(shnum):
        sh = shoff + i * shentsize
        typ, = struct.unpack_from(end + "I", data, sh + 4)
        off, size = struct.unpack_from(end + "QQ", data, sh + 0x18)
        link, = struct.unpack_from(end + "I", data, sh + 0x28)
        entsize, = struct.unpack_from(end + "Q", data, sh + 0x38)
        if off > n or size > n - off or link >= shnum:
            continue
        ls = shoff + link * shentsize
        stroff, strsize = struct.unpack_from(end + "QQ", data, ls + 0x18)
        if stroff > n or strsize > n - stroff:
            continue

        def name_at(v):
            if v >= strsize:
                return b""
            s = stroff + v
            z = data.find(b"\0", s, stroff + strsize)
            return data[s:z if z >= 0 else stroff + strsize]
        if typ == 6:  # SHT_DYNAMIC: DT_NEEDED entries
            for k in range(off, off + size - 15, 16):
                tag, val = struct.unpack_from(end + "QQ", data, k)
                if tag == 1 and name_at(val).startswith(b"libcudart.so"):
                    needs = True
        elif typ in (2, 11) and entsize >= 24:  # SHT_SYMTAB, SHT_DYNSYM: a defined registration entry
            for k in range(off, off + size - 23, entsize):
                name, = struct.unpack_from(end + "I", data, k)
                shndx, = struct.unpack_from(end + "H", data, k + 6)
                if shndx and name_at(name) == b"__cudaRegisterFatBinary":
                    static = True
    return needs, static


MAX_ELF = 1 << 31


def problem(path):
    """Why `warpsim exec` cannot run the program at `path`, or None."""
    if not os.path.exists(path):
        return f"{path}: no such file (build the program first; a relative path is taken from the sweep file's folder)"
    if not os.path.isfile(path):
        return f"{path}: not a regular file"
    if not os.access(path, os.X_OK):
        return f"{path}: not executable (chmod +x, or is it the source?)"
    try:
        if os.path.getsize(path) > MAX_ELF:
            return None
        with open(path, "rb") as f:
            facts = _elf_cudart(f.read())
    except OSError as e:
        return f"{path}: cannot read it: {e.strerror}"
    except struct.error:
        return None  # a damaged ELF: warpsim exec says what it finds
    if facts and facts[1] and not facts[0]:
        return (f"{path} links the CUDA runtime statically (nvcc's default), so warpsim's libcudart.so cannot "
                f"replace it: rebuild it with nvcc -cudart shared")
    return None


def command(warpsim, run, sets, stats_path):
    """warpsim exec --config C --set K=V... --json STATS -- PROGRAM ARGS."""
    path, args = resolve(run)
    cmd = [warpsim, "exec", "--config", run["config_path"]]
    for s in sets:
        cmd += ["--set", s]
    return cmd + ["--json", stats_path, "--", path] + args


def check(stats):
    """status.json's check of a program run: PASS when it exited 0, else its exit status."""
    st = (stats or {}).get("exit_status") if isinstance(stats, dict) else None
    if not isinstance(st, int) or isinstance(st, bool):
        return None
    return "PASS" if st == 0 else FAIL_CHECK.format(st)


def classify(rc, stats, message):
    """(state, message) of a finished `warpsim exec` of a program (no timeout, no signal to
    warpsim itself: runner.classify handles those). `message` is the log's failure line. An ok
    state is still checked as a stats.json by the caller. A deadlock or a limit inside a launch is
    a failed launch here (state error, the library's message)."""
    if isinstance(stats, dict) and check(stats):
        status = stats["exit_status"]
        for key, what in (("unsupported_calls", "CUDA call(s) warpsim does not support"),
                          ("failed_launches", "failed kernel launch(es)")):
            n = stats.get(key)
            if isinstance(n, int) and n > 0:
                return "error", "; ".join(x for x in (f"{n} {what}", message) if x)
        if status == 0 and rc == 0:
            return "ok", ""
        return "mismatch", "; ".join(x for x in (f"the program's check failed: exit status {status}", message) if x)
    # no statistics: warpsim refused to start it, or the program died before its exit handlers
    if rc == 2:
        return "usage", message or "warpsim exec: bad option or configuration (exit status 2)"
    if rc >= 128:
        return "crash", "; ".join(x for x in (f"the program was killed by signal {rc - 128}", message) if x)
    return "error", "; ".join(x for x in (f"exit status {rc}, no statistics", message) if x)


def spec_problem(sp):
    """The first program of a parsed sweep that `warpsim exec` cannot run, as 'FILE:LINE: program
    NAME: why', or None (checked before anything runs: every run of it would fail alike)."""
    base = os.path.dirname(os.path.abspath(sp.path))
    for name, prog in sp.programs.items():
        path, _ = resolve({"program": prog, "sweep_dir": base})
        why = problem(path)
        if why:
            return f"{sp.path}:{prog['line']}: program {name}: {why}"
    return None


def message(log_text):
    """The line of a program run's log that explains it: warpsim's first own message (an
    unsupported call, a failed launch, a refusal of exec), else the program's last line of output
    before exec's summary (which starts 'program ')."""
    out = []
    for ln in log_text.splitlines()[1:]:
        s = ln.strip()
        if s.startswith("warpsim"):
            return s[:400]
        if ln.startswith("program "):
            break
        if s:
            out.append(s)
    return out[-1][:400] if out else ""
