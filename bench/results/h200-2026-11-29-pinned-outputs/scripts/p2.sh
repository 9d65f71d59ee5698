#!/bin/bash
# Call 2: A (the session's first build: results read back through the staging buffers) against B (results locked ahead on the controller's side thread), in turn, three engines a cell, GPU-only RMAT 24 weighted, every result kept (ft.mjs); then `tessera run` (wcc, bfs) wall times A/B, and gpu-check with B at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
FT=bench/results/h200-2026-11-28-warm-touch/scripts/ft.mjs
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
for c in wcc bfs pr; do
  for i in 1 2 3; do
    echo "== $c A"; $A timeout 60 node $FT $c /tmp/g24.tsr 8
    echo "== $c B"; timeout 60 node $FT $c /tmp/g24.tsr 8
  done > /tmp/o/$c.txt 2>&1
  python3 $W/ratios.py /tmp/o/$c.txt >> /tmp/o/ratios.txt; python3 $W/phases.py /tmp/o/$c.txt >> /tmp/o/phases.txt
done
for i in 1 2 3; do for c in wcc bfs; do for b in A B; do
  if [ $b = A ]; then R="$A node .device/A/dist/src/cli/main.js"; else R="node dist/src/cli/main.js"; fi
  s=$(date +%s%N); $R run --graph /tmp/g24.tsr --algo $c $( [ $c = bfs ] && echo --source 0 ) --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>>/tmp/o/cli-err.txt; e=$(date +%s%N)
  echo "$c $b wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'total',round(r['totalMs'],2))")"
done; done; done > /tmp/o/cli.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call2.tar.xz -C /tmp/o .
cat /tmp/o/ratios.txt /tmp/o/phases.txt /tmp/o/cli.txt; tail -2 /tmp/o/check1.txt /tmp/o/check06.txt; grep -il "error" /tmp/o/*.txt | head -5
