#!/bin/bash
# Call 3 (nvidia-h200-x2), build 6c5c516: where bfs's allocMs goes (alloc29.mjs: each RunPools.alloc timed), RMAT 25,
# one GPU and two with S, 8 runs each; the one-GPU cell again under --cpu-prof.
set -u
source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
for c in 1 2s; do t1=$(date +%s); timeout 60 node $F/alloc29.mjs "$PWD" $TSR $c 8 >> /tmp/o/alloc.jsonl 2>> /tmp/o/err.txt; log "alloc $c" $?; done
t1=$(date +%s); timeout 60 node --cpu-prof --cpu-prof-dir=/tmp/o/prof --cpu-prof-interval 100 $F/alloc29.mjs "$PWD" $TSR 1 8 > /tmp/o/alloc-prof.jsonl 2>> /tmp/o/err.txt; log "prof" $?
tar cJf $OUT/call3.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; cut -c1-700 /tmp/o/alloc.jsonl; tail -3 /tmp/o/err.txt
