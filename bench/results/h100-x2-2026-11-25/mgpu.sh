#!/bin/bash
# Two H100s: gpu-check on 2 GPUs (every program equal to the CPU), P2P/PCIe links, RMAT 25 GPU-only on 1 vs 2 GPUs.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nvidia-smi topo -m; nproc; free -g | head -2; } > $OUT/machine.txt 2>&1
timeout 60 python3 .device/p2p.py > $OUT/p2p.txt 2>&1
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --scale 20 --no-bench --snap .device/snap --json $OUT/gpu-check-2.json > $OUT/gpu-check-2.txt 2>&1; echo "gpu-check rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
SCALE=${SCALE:-25}
timeout 150 node dist/src/cli/main.js generate rmat --scale $SCALE --weighted --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate $SCALE rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
RUNS=5 timeout 200 node .device/mgpu.mjs "$PWD" /tmp/g.tsr > $OUT/mgpu.jsonl 2> $OUT/mgpu.err; echo "mgpu rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 60 python3 .device/gpu_anchors.py $SCALE > $OUT/anchors.txt 2>&1
cat $OUT/machine.txt $OUT/p2p.txt; tail -4 $OUT/gpu-check-2.txt; cut -c1-400 $OUT/mgpu.jsonl; tail -3 $OUT/mgpu.err; grep -v Warning $OUT/anchors.txt | tail -5
