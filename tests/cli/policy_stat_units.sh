#!/usr/bin/env bash
# Every statistic of every registered policy (warp schedulers, fetch policies, observers, cache
# policies: the names `warpsim stats --schema` lists as valid for a bad one) has a unit and its
# own description in `warpsim stats --schema` (policy_stat_u64/f64/ratio), per instance too.
set -eu
W=${WARPSIM:-build/rel/warpsim}
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# valid KEY: the names a bad value of KEY lists ("... (valid: a, b, c)")
valid() {
  local out
  out=$($W stats --schema --set "$1=no-such-policy" 2>&1) && fail "$1=no-such-policy accepted"
  printf '%s\n' "$out" | sed -nE 's/.*\(valid: ([^)]*)\).*/\1/p' | sed -E 's/, or none$//; s/, /\n/g'
}
# check ARGS...: the schema of a configuration; every policy statistic described
check() {
  $W stats --schema "$@" > "$d/schema.json" 2> "$d/err" || fail "stats --schema $*: $(cat "$d/err")"
  python3 - "$d/schema.json" "$*" << 'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc if isinstance(doc, list) else doc.get("statistics", doc.get("stats", []))
bad, n = [], 0
for r in rows:
    name = r.get("name", "")
    if not name.startswith("gpu.policies.") or r.get("type") in ("group", "list", "str"):
        continue
    n += 1
    if not r.get("unit"):
        bad.append(f"{name}: no unit")
    defaults = ("", "a policy's own statistic, over its instances", "the statistic on one instance")
    if r.get("description", "") in defaults:
        bad.append(f"{name}: no description")
if bad:
    print(f"FAIL: {sys.argv[2]}:\n  " + "\n  ".join(bad), file=sys.stderr)
    sys.exit(1)
print(f"{sys.argv[2]}: {n} policy statistics described")
PY
}
n=0
for p in $(valid sched.policy); do
  args=(--set "sched.policy=$p")
  check "${args[@]}" > /dev/null
  n=$((n + 1))
done
for p in $(valid sm.fetch_policy); do
  s=gto; [ "$p" = sched ] && s=mwf-gto
  check --set "sm.fetch_policy=$p" --set "sched.policy=$s" > /dev/null; n=$((n + 1))
done
files=$($W config | sed -nE 's/^(observer\.[a-z0-9-]+\.file) .*/\1/p')  # the observers that need a file
for p in $(valid sm.observers); do
  args=(--set "sm.observers=$p" --set observer.cpl.reuse_history=64)  # cpl: with its reuse statistics
  if printf '%s\n' "$files" | grep -qx "observer.$p.file"; then args+=(--set "observer.$p.file=$d/$p.out"); fi
  check "${args[@]}" > /dev/null
  n=$((n + 1))
done
for p in $(valid l1d.policy); do
  check --set "l1d.policy=$p" --set "l2.policy=$p" > /dev/null; n=$((n + 1))
done
[ $n -ge 20 ] || fail "only $n policies found"
echo "ok: $n policies"
