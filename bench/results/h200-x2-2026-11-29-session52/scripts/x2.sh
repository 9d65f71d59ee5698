#!/bin/bash
# Call 2 (nvidia-h200-x2): A (9e71d1b) against B (bfs's `seen` bitmap left unset, zeroed only by the CPU paths that
# use it) in turn, resident RMAT 25 bfs on one GPU and on two with dealt pages (S), ten runs each, two rounds.
set -u
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-session52/scripts
M=bench/results/h200-x2-2026-11-29-current/scripts/mg51.mjs
for round in 1 2; do for b in A B; do t1=$(date +%s); R=$PWD; [ $b = A ] && R=$PWD/.device/A
  CONFIGS=1,2s CELLS=bfs RUNS=10 timeout 100 node $M "$R" $TSR 2>> /tmp/o/err.txt | sed "s/^/{\"build\":\"$b\",\"round\":$round,\"r\":/; s/$/}/" >> /tmp/o/resident.jsonl; log "resident $b" $?; done; done
tar cJf $OUT/call2.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -6; python3 - <<'PY'
import json
for l in open('/tmp/o/resident.jsonl'):
    d=json.loads(l); r=d['r']
    if 'medianMs' in r: print(d['build'], d['round'], r['conf'], r['cell'], r['medianMs'], 'alloc', round(r['phases']['allocMs'],3), 'settle', round(r['phases'].get('settleMs',0),2))
PY
tail -3 /tmp/o/err.txt
