#!/bin/bash
# Call 1 (nvidia-h200): where `tessera run` spends its wall on this host. GPU detection (nvidia-smi's time, the
# driver's /proc entries), then RMAT 24 weighted as a .tsr (page cache): wcc with the detected topology
# (auto) and with configs/1S.yaml, three rounds each (walls and the report's load/start/total), one run of
# each under --cpu-prof (main thread and workers), and bfs on RMAT 12 (a small graph) the same way.
set -u
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
F=bench/results/h200-2026-11-29-startup/scripts
{ echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}"; ls -la /proc/driver/nvidia/gpus/ 2>&1; cat /proc/driver/nvidia/gpus/*/information 2>&1 | head -30; ls /dev/nvidia* 2>&1
  for i in 1 2 3; do s=$(date +%s%N); nvidia-smi --query-gpu=index,memory.total --format=csv,noheader,nounits; e=$(date +%s%N); echo "nvidia-smi ms $(( (e-s)/1000000 ))"; done
  s=$(date +%s%N); node -e 0; e=$(date +%s%N); echo "node -e 0 ms $(( (e-s)/1000000 ))"
  s=$(date +%s%N); node dist/src/cli/main.js --version; e=$(date +%s%N); echo "tessera --version ms $(( (e-s)/1000000 ))"
} > /tmp/o/detect.txt 2>&1
timeout 60 node dist/src/cli/main.js generate rmat --scale 12 --weighted --out /tmp/g12.tsr > /dev/null 2>&1
run() { # graph algo topology
  local TA=""; [ $3 != auto ] && TA="--topology $3"
  local s=$(date +%s%N)
  node dist/src/cli/main.js run --graph $1 --algo $2 $( [ $2 = bfs ] && echo --source 0 ) $TA -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  local rc=$? e=$(date +%s%N)
  echo "== $1 $2 $3 rc=$rc wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2),r['topology'] if isinstance(r['topology'],str) else r['topology'].get('name'))")"
  head -3 /tmp/o/err.txt
}
t1=$(date +%s); for round in 1 2 3; do for g in /tmp/g24.tsr /tmp/g12.tsr; do for topo in auto configs/1S.yaml; do run $g wcc $topo; done; done; done > /tmp/o/walls.txt 2>&1; log walls $?
t1=$(date +%s); for g in g24 g12; do for topo in auto configs/1S.yaml; do d=/tmp/o/prof-$g-$(basename $topo .yaml); mkdir -p $d
  TA=""; [ $topo != auto ] && TA="--topology $topo"
  node --cpu-prof --cpu-prof-dir=$d dist/src/cli/main.js run --graph /tmp/$g.tsr --algo wcc $TA -q > /dev/null 2>&1; done; done; log prof $?
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/detect.txt; cat /tmp/o/walls.txt
