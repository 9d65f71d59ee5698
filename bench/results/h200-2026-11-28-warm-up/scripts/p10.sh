#!/bin/bash
# Session 39 calls 10 and 14: gpu-check of the session's build (RMAT 20 and the SNAP graphs, GPU share 1): every built-in on the GPU equals the CPU (whose pr, sssp and louvain passes are now native).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gpu-check.txt 2>&1; echo "gpu-check rc=$?" >> $OUT/gpu-check.txt
tail -15 $OUT/gpu-check.txt
