#!/bin/bash
# Call 1: the pooled arrays page-locked before each run (PIN=1) against not (PIN=0), in turn, three engines a cell, GPU-only RMAT 24 weighted: wcc, bfs, pr (10 iterations).
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in wcc bfs pr; do
  for i in 1 2 3; do
    echo "== $c pin0"; PIN=0 timeout 60 node $S/pin.mjs $c /tmp/g24.tsr 6
    echo "== $c pin1"; PIN=1 timeout 60 node $S/pin.mjs $c /tmp/g24.tsr 6
  done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
done
grep -h "pinned\|unpinned" /tmp/o/*.txt | sort | uniq -c | sort -rn | head -20 > /tmp/o/pins.txt
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/ratios.txt /tmp/o/phases.txt /tmp/o/pins.txt; grep -i "error" /tmp/o/*.txt | head -5
