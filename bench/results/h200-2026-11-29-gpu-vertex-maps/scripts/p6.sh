#!/bin/bash
# Call 6: where kcore and scc spend a GPU-only run (they lose to the CPU in gpu-check at RMAT 20): `tessera run` on RMAT 20 (unweighted), GPU-only and CPU-only, each run's supersteps summed by kernel, mode and actor (steps.py).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
S=bench/results/h200-2026-11-29-gpu-vertex-maps/scripts
node dist/src/cli/main.js generate rmat --scale 20 --out /tmp/g20.tsr > /dev/null 2>&1
for a in kcore scc; do for t in "configs/1S1G-pcie5.yaml --alpha 0" configs/1S.yaml; do for i in 1 2; do
  node dist/src/cli/main.js run --graph /tmp/g20.tsr --algo $a --topology $t -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  echo "== $a $t run $i"; python3 $S/steps.py /tmp/o/r.json; head -c 300 /tmp/o/err.txt
done; done; done > /tmp/o/steps.txt 2>&1
tar cJf $OUT/call6.tar.xz -C /tmp/o .
cat /tmp/o/steps.txt
