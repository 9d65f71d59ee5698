#!/bin/bash
# Session 40 call 12: bc on one GPU owning every vertex, RMAT 24 weighted, 4 sources (seed 7): a forward level with many claims copied back in place (B3) against merges of them all (B1: .device/B1/dist, push only), each superstep's kernel, mode and ms (gfm.mjs), runs 1-3; gpu-check of B3 at GPU shares 1 and 0.6.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
G=bench/results/h200-2026-11-28-bc-native/scripts/gfm.mjs
(nproc; lscpu | grep -i "model name"; nvidia-smi -L) > /tmp/m.txt
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
echo "## bc gpu B1" >> /tmp/o.txt; ROOT=$PWD/.device/B1 TESSERA_NATIVE_DIR=$PWD/build/Release timeout 100 node $G /tmp/g24.tsr bc 3 >> /tmp/o.txt 2>&1
echo "## bc gpu B3" >> /tmp/o.txt; timeout 100 node $G /tmp/g24.tsr bc 3 >> /tmp/o.txt 2>&1
for share in 1 0.6; do timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share $share --scale 20 --no-bench > /tmp/gc-$share.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/gc-$share.txt; done
cat /tmp/m.txt /tmp/o.txt > $OUT/call12-bc-gpu.txt; cat /tmp/gc-1.txt /tmp/gc-0.6.txt > $OUT/call12-gpu-check.txt
cat /tmp/m.txt; grep -E "^##|^create|^[0-9]" /tmp/o.txt | cut -c1-60; grep "^2 " /tmp/o.txt | cut -c1-700; grep " bc " /tmp/gc-1.txt /tmp/gc-0.6.txt; tail -2 /tmp/gc-1.txt; tail -2 /tmp/gc-0.6.txt
