#!/bin/bash
# Call 9: the sockets' threads started while the graph is read (E = .device/A: this build with run.ts's Prestart given
# sockets: true) against after it (D, this build), in turn, four rounds: `tessera run` wcc and bfs CPU-only, RMAT 24 weighted.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
run() { # build topo algo
  local D=dist; [ $1 = E ] && D=.device/A/dist
  local TA="--topology configs/1S.yaml"; [ $2 = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  local s=$(date +%s%N)
  node $D/src/cli/main.js run --graph /tmp/g24.tsr --algo $3 $( [ $3 = bfs ] && echo --source 0 ) $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $2 $3 rc=$rc wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
  head -3 /tmp/o/err.txt
}
for round in 1 2 3 4; do for cell in "cpu wcc" "cpu bfs"; do for b in D E; do run $b $cell; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
tar cJf $OUT/call9.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/walls.txt
