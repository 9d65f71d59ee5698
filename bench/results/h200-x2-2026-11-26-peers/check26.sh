#!/bin/bash
# Peer copies with other ownership shapes on two real GPUs: gpu-check at joint share 0.6 with LOW
# and RAND (several ranges per GPU) and with 2S2G-like HIGH at share 1 for the operator fixtures.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
for part in low rand; do
  t0=$(date +%s)
  timeout 150 node scripts/gpu-check.mjs --gpus 2 --gpu-share 0.6 --partition $part --scale 20 --no-bench --snap .device/snap --json $OUT/gc2-$part.json > $OUT/gc2-$part.txt 2>&1; echo "gpu-check 2 $part rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
done
t0=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --gpu-share 1 --scale 20 --no-bench --snap .device/snap --programs pr,bfs --module dist/test/fixtures/operators/programs.js --module dist/examples/mis/index.js --json $OUT/gc2-ops.json > $OUT/gc2-ops.txt 2>&1; echo "gpu-check 2 ops rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cat $OUT/machine.txt; tail -1 $OUT/gc2-low.txt $OUT/gc2-rand.txt $OUT/gc2-ops.txt
