#!/bin/bash
# Session 40 call 11: bc's forward levels pulled on the GPU too (B2: bc_forward_pull, the engine's choice for a large frontier) against push only (B1: .device/B1/dist, call 10's B), one GPU owning every vertex, RMAT 24 weighted, 4 sources (seed 7), a fresh engine's runs 1-3 each (gfr.mjs); the CPU (16 threads) on the same graph (cvp.mjs); gpu-check of B2 at GPU shares 1 and 0.6.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
G=bench/results/h200-2026-11-28-gpu-first-runs/scripts/gfr.mjs C=bench/results/h200-2026-11-28-warm-up/scripts/cvp.mjs
(nproc; lscpu | grep -i "model name"; nvidia-smi -L) > /tmp/m.txt
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
echo "## bc gpu B1" >> /tmp/o.txt; ROOT=$PWD/.device/B1 TESSERA_NATIVE_DIR=$PWD/build/Release timeout 120 node $G /tmp/g24.tsr bc 3 >> /tmp/o.txt 2>&1
echo "## bc gpu B2" >> /tmp/o.txt; timeout 120 node $G /tmp/g24.tsr bc 3 >> /tmp/o.txt 2>&1
echo "## bc cpu B2" >> /tmp/o.txt; ROOT=$PWD TESSERA_NATIVE_FLAVOR=host PARAMS='{"sources":4,"seed":7}' timeout 120 node $C bc /tmp/g24.tsr 3 >> /tmp/o.txt 2>&1
for share in 1 0.6; do timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $share --scale 20 --no-bench > /tmp/gc-$share.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/gc-$share.txt; done
cat /tmp/m.txt /tmp/o.txt > $OUT/call11-bc-gpu.txt; cat /tmp/gc-1.txt /tmp/gc-0.6.txt > $OUT/call11-gpu-check.txt
cat /tmp/m.txt; cut -c1-220 /tmp/o.txt; grep " bc " /tmp/gc-1.txt /tmp/gc-0.6.txt; tail -2 /tmp/gc-1.txt; tail -2 /tmp/gc-0.6.txt
