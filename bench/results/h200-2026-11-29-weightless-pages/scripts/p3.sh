#!/bin/bash
# Call 3: A (673cc1a) against B (1532502 and the gpu-check change: weightless pages, the read begun before the program is found, the GPUs opened before the engine's modules load), in turn, RMAT 24 weighted:
# `tessera run` GPU-only wcc, bfs, pr (three walls, one tl.mjs timeline each); CPU (configs/1S.yaml) wcc and bfs under ot.mjs (when the .tsr is opened, the exit event); B's exit with and without SIGKILL at the exit event (GPU and CPU wcc); gpu-check (the program preloaded now) at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
S=bench/results/h200-2026-11-29-weightless-pages/scripts
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
rep() { python3 -c "
import json;r=json.load(open('/tmp/o/r.json'))
print('load',round(r.get('loadMs',0)),'start',round(r['startMs']),'total',round(r['totalMs'],2))"; }
args() { case $1 in bfs|sssp) echo --source 0;; pr) echo --iterations 10;; esac; }
one() { # build topology hook program
  if [ $1 = A ]; then R="$A node"; M=.device/A/dist/src/cli/main.js; else R="node"; M=dist/src/cli/main.js; fi
  s=$(date +%s%N); $R $3 $M run --graph /tmp/g24.tsr --algo $4 $(args $4) --topology $2 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "wall_ms $(( (e-s)/1000000 )) $(rep) $(grep -E '^(OPEN|EXIT)' /tmp/o/err.txt | tr '\n' ' ')"
}
for c in wcc bfs pr; do for b in A B; do
  for h in 0 0 0 1; do
    H=""; [ $h = 1 ] && H="--import ./$T/tl.mjs"
    echo "== $c GPU $b hook=$h $(one $b 'configs/1S1G-pcie5.yaml --alpha 0' "$H" $c)"
    [ $h = 1 ] && grep -v "registerPage \|pageArgs" /tmp/o/err.txt
  done
done; done > /tmp/o/walls.txt 2>&1
for c in wcc bfs; do for i in 1 2 3; do for b in A B; do
  echo "== $c CPU $b $(one $b configs/1S.yaml "--import ./$S/ot.mjs" $c)"
done; done; done > /tmp/o/cpu.txt 2>&1
for k in 0 1 0 1 0 1; do
  export KILL=$k
  echo "== wcc GPU B KILL=$k $(one B 'configs/1S1G-pcie5.yaml --alpha 0' "--import ./$S/ot.mjs" wcc)"
  echo "== wcc CPU B KILL=$k $(one B configs/1S.yaml "--import ./$S/ot.mjs" wcc)"
done > /tmp/o/exit.txt 2>&1
export KILL=0
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call3.tar.xz -C /tmp/o .
grep "^==" /tmp/o/walls.txt; cat /tmp/o/cpu.txt /tmp/o/exit.txt; for f in /tmp/o/check1.txt /tmp/o/check06.txt; do tail -n 2 $f; done
