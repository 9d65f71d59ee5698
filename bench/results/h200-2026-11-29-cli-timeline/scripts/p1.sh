#!/bin/bash
# Call 1: `tessera run` on RMAT 24 weighted (.tsr, page cache warm), wcc and bfs, GPU-only (configs/1S1G-pcie5.yaml --alpha 0) and CPU-only (configs/1S.yaml: one socket, every core): three walls without the hook, then one with tl.mjs's timeline each; node's own start (`node -e 0`) and `tessera --version`.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
for i in 1 2 3; do s=$(date +%s%N); node -e 0; e=$(date +%s%N); echo "node -e 0 wall_ms $(( (e-s)/1000000 ))"; s=$(date +%s%N); node dist/src/cli/main.js --version > /dev/null; e=$(date +%s%N); echo "tessera --version wall_ms $(( (e-s)/1000000 ))"; done > /tmp/o/start.txt
for c in wcc bfs; do for topo in gpu cpu; do
  if [ $topo = gpu ]; then TA="--topology configs/1S1G-pcie5.yaml --alpha 0"; else TA="--topology configs/1S.yaml"; fi
  for h in 0 0 0 1; do
    H=""; [ $h = 1 ] && H="--import ./$T/tl.mjs"
    s=$(date +%s%N); node $H dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $c $( [ $c = bfs ] && echo --source 0 ) $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
    echo "== $c $topo hook=$h wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
    [ $h = 1 ] && cat /tmp/o/err.txt
  done
done; done > /tmp/o/timeline.txt 2>&1
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/start.txt /tmp/o/timeline.txt
