#!/bin/bash
# Call 5: the build with sssp_steps counting its frontiers' out-edges (stats.edges): sssp GPU-only on RMAT 24 weighted (two fresh engines, 5 runs each), `tessera run --alpha 0` (its report's edges), gpu-check at GPU share 1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
S=bench/results/h200-2026-11-28-bc-sources/scripts
for i in 1 2; do echo "== GPU sssp B"; GPU=1 KEEP=1 timeout 60 node $S/so.mjs sssp /tmp/g24.tsr 5; done > /tmp/o/sssp-gpu.txt 2>&1
timeout 60 node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo sssp --source 9306676 --topology configs/1S1G-pcie5.yaml --alpha 0 --report /tmp/o/run.json > /tmp/o/run.txt 2>&1; echo "rc=$?" >> /tmp/o/run.txt
timeout 120 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc-1.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/gc-1.txt
tar cJf $OUT/call5.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/sssp-gpu.txt; tail -n 15 /tmp/o/run.txt; grep -o '"edgesProcessed":[0-9.e+]*' /tmp/o/run.json; tail -n 2 /tmp/o/gc-1.txt; grep " sssp " /tmp/o/gc-1.txt
