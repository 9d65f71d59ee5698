#!/bin/bash
# Call 3 (nvidia-h200-x2): where the host time of a resident RMAT 25 bfs run goes, one GPU and two (S): mg51.mjs with
# 40 runs a configuration under --cpu-prof (the main thread's profile; the runs' reports as usual).
set -u
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-session52/scripts
M=bench/results/h200-x2-2026-11-29-current/scripts/mg51.mjs
for c in 1 2s; do t1=$(date +%s); mkdir -p /tmp/o/prof-$c
  CONFIGS=$c CELLS=bfs RUNS=40 timeout 120 node --cpu-prof --cpu-prof-dir=/tmp/o/prof-$c $M "$PWD" $TSR 2>> /tmp/o/err.txt >> /tmp/o/resident.jsonl; log "prof $c" $?; done
for c in 1 2s; do f=$(ls -S /tmp/o/prof-$c | head -1); mv /tmp/o/prof-$c/$f /tmp/o/main-$c.cpuprofile; rm -rf /tmp/o/prof-$c; gzip /tmp/o/main-$c.cpuprofile; done
tar cJf $OUT/call3.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -4; python3 -c "
import json
for l in open('/tmp/o/resident.jsonl'):
    r=json.loads(l); print(r['conf'], r['cell'], r['medianMs'])"
tail -3 /tmp/o/err.txt
