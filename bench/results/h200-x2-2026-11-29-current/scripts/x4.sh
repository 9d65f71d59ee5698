#!/bin/bash
# Call 4 (nvidia-h200-x2), call 3's build with a page locked when the cache first evicts it (call 3: at its next load
# after an eviction): call 2's cells (each GPU capped at 2 GiB, RMAT 25, each run's page traffic), resident bfs/pr one
# GPU against two (S, P), gpu-check on two GPUs with P, the bench harness's two-GPU streaming sweep.
set -u
source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts
t1=$(date +%s); MEMLIMIT=2147483648 PERRUN=1 CONFIGS=1,2s,2p CELLS=bfs,pr RUNS=8 timeout 150 node $F/mg51.mjs "$PWD" $TSR > /tmp/o/capped.jsonl 2>> /tmp/o/err.txt; log capped $?
t1=$(date +%s); CONFIGS=1,2s,2p CELLS=bfs,pr RUNS=10 timeout 100 node $F/mg51.mjs "$PWD" $TSR > /tmp/o/resident.jsonl 2>> /tmp/o/err.txt; log resident $?
t1=$(date +%s); timeout 100 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc2p.txt 2>&1; log "gpu-check 2 p" $?
t1=$(date +%s); left=$(( 570 - (t1 - T0) )); timeout $left node dist/src/cli/main.js bench --config bench/gpu2-streaming-rmat25.yaml --out-dir /tmp/o/bench --no-progress > /tmp/o/bench.txt 2>&1; log bench $?
tar cJf $OUT/call4.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -6; tail -n 1 /tmp/o/gc2p.txt; grep -h -o '"conf[^[]*\[[^]]*\]' /tmp/o/capped.jsonl /tmp/o/resident.jsonl; grep "ms\|done" /tmp/o/bench.txt | tail -14; tail -3 /tmp/o/err.txt
