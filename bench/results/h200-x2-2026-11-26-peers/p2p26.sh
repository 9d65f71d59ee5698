#!/bin/bash
# Issue 26: GPU peers copy owned state device to device. gpu-check on 2 GPUs; RMAT 25 GPU-only,
# 1 vs 2 GPUs, this build against fd74266 (before) in the same call; cuSPARSE anchor.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nvidia-smi topo -m; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --scale 20 --no-bench --snap .device/snap --json $OUT/gpu-check-2.json > $OUT/gpu-check-2.txt 2>&1; echo "gpu-check rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gpu-check-2-all.json > $OUT/gpu-check-2-all.txt 2>&1; echo "gpu-check share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  NGPUS=2 CELLS=pr,bfs,wcc RUNS=5 timeout 100 node .device/mgpu.mjs /tmp/before /tmp/g.tsr | sed "s/^{/{\"build\":\"before\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  NGPUS=1,2 CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports.jsonl timeout 100 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"after\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
timeout 60 python3 .device/gpu_anchors.py 25 > $OUT/anchors.txt 2>&1
cat $OUT/machine.txt | grep -v "^GPU\|NV\|Legend\|^ *X\|SYS\|PHB\|PXB\|PIX\|NODE"; tail -2 $OUT/gpu-check-2.txt; tail -2 $OUT/gpu-check-2-all.txt; cut -c1-220 $OUT/speed.jsonl; tail -3 $OUT/speed.err; grep GTEPS $OUT/anchors.txt
