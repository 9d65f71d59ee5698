#!/bin/bash
# Call 12 (nvidia-h200, one GPU): kcore's select skipping empty blocks, A (d77c3d3) against B (6d7e112) in turn, twice,
# RMAT 22 unweighted, CPU-only (every core) and GPU-only (its rounds on the sockets: kcore's default), mg29.mjs (5 runs,
# the median of runs 2-5), and a check that B's cores equal A's.
set -u
TSR=g22.tsr; GEN="rmat --scale 22"; source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
for round in 1 2; do for conf in 0 1; do for b in A B; do R=$PWD; [ $b = A ] && R=$PWD/.device/A
  t1=$(date +%s); left=$(( 250 - (t1 - T0) )); [ $left -lt 20 ] && break
  CONFIGS=$conf CELLS=kcore RUNS=5 timeout $left node $F/mg29.mjs "$R" $TSR | sed "s/^{/{\"round\":$round,\"build\":\"$b\",/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "$round $conf $b" $?; done; done; done
for b in A B; do R=$PWD; [ $b = A ] && R=$PWD/.device/A; timeout 60 node $R/dist/src/cli/main.js run --algo kcore --graph $TSR --topology configs/1S.yaml --out /tmp/o/core-$b.txt -q >> /tmp/o/cli.txt 2>&1; done
cmp /tmp/o/core-A.txt /tmp/o/core-B.txt > /tmp/o/cmp.txt 2>&1 && echo "cores equal" >> /tmp/o/cmp.txt; rm -f /tmp/o/core-*.txt
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['round'],r['build'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
tar cJf $OUT/call12.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; cat /tmp/o/speed.txt /tmp/o/cmp.txt; tail -3 /tmp/o/speed.err /tmp/o/cli.txt
