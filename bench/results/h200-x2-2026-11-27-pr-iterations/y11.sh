#!/bin/bash
# Session 31 call 11: the final build (the loop posts' helpers, postLoop / awaitLoop): gpu-check on two GPUs, P and S at share 1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 150 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cat $OUT/machine.txt | grep -v "^GPU"; tail -n 1 $OUT/gc2p.txt $OUT/gc2s.txt
