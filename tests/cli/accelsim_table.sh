#!/usr/bin/env bash
# tools/accelsim_table.py: doc/fidelity.md's tables are what its doc/data rows give; on rows written
# out by hand, the Summary's aggregates (IPC correlation, geometric-mean cycle ratio, miss and IPC
# targets) worked out by hand, a rerun's row replacing the earlier one, the benchmarks outside the
# targets, the GTO/LRR pair, variant and leave-one-out tables, --update in place.
set -eu
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
# doc/fidelity.md's generated tables are what its doc/data files give (no number edited by hand)
mkdir "$d/doc" && cp -r doc/data doc/fidelity.md "$d/doc/"
python3 tools/accelsim_table.py --update "$d/doc/fidelity.md" > /dev/null
cmp -s doc/fidelity.md "$d/doc/fidelity.md" \
  || { echo "doc/fidelity.md differs from its regenerated tables:"
       diff doc/fidelity.md "$d/doc/fidelity.md" | head; exit 1; }
H=bench,size,config,sched,ws_cycles,ws_warp_insts,ws_ipc_warp,ws_ipc_thread,ws_l1d_read_miss_rate
H=$H,ws_l1d_miss_rate,ws_l2_read_miss_rate,ws_l2_miss_rate,ws_l1d_resfails,as_cycles,as_warp_insts
H=$H,as_ipc_warp,as_ipc_thread,as_l1d_read_miss_rate,as_l1d_miss_rate,as_l2_read_miss_rate
H=$H,as_l2_miss_rate,as_l1d_resfails,ws_seconds,as_seconds
cat > "$d/a.csv" <<EOT
$H
a,tiny,p,gto,50,200,4.0,1,0.9,1,1,1,0,100,200,2.0,1,0.5,1,1,1,0,0,0
a,tiny,p,gto,100,200,2.0,1,0.5,1,1,1,0,100,200,2.0,1,0.5,1,1,1,0,0,0
b,tiny,p,gto,200,200,1.0,1,0.3,1,1,1,0,100,200,2.0,1,0.4,1,1,1,0,0,0
EOT
cat > "$d/b.csv" <<EOT
$H
c,tiny,p,gto,100,400,4.0,1,,1,1,1,0,125,400,3.2,1,,1,1,1,0,0,0
a,tiny,p,lrr,200,200,1.0,1,0.6,1,1,1,0,400,200,0.5,1,0.7,1,1,1,0,0,0
EOT
T="python3 $PWD/tools/accelsim_table.py"
cd "$d"
# gto: x = (2, 1, 4), y = (2, 2, 3.2): r = 2 / (sqrt(42/9) sqrt(0.96)) = 0.945; cycle ratios 1, 2,
# 0.8: geomean 1.6^(1/3) = 1.170; read miss |0|, |0.1| (c has none): 1 of 2, mean 0.050; IPC a only
s=$($T --summary a.csv b.csv)
grep -qF '| p, gto (3) | 0.945 | 1.170 | 1 of 2 | 0.050 | 1 | a.csv, b.csv |' <<< "$s" \
  || { echo "summary: $s"; exit 1; }
grep -qF '| p, lrr (1) | - | 0.500 | 0 of 1 | 0.100 | 0 | b.csv |' <<< "$s" \
  || { echo "summary lrr: $s"; exit 1; }
t=$($T a.csv b.csv)
grep -qF '| a | 100 / 100 (1.00) | 2.00 / 2.00 | 0.500 / 0.500 |' <<< "$t" || { echo "table: $t"; exit 1; }
grep -qF 'outside the targets (2): b (IPC -50%, L1D read miss 0.300 / 0.400); c (IPC +25%)' <<< "$t" \
  || { echo "outside: $t"; exit 1; }
p=$($T --pair p a.csv b.csv)
grep -qF '| a | 100 / 100 | 200 / 400 | 0.500 / 0.500 | 0.600 / 0.700 | 0.50 / 0.25 |' <<< "$p" \
  || { echo "pair: $p"; exit 1; }
[ "$(grep -c '^| [abc] ' <<< "$p")" = 1 ] || { echo "pair rows: $p"; exit 1; }
v=$($T --variant 'V=b.csv' a.csv)
grep -qF '| a, p, lrr | - | 200 / 400 (0.50), 0.600 / 0.700 |' <<< "$v" \
  && grep -qF '| c, p, gto | - | 100 / 125 (0.80), - / - |' <<< "$v" \
  && [ "$(grep -c '^| [abc],' <<< "$v")" = 2 ] \
  || { echo "variant: $v"; exit 1; }
# leave one out: without a, (1, 4) / (2, 3.2) and without b, (2, 4) / (2, 3.2) correlate fully;
# without c, y = (2, 2) has no spread (-); ties in name order; one row left has no correlation
r=$($T --drivers 2 a.csv b.csv)
grep -qF '| p, gto (3) | 0.945 | a 1.000, b 1.000 | - |' <<< "$r" \
  && grep -qF '| p, lrr (1) | - | a - | - |' <<< "$r" || { echo "drivers: $r"; exit 1; }
if $T --drivers 0 a.csv 2> err; then echo "--drivers 0 accepted"; exit 1; fi
[ "$($T --summary '[ab].csv')" = "$s" ] || { echo "glob: $($T --summary '[ab].csv')"; exit 1; }
# --update: a marked block's old text replaced by its output, its CSVs found beside the document
# whatever the working folder; a block that fails leaves the file whole
printf 'intro\n<!-- accelsim_table --pair p a.csv b.csv -->\nold\n<!-- end accelsim_table -->\nend\n' > doc.md
(cd / && $T --update "$d/doc.md" > /dev/null)
[ "$(sed -n 1,2p doc.md | head -1)" = intro ] && ! grep -q '^old$' doc.md && [ "$(tail -1 doc.md)" = end ] \
  && grep -qF '| a | 100 / 100 | 200 / 400 |' doc.md || { echo "update:"; cat doc.md; exit 1; }
sed -i 's|b.csv -->|missing.csv -->|' doc.md; cp doc.md before.md
if $T --update doc.md 2> err; then echo "update with a missing CSV succeeded"; exit 1; fi
grep -q 'missing.csv' err && cmp -s doc.md before.md || { echo "failed update:"; cat err; exit 1; }
# a row without cycles: an error naming the file and line
{ echo "$H"; echo "a,tiny,p,gto,,200,2.0,1,0.5,1,1,1,0,100,200,2.0,1,0.5,1,1,1,0,0,0"; } > bad.csv
if $T bad.csv 2> err; then echo "a row without cycles was accepted"; exit 1; fi
grep -q 'bad.csv:2: ws_cycles' err || { echo "bad row:"; cat err; exit 1; }
echo "accelsim_table: ok"
