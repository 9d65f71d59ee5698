#!/bin/bash
# Session 32 call 10 (call 9 asked 64 MiB: cdlp's scratch did not fit): the landed build with pages streaming: gpu-check on 2 GPUs (S and P) with each GPU
# capped at 128 MiB (RMAT 20: pages stream).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --memory-limit 128MiB --no-bench --json $OUT/gc2s-cap.json > $OUT/gc2s-cap.txt 2>&1; echo "gpu-check 2 S 128MiB rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt

t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --memory-limit 128MiB --no-bench --json $OUT/gc2p-cap.json > $OUT/gc2p-cap.txt 2>&1; echo "gpu-check 2 P 128MiB rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
cd $OUT && tar czf checks.tgz gc2s-cap.json gc2p-cap.json && rm -f gc2s-cap.json gc2p-cap.json && cd - >/dev/null
grep -v "^GPU" $OUT/machine.txt; tail -n 2 $OUT/gc2s-cap.txt $OUT/gc2p-cap.txt
