#!/bin/bash
# Call 6 (x1): gpu-check of the review commit's build (run()'s arguments parsed in addon_info.cpp,
# modelCount on the pool) on the H100, share 1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1.txt 2>&1; echo "gpu-check rc=$?" >> $OUT/machine.txt
cat $OUT/machine.txt; tail -2 $OUT/gc1.txt
