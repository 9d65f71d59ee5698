#!/bin/bash
# Session 33 call 7 (review): meetLevel and meetIteration share one meeting (meetPeers); one peer-count
# constant. gpu-check on two GPUs with S, with P, and with S without peer access (copies after the kernels).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
for c in "s" "p"; do t1=$(date +%s); timeout 100 node scripts/gpu-check.mjs --gpus 2 --multi-gpu $c --gpu-share 1 --scale 20 --no-bench > $OUT/gc2$c.txt 2>&1; echo "gpu-check 2 $c rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt; done
t1=$(date +%s); TESSERA_NO_PEER_ACCESS=1 timeout 100 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > $OUT/gc2s-nopeer.txt 2>&1; echo "gpu-check 2 s no peer access rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
grep -v "^GPU" $OUT/machine.txt; tail -n 1 $OUT/gc2*.txt
