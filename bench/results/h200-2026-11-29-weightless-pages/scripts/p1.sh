#!/bin/bash
# Call 1: A (673cc1a: every page registered with its weights) against B (pages without weights where the preloaded program reads none; the read begun before the program is found), in turn, RMAT 24 weighted:
# `tessera run` GPU-only wcc, bfs, pr, sssp (three walls and one tl.mjs timeline each); pr (10 iterations) and bfs on a GPU capped at 1.5 and 2 GiB (streaming), two runs each.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
rep() { python3 -c "
import json;r=json.load(open('/tmp/o/r.json'))
g=[a.get('gpu') or {} for s in r['steps'] for a in s['actors']]
print('load',round(r.get('loadMs',0)),'start',round(r['startMs']),'total',round(r['totalMs'],2),'misses',sum(x.get('misses',0) for x in g),'pageMB',round(sum(x.get('pageBytes',0) for x in g)/2**20),'copyMs',round(sum(x.get('copyMs',0) for x in g),1))"; }
args() { case $1 in bfs|sssp) echo --source 0;; pr) echo --iterations 10;; esac; }
for c in wcc bfs pr sssp; do for b in A B; do
  if [ $b = A ]; then R="$A node"; M=.device/A/dist/src/cli/main.js; else R="node"; M=dist/src/cli/main.js; fi
  for h in 0 0 0 1; do
    H=""; [ $h = 1 ] && H="--import ./$T/tl.mjs"
    s=$(date +%s%N); $R $H $M run --graph /tmp/g24.tsr --algo $c $(args $c) --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
    echo "== $c $b hook=$h wall_ms $(( (e-s)/1000000 )) $(rep)"
    [ $h = 1 ] && grep -v "registerPage " /tmp/o/err.txt
  done
done; done > /tmp/o/walls.txt 2>&1
for lim in 1536MiB 2GiB; do
  sed "s/    streams: 4/    streams: 4\n    memoryLimit: $lim/" configs/1S1G-pcie5.yaml > /tmp/o/t-$lim.yaml
  for c in pr bfs; do for i in 1 2; do for b in A B; do
    if [ $b = A ]; then R="$A node"; M=.device/A/dist/src/cli/main.js; else R="node"; M=dist/src/cli/main.js; fi
    s=$(date +%s%N); $R $M run --graph /tmp/g24.tsr --algo $c $(args $c) --topology /tmp/o/t-$lim.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
    echo "== $lim $c $b wall_ms $(( (e-s)/1000000 )) $(rep) $(head -c 300 /tmp/o/err.txt)"
  done; done; done
done > /tmp/o/stream.txt 2>&1
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/walls.txt | grep "^==" ; cat /tmp/o/stream.txt
