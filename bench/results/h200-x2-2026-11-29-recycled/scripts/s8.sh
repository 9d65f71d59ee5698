#!/bin/bash
# Call 8 (nvidia-h200, one GPU): build a84337f with a switch (TESSERA_ADVISE_EVERY=1: the huge-page advice before every
# fill, as A did) on the CPU socket alone, RMAT 24 weighted, pr, wcc, sssp, off and on in turn, twice, with the process's
# huge-page memory after the runs (SMAPS=1).
set -u
F=bench/results/h200-x2-2026-11-29-recycled/scripts
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o; T0=$(date +%s)
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; uname -r; } > /tmp/o/machine.txt 2>&1
log() { echo "$1 rc=$2 $(( $(date +%s) - t1 ))s (at $(( $(date +%s) - T0 ))s)" >> /tmp/o/machine.txt; }
t1=$(date +%s); [ -f /tmp/g24.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/o/gen.txt 2>&1; log generate $?
for r in 1 2; do for ev in 0 1; do t1=$(date +%s); left=$(( 400 - (t1 - T0) )); [ $left -lt 20 ] && break
  TESSERA_ADVISE_EVERY=$ev SMAPS=1 CONFIGS=0 CELLS=pr,wcc,sssp RUNS=8 timeout $left node $F/mg29.mjs "$PWD" /tmp/g24.tsr | sed "s/^{/{\"every\":$ev,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "every=$ev" $?; done; done
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print('every',r['every'],r['cell'],r['medianMs'],r['runs'],r['smaps'].get('AnonHugePages'),r['smaps'].get('Rss'))
PY
tar cJf $OUT/call8.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; sort -k3,3 -s /tmp/o/speed.txt; tail -3 /tmp/o/speed.err
