#!/bin/bash
# Call 7: `tessera run` on RMAT 24 weighted with the huge-page advice (default) and without (TESSERA_NO_HUGEPAGES=1: the .tsr's buffers and the state arrays), in turn, four rounds: CPU wcc and bfs, GPU-only wcc; wall, load, start, total, the exit event (ot.mjs).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
S=bench/results/h200-2026-11-29-weightless-pages/scripts
rep() { python3 -c "
import json;r=json.load(open('/tmp/o/r.json'))
print('load',round(r.get('loadMs',0)),'start',round(r['startMs']),'total',round(r['totalMs'],2))"; }
for round in 1 2 3 4; do for cell in "wcc configs/1S.yaml" "bfs configs/1S.yaml" "wcc configs/1S1G-pcie5.yaml --alpha 0"; do for nh in 0 1; do
  set -- $cell; c=$1; shift
  if [ $nh = 1 ]; then export TESSERA_NO_HUGEPAGES=1; else unset TESSERA_NO_HUGEPAGES; fi
  s=$(date +%s%N); node --import ./$S/ot.mjs dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $c $( [ $c = bfs ] && echo --source 0 ) --topology "$@" -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== $c $* nohuge=$nh wall_ms $(( (e-s)/1000000 )) $(rep) $(grep -E '^(OPEN|EXIT)' /tmp/o/err.txt | tr '\n' ' ')"
done; done; done > /tmp/o/huge.txt 2>&1
tar cJf $OUT/call7.tar.xz -C /tmp/o .
cat /tmp/o/huge.txt
