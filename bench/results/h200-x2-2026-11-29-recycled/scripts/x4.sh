#!/bin/bash
# Call 4 (nvidia-h200-x2), build 6c5c516: is bfs's slow 4 MB fill (alloc29.mjs) the addon's madvise(MADV_HUGEPAGE)
# before each fill? One GPU, RMAT 25, 8 runs, with TESSERA_NO_HUGEPAGES=1 (no madvise) and without, in turn, two rounds.
set -u
source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
{ cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; uname -r; } >> /tmp/o/machine.txt 2>&1
for round in 1 2; do for nh in 0 1; do t1=$(date +%s)
  if [ $nh = 1 ]; then TESSERA_NO_HUGEPAGES=1 timeout 60 node $F/alloc29.mjs "$PWD" $TSR 1 8; else timeout 60 node $F/alloc29.mjs "$PWD" $TSR 1 8; fi | sed "s/^{/{\"round\":$round,\"nohuge\":$nh,/" >> /tmp/o/alloc.jsonl 2>> /tmp/o/err.txt; log "nohuge=$nh round $round" $?; done; done
tar cJf $OUT/call4.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt | grep -v "^GPU"; python3 -c "
import json
for l in open('/tmp/o/alloc.jsonl'):
    r=json.loads(l); print(r['round'], r['nohuge'], r['run'], r['totalMs'], r['allocMs'], [a['ms'] for a in r['allocs']])
"; tail -3 /tmp/o/err.txt
