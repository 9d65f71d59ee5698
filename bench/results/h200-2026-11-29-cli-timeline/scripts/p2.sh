#!/bin/bash
# Call 2: A (HEAD: each page registered by its own call, in turn on the controller's thread) against B (registerPageSet in one call, the pages checked and tiled on the copy threads together), in turn: `tessera run` GPU-only wcc and bfs (three walls and one tl.mjs timeline each), a session's create (../../h200-2026-11-29-warm-reps/scripts/cw.mjs, two each); gpu-check with B at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
for c in wcc bfs; do for b in A B; do
  if [ $b = A ]; then R="$A node"; M=.device/A/dist/src/cli/main.js; else R="node"; M=dist/src/cli/main.js; fi
  for h in 0 0 0 1; do
    H=""; [ $h = 1 ] && H="--import ./$T/tl.mjs"
    s=$(date +%s%N); $R $H $M run --graph /tmp/g24.tsr --algo $c $( [ $c = bfs ] && echo --source 0 ) --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
    echo "== $c $b hook=$h wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
    [ $h = 1 ] && grep -v "registerPageOf\|registerPage " /tmp/o/err.txt
  done
done; done > /tmp/o/timeline.txt 2>&1
for i in 1 2; do for b in A B; do
  echo "== wcc $b"; if [ $b = A ]; then $A timeout 60 node $S/cw.mjs wcc /tmp/g24.tsr; else timeout 60 node $S/cw.mjs wcc /tmp/g24.tsr; fi | head -1
done; done > /tmp/o/create.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call2.tar.xz -C /tmp/o .
cat /tmp/o/timeline.txt /tmp/o/create.txt; for f in /tmp/o/check1.txt /tmp/o/check06.txt; do tail -n 2 $f; done
