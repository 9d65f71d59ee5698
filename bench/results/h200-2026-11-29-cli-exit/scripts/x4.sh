#!/bin/bash
# Call 4: where an engine's start goes now (B = cbef10b): ../../h200-2026-11-29-cli-timeline/scripts/tl.mjs's timeline of
# `tessera run` wcc on RMAT 24 weighted, GPU-only and CPU-only, twice each; then one CPU-only run under --cpu-prof (every
# thread's profile: the coordinator's and the sockets' workers'), kept as prof.tar.xz.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
TL=bench/results/h200-2026-11-29-cli-timeline/scripts/tl.mjs
for i in 1 2; do for topo in gpu cpu; do TA="--topology configs/1S.yaml"; [ $topo = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  s=$(date +%s%N); node --import ./$TL dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== $topo wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"; cat /tmp/o/err.txt
done; done > /tmp/o/timeline.txt 2>&1; log timeline $?
t1=$(date +%s); rm -rf /tmp/prof; mkdir -p /tmp/prof; node --cpu-prof --cpu-prof-dir=/tmp/prof dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology configs/1S.yaml -q --report /tmp/o/rprof.json > /dev/null 2>&1; log prof $?
ls -la /tmp/prof | head -30 >> /tmp/o/machine.txt; tar cJf /tmp/o/prof.tar.xz -C /tmp/prof .
tar cJf $OUT/call4.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/timeline.txt
