#!/bin/bash
# Two H100s after shared page-locks: gpu-check on 2 GPUs; RMAT 25 GPU-only 1 vs 2 GPUs, this build
# against the one before (6500eb8) in the same call; cuSPARSE anchor.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --scale 20 --no-bench --snap .device/snap --json $OUT/gpu-check-2.json > $OUT/gpu-check-2.txt 2>&1; echo "gpu-check rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --weighted --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  NGPUS=2 CELLS=pr,bfs,wcc RUNS=5 timeout 100 node .device/mgpu.mjs /tmp/before /tmp/g.tsr | sed "s/^{/{\"build\":\"before\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  NGPUS=1,2 CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports.jsonl timeout 100 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"after\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
NGPUS=1,2 CELLS=sssp RUNS=3 timeout 120 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"after\",/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
timeout 60 python3 .device/gpu_anchors.py 25 > $OUT/anchors.txt 2>&1
cat $OUT/machine.txt; tail -2 $OUT/gpu-check-2.txt; cut -c1-200 $OUT/speed.jsonl; tail -3 $OUT/speed.err; grep GTEPS $OUT/anchors.txt
