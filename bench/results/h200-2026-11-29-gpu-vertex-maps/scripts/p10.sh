#!/bin/bash
# Call 10: examples/hits on RMAT 24 (its weights unread), GPU-only, `tessera run --algo <the example's module> --param iterations=20`, in turn, twice each:
# A = 4510b33 (.device/A: the scaling a CPU vertex map), D = 516d658 (.device/D: the scaling a GPU vertex pass, hub and auth resident), B = the working tree (hub and auth resident 'device'); each run's supersteps summed (steps.py).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for x in A D; do [ -d .device/$x ] || tar xJf .device/$x.tar.xz -C .device; done
S=bench/results/h200-2026-11-29-gpu-vertex-maps/scripts
for i in 1 2; do for b in A D B; do
  if [ $b = B ]; then R="node"; Rt=.; else R="env ROOT=$PWD/.device/$b TESSERA_NATIVE_DIR=$PWD/build/Release node"; Rt=.device/$b; fi
  s=$(date +%s%N); $R $Rt/dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $Rt/dist/examples/hits/index.js --param iterations=20 --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== hits $b run $i wall_ms $(( (e-s)/1000000 ))"; python3 $S/steps.py /tmp/o/r.json; head -c 300 /tmp/o/err.txt
done; done > /tmp/o/hits.txt 2>&1
tar cJf $OUT/call10.tar.xz -C /tmp/o .
cat /tmp/o/hits.txt
