#!/bin/bash
# Call 5: A (.device/A: 72eaf53's JS over this addon) against C (this build: a .tsr's pages in one buffer per read batch,
# each firstPageOf faulted in on the addon's threads, a CPU-only engine's pools filled while its sockets' threads start),
# in turn, three rounds, RMAT 24 weighted: `tessera run` wcc and bfs, GPU-only and CPU-only (as call 3); then C's start
# under ../../h200-2026-11-29-cli-timeline/scripts/tl.mjs (CPU wcc, twice).
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
run() { # build topo algo
  local D=dist; [ $1 = A ] && D=.device/A/dist
  local TA="--topology configs/1S.yaml"; [ $2 = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  local s=$(date +%s%N)
  node --import ./$F/exit-hook.mjs $D/src/cli/main.js run --graph /tmp/g24.tsr --algo $3 $( [ $3 = bfs ] && echo --source 0 ) $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $2 $3 rc=$rc wall_ms $(( (e-s)/1000000 )) exit_gap_ms $(awk -v e=$e '/^EXITEV/ {printf "%.1f", e/1e6 - $2}' /tmp/o/err.txt) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
  grep -v "EXITEV" /tmp/o/err.txt | head -3
}
for round in 1 2 3; do for cell in "cpu wcc" "gpu wcc" "cpu bfs" "gpu bfs"; do for b in A C; do run $b $cell; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
t1=$(date +%s); TL=bench/results/h200-2026-11-29-cli-timeline/scripts/tl.mjs
for i in 1 2; do node --import ./$TL dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology configs/1S.yaml -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; echo "== cpu $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"; cat /tmp/o/err.txt; done > /tmp/o/timeline.txt 2>&1; log timeline $?
tar cJf $OUT/call5.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/walls.txt /tmp/o/timeline.txt
