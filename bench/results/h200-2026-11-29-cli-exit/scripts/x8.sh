#!/bin/bash
# Call 8: read batches of 1 GiB (D, this build) against 256 MB (A = .device/A: this build with the old LOAD_RUN and
# maxBlobs), in turn: rt.mjs idle and busy, four each; then `tessera run` CPU-only wcc and GPU-only bfs (as call 5).
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
for i in 1 2 3 4; do for m in idle busy; do for b in A D; do echo -n "$b "; if [ $b = A ]; then ROOT=$PWD/.device/A node $F/rt.mjs /tmp/g24.tsr $m; else node $F/rt.mjs /tmp/g24.tsr $m; fi; done; done; done > /tmp/o/rt.txt 2>&1; log rt $?
run() { # build topo algo
  local D=dist; [ $1 = A ] && D=.device/A/dist
  local TA="--topology configs/1S.yaml"; [ $2 = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  local s=$(date +%s%N)
  node $D/src/cli/main.js run --graph /tmp/g24.tsr --algo $3 $( [ $3 = bfs ] && echo --source 0 ) $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $2 $3 rc=$rc wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))")"
  head -3 /tmp/o/err.txt
}
t1=$(date +%s); for round in 1 2 3; do for cell in "cpu wcc" "gpu bfs"; do for b in A D; do run $b $cell; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
tar cJf $OUT/call8.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/rt.txt /tmp/o/walls.txt
