#!/bin/bash
# Session 34 call 12 (review: stageState's read-back and narrowRead share one chunk loop,
# drainStaged): gpu-check on one GPU with packing on, and with TESSERA_NARROW_READ=0 (every large
# read-back through stageState); the read-back alone (rb.mjs) both ways.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1.txt 2>&1; echo "gpu-check on rc=$?" >> $OUT/machine.txt
TESSERA_NARROW_READ=0 timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1-off.txt 2>&1; echo "gpu-check off rc=$?" >> $OUT/machine.txt
for nr in 0 1; do TESSERA_NARROW_READ=$nr timeout 60 node .device/rb.mjs "$PWD" >> $OUT/rb.txt 2>&1; done
cat $OUT/machine.txt | grep -v "^GPU"; tail -n 1 $OUT/gc1.txt $OUT/gc1-off.txt; cat $OUT/rb.txt
