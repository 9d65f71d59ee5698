#!/bin/bash
# Call 5: B = the operators' pulls launched kPageBatch resident pages at a time (an operator's _pages entry) against C = 15f26aa (a launch a page: .device/Cbuild, the addon before; the same dist: the unit's new entry is unused there), in turn, RMAT 24 weighted:
# one engine's five ppr runs (sr.mjs, 10 iterations, tolerance 0) each, twice; `tessera run` weighted PageRank GPU-only; gpu-check at GPU shares 1 and 0.6 with the fixture mix.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
[ -d .device/Cbuild ] || tar xJf .device/Cbuild.tar.xz -C .device
SR=bench/results/h200-2026-11-29-weightless-pages/scripts/sr.mjs
for i in 1 2; do for b in C B; do
  if [ $b = C ]; then export TESSERA_NATIVE_DIR=$PWD/.device/Cbuild; else unset TESSERA_NATIVE_DIR; fi
  echo "== ppr session $b"; PARAMS='{"iterations":10,"tolerance":0}' node $SR ppr /tmp/g24.tsr 5
done; done > /tmp/o/session.txt 2>&1
unset TESSERA_NATIVE_DIR
for i in 1 2 3; do
  node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo pr --param weighted=1 --iterations 10 --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>&1
  echo "== wpr GPU B $(python3 -c "
import json;r=json.load(open('/tmp/o/r.json'));print(round(r['totalMs'],2), {k: round(v,1) for k, v in r['phases'].items()})")"
done > /tmp/o/wpr.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call5.tar.xz -C /tmp/o .
cat /tmp/o/session.txt /tmp/o/wpr.txt; tail -n 2 /tmp/o/check1.txt /tmp/o/check06.txt
