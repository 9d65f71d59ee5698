#!/bin/bash
# Session 40 call 10: bc on one GPU owning every vertex, RMAT 24 weighted, 4 sources (seed 7): the forward's claims and path counts compacted on the device (B) against the whole arrays read back and diffed on the host (A: .device/Abc/dist), a fresh engine's runs 1-3 each (gfr.mjs); the CPU (16 threads) on the same graph; gpu-check (GPU share 1) of B.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
G=bench/results/h200-2026-11-28-gpu-first-runs/scripts/gfr.mjs C=bench/results/h200-2026-11-28-warm-up/scripts/cvp.mjs
(nproc; lscpu | grep -i "model name"; nvidia-smi -L) > /tmp/m.txt
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
echo "## bc gpu A" >> /tmp/o.txt; ROOT=$PWD/.device/Abc TESSERA_NATIVE_DIR=$PWD/build/Release timeout 120 node $G /tmp/g24.tsr bc 3 >> /tmp/o.txt 2>&1
echo "## bc gpu B" >> /tmp/o.txt; timeout 120 node $G /tmp/g24.tsr bc 3 >> /tmp/o.txt 2>&1
echo "## bc cpu B" >> /tmp/o.txt; TESSERA_NATIVE_FLAVOR=host PARAMS='{"sources":4,"seed":7}' timeout 120 node $C bc /tmp/g24.tsr 3 >> /tmp/o.txt 2>&1
timeout 170 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/gc.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/gc.txt
cat /tmp/m.txt /tmp/o.txt > $OUT/call10-bc-gpu.txt; cp /tmp/gc.txt $OUT/call10-gpu-check.txt
cat /tmp/m.txt; cut -c1-200 /tmp/o.txt; grep " bc " /tmp/gc.txt; tail -2 /tmp/gc.txt
