#!/usr/bin/env bash
# Policies are plugins: no warp scheduler, no paper technique and no
# non-trivial replacement policy is named anywhere in the SM or memory code
# (the default replacement "lru" may appear as a configuration default).
set -u
warp=$(sed -n 's/^WS_POLICY(WARP, *"\([^"]*\)".*/\1/p' src/policy/registry.def)
[ -n "$warp" ] || { echo "no warp schedulers found in registry.def"; exit 1; }
pat=$(printf '%s\n' $warp ccws cawa caws baws mwf iwarp srrip ship cacp | grep -v '^old$' | sort -u | paste -sd'|')
hits=$(grep -rnwiE "$pat" src/sm src/mem --include='*.c' --include='*.h')
if [ -n "$hits" ]; then echo "policy names in the SM/memory code:"; echo "$hits"; exit 1; fi
echo ok
