#!/bin/bash
# Call 1: `tessera run` on RMAT 24 weighted (.tsr in the page cache), wcc and bfs, GPU-only (configs/1S1G-pcie5.yaml --alpha 0)
# and CPU-only (configs/1S.yaml), A (.device/A: 72eaf53) and B (this build: the CLI exits once its streams are flushed) in
# turn, three rounds: walls, the report's load/start/total, and the ms from the `exit` event to the process gone (exit-hook.mjs).
# Then B with EXIT_KILL=1 (the kernel's teardown alone), and louvain on RMAT 16 weighted: lv.mjs, tol.mjs, the graphology harness.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
tar xJf .device/graph-mods.tar.xz -C /tmp
run() { # build topo algo extra-env
  local D=dist; [ $1 = A ] && D=.device/A/dist
  local TA="--topology configs/1S.yaml"; [ $2 = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  local s=$(date +%s%N)
  env $4 node --import ./$F/exit-hook.mjs $D/src/cli/main.js run --graph /tmp/g24.tsr --algo $3 $( [ $3 = bfs ] && echo --source 0 ) $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $2 $3 $4 rc=$rc wall_ms $(( (e-s)/1000000 )) exit_gap_ms $(awk -v e=$e '/^EXITEV/ {printf "%.1f", e/1e6 - $2}' /tmp/o/err.txt) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
  grep -v EXITEV /tmp/o/err.txt | head -3
}
for round in 1 2 3; do for c in wcc bfs; do for topo in gpu cpu; do for b in A B; do run $b $topo $c X=0; done; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
t1=$(date +%s); for i in 1 2; do for topo in gpu cpu; do run B $topo wcc EXIT_KILL=1; done; done > /tmp/o/kill.txt 2>&1; log kill $?
t1=$(date +%s); timeout 60 node dist/src/cli/main.js generate rmat --scale 16 --weighted --out /tmp/g16.tsr > /dev/null 2>&1
timeout 120 node $F/tol.mjs /tmp/g16.tsr 9 '[{},{"tol":1e-6},{"tol":1e-5},{"tol":1e-4},{"tol":1e-3},{"maxRounds":1}]' > /tmp/o/tol.txt 2>&1; log tol $?
t1=$(date +%s); timeout 120 node $F/lv.mjs /tmp/g16.tsr '[{},{"tolC":1e-3},{"tolC":1e-2},{"tol0":1e-3,"tolC":1e-3}]' 9 > /tmp/o/lv.txt 2>&1; log lv $?
t1=$(date +%s); NODE_PATH=/tmp/node_modules timeout 200 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; log harness $?
cp /tmp/o/harness/*/results.md /tmp/o/harness.md 2>/dev/null; rm -rf /tmp/o/harness
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt; grep "==" /tmp/o/walls.txt | head -30; cat /tmp/o/kill.txt /tmp/o/tol.txt /tmp/o/lv.txt; grep -A12 "Peers on the same" /tmp/o/harness.md
