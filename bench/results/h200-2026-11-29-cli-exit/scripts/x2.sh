#!/bin/bash
# Call 2: where the exit's ~0.1 s (CPU) goes: the process's huge pages at its exit (smaps-hook.mjs), RMAT 24 weighted wcc,
# CPU-only and GPU-only, B; then louvain on RMAT 16 weighted: tol.mjs with and without batched gathering, lv.mjs schedules.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
for topo in cpu gpu; do TA="--topology configs/1S.yaml"; [ $topo = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  node --import ./$F/smaps-hook.mjs dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc $TA -q 2>&1 | sed "s/^/$topo: /"; done > /tmp/o/smaps.txt; log smaps $?
grep -i huge /proc/meminfo >> /tmp/o/smaps.txt; cat /sys/kernel/mm/transparent_hugepage/khugepaged/defrag >> /tmp/o/smaps.txt 2>&1
t1=$(date +%s); [ -f /tmp/g16.tsr ] || timeout 60 node dist/src/cli/main.js generate rmat --scale 16 --weighted --out /tmp/g16.tsr > /dev/null 2>&1
timeout 120 node $F/tol.mjs /tmp/g16.tsr 9 '[{},{"batchVertices":0},{},{"batchVertices":0}]' > /tmp/o/tol.txt 2>&1; log tol $?
t1=$(date +%s); for nb in 0 1; do NOBATCH=$nb timeout 120 node $F/lv.mjs /tmp/g16.tsr '[{},{"tolC":1e-2},{"tolC":[1e-2,1e-3,1e-4]},{"tolC":1e-2,"tolCR":1e-4},{"tol0":1e-4,"tolC":1e-2}]' 9 | sed "s/^/NOBATCH=$nb /"; done > /tmp/o/lv.txt 2>&1; log lv $?
tar cJf $OUT/call2.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/smaps.txt /tmp/o/tol.txt /tmp/o/lv.txt
