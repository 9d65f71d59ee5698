#!/bin/bash
# Call 11: examples/hits on RMAT 24, GPU-only, 20 iterations: B = HEAD (one GPU keeps hub and auth through the scalings that do not pass them) against D = 516d658 (.device/D), in turn, three each; gpu-check of the built-ins and examples at GPU share 1 with the fixture mix (mix-held among its programs).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
[ -d .device/D ] || tar xJf .device/D.tar.xz -C .device
S=bench/results/h200-2026-11-29-gpu-vertex-maps/scripts
for i in 1 2 3; do for b in D B; do
  if [ $b = B ]; then R="node"; Rt=.; else R="env ROOT=$PWD/.device/$b TESSERA_NATIVE_DIR=$PWD/build/Release node"; Rt=.device/$b; fi
  s=$(date +%s%N); $R $Rt/dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $Rt/dist/examples/hits/index.js --param iterations=20 --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== hits $b run $i wall_ms $(( (e-s)/1000000 ))"; python3 $S/steps.py /tmp/o/r.json; head -c 300 /tmp/o/err.txt
done; done > /tmp/o/hits.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
tar cJf $OUT/call11.tar.xz -C /tmp/o .
cat /tmp/o/hits.txt; tail -n 2 /tmp/o/check1.txt
