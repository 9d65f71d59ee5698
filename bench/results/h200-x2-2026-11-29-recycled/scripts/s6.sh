#!/bin/bash
# Call 6 (nvidia-h200, one GPU): A (aa4d8a0: the addon's madvise before every fill) against B (a84337f: once per buffer),
# in turn, RMAT 24 weighted, bfs, wcc, pr (10 iterations), sssp, on the CPU socket alone (every core) and on the GPU
# alone (mg29.mjs CONFIGS 0 and 1, preloaded, results recycled, 8 runs, the median of runs 2-8). CONFS, ORDER and CALL
# change the configurations, the builds' order and the archive's name (call 7).
set -u
TSR=g24.tsr; GEN="rmat --scale 24 --weighted"; source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
for conf in ${CONFS:-1 0}; do for b in ${ORDER:-A B}; do R=$PWD; [ $b = A ] && R=$PWD/.device/A
  t1=$(date +%s); left=$(( 560 - (t1 - T0) )); [ $left -lt 20 ] && break
  CONFIGS=$conf CELLS=bfs,wcc,pr,sssp RUNS=8 timeout $left node $F/mg29.mjs "$R" $TSR | sed "s/^{/{\"build\":\"$b\",/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "$conf $b" $?; done; done
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
tar cJf $OUT/call${CALL:-6}.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; sort -k2,2 -k3,3 -s /tmp/o/speed.txt | cut -c1-260; tail -3 /tmp/o/speed.err
