#!/bin/bash
# Call 3: a .tsr's pages read into one buffer per read batch, huge pages asked for it whole (B), against one buffer a page
# (A = .device/A: 72eaf53's JS over this addon, which advises each page's buffer alone as before). RMAT 24 weighted,
# `tessera run` wcc, bfs (GPU-only and CPU-only) and pr (CPU-only, 10 iterations), A and B in turn, three rounds: walls,
# the report's load/start/total, the ms from the `exit` event to the process gone, and the huge pages at exit.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
uname -r >> /tmp/o/machine.txt
run() { # build topo algo
  local D=dist; [ $1 = A ] && D=.device/A/dist
  local TA="--topology configs/1S.yaml"; [ $2 = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  local s=$(date +%s%N)
  node --import ./$F/exit-hook.mjs --import ./$F/smaps-hook.mjs $D/src/cli/main.js run --graph /tmp/g24.tsr --algo $3 $( [ $3 = bfs ] && echo --source 0 ) $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $2 $3 rc=$rc wall_ms $(( (e-s)/1000000 )) exit_gap_ms $(awk -v e=$e '/^EXITEV/ {printf "%.1f", e/1e6 - $2}' /tmp/o/err.txt) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))") $(grep -o 'AnonHugePages: [0-9]* kB' /tmp/o/err.txt) $(grep -o 'Anonymous: [0-9]* kB' /tmp/o/err.txt)"
  grep -v "EXITEV\|SMAPS" /tmp/o/err.txt | head -3
}
for round in 1 2 3; do for cell in "gpu wcc" "cpu wcc" "gpu bfs" "cpu bfs" "cpu pr"; do for b in A B; do run $b $cell; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
# The .tsr's pages on the GPU (B): GPU-only results equal the CPU's (bfs, wcc exactly; pr within 1e-9 relative).
t1=$(date +%s); for a in bfs wcc pr; do for topo in gpu cpu; do TA="--topology configs/1S.yaml"; [ $topo = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $a $( [ $a = bfs ] && echo --source 0 ) $TA -q --out /tmp/o/$a-$topo.txt; done
  python3 -c "
import sys
a=[l.split() for l in open('/tmp/o/$a-gpu.txt')]; b=[l.split() for l in open('/tmp/o/$a-cpu.txt')]
bad=sum(1 for x,y in zip(a,b) if x[0]!=y[0] or (x[1]!=y[1] and abs(float(x[1])-float(y[1]))>1e-9*max(abs(float(y[1])),1e-300)))
print('$a gpu vs cpu: lines', len(a), len(b), 'differing', bad)"; rm -f /tmp/o/$a-gpu.txt /tmp/o/$a-cpu.txt; done > /tmp/o/same.txt 2>&1; log same $?
t1=$(date +%s); timeout 300 node scripts/gpu-check.mjs --gpus 1 --scale 20 --no-bench > /tmp/o/gpu-check.txt 2>&1; log gpu-check $?
tar cJf $OUT/call3.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/walls.txt /tmp/o/same.txt; tail -5 /tmp/o/gpu-check.txt
