#!/bin/bash
# The session's last build on two GPUs: gpu-check with P at share 1 (patches, scattered frontiers,
# peer copies) and on one GPU at share 1 (the device frontier).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
timeout 150 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc2p.json > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P share 1 rc=$?" >> $OUT/machine.txt
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc1.json > $OUT/gc1.txt 2>&1; echo "gpu-check 1 share 1 rc=$?" >> $OUT/machine.txt
rm -f $OUT/*.json
cat $OUT/machine.txt; tail -n 1 $OUT/gc2p.txt; tail -n 1 $OUT/gc1.txt
