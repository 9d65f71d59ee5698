#!/bin/bash
# Call 7: B = ec0a736 (kcore tries level c + 1 first, its select pass finding the smallest degree left; the GPU's union pages written in place) against D = 516d658 (.device/D: the session's build before those two), in turn, RMAT 20 (unweighted):
# `tessera run` kcore GPU-only and CPU-only, twice each, each run's supersteps summed (steps.py).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
[ -d .device/D ] || tar xJf .device/D.tar.xz -C .device
S=bench/results/h200-2026-11-29-gpu-vertex-maps/scripts
D="env ROOT=$PWD/.device/D TESSERA_NATIVE_DIR=$PWD/build/Release"
node dist/src/cli/main.js generate rmat --scale 20 --out /tmp/g20.tsr > /dev/null 2>&1
for t in "configs/1S1G-pcie5.yaml --alpha 0" configs/1S.yaml; do for i in 1 2; do for b in D B; do
  if [ $b = D ]; then R="$D node"; M=.device/D/dist/src/cli/main.js; else R="node"; M=dist/src/cli/main.js; fi
  $R $M run --graph /tmp/g20.tsr --algo kcore --topology $t -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  echo "== kcore $b $t run $i"; python3 $S/steps.py /tmp/o/r.json; head -c 300 /tmp/o/err.txt
done; done; done > /tmp/o/kcore.txt 2>&1
tar cJf $OUT/call7.tar.xz -C /tmp/o .
cat /tmp/o/kcore.txt
