#!/bin/bash
# Call 6 (nvidia-h200-x2), call 5's build: gpu-check with each GPU capped at 160 MiB, so that RMAT 20's pages stream and
# allocations after the cache free its last slots (shrinkCache), on one GPU and on two with dealt pages (S).
set -u
GEN=none source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts
t1=$(date +%s); timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-snap --no-bench --memory-limit 160MiB > /tmp/o/gc1-160.txt 2>&1; log "gpu-check 1 160MiB" $?
t1=$(date +%s); timeout 150 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-snap --no-bench --memory-limit 160MiB > /tmp/o/gc2s-160.txt 2>&1; log "gpu-check 2 s 160MiB" $?
tar cJf $OUT/call6.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -3; tail -n 4 /tmp/o/gc*.txt
