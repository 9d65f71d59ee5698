#!/bin/bash
# Call 8 (nvidia-h200, one GPU): build a84337f with a switch (TESSERA_ADVISE_EVERY=1: the huge-page advice before every
# fill, as A did) on the CPU socket alone, RMAT 24 weighted, pr, wcc, sssp, off and on in turn, twice, with the process's
# huge-page memory after the runs (SMAPS=1).
set -u
TSR=g24.tsr; GEN="rmat --scale 24 --weighted"; source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
{ cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; uname -r; } >> /tmp/o/machine.txt 2>&1
for r in 1 2; do for ev in 0 1; do t1=$(date +%s); left=$(( 400 - (t1 - T0) )); [ $left -lt 20 ] && break
  TESSERA_ADVISE_EVERY=$ev SMAPS=1 CONFIGS=0 CELLS=pr,wcc,sssp RUNS=8 timeout $left node $F/mg29.mjs "$PWD" $TSR | sed "s/^{/{\"every\":$ev,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "every=$ev" $?; done; done
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print('every',r['every'],r['cell'],r['medianMs'],r['runs'],r['smaps'].get('AnonHugePages'),r['smaps'].get('Rss'))
PY
tar cJf $OUT/call8.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; sort -k3,3 -s /tmp/o/speed.txt; tail -3 /tmp/o/speed.err
