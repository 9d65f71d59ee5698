#!/bin/bash
# Issue 26/21: staged state copies (TESSERA_STAGE_STATE) and peer copy rates; gpu-check on 2 GPUs;
# RMAT 25 GPU-only, 1 vs 2 GPUs, staging on vs off in the same call.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
for s in 1 0 1 0; do TESSERA_STAGE_STATE=$s timeout 60 node .device/peerlink.mjs "$PWD" >> $OUT/links.jsonl 2>> $OUT/links.err; done
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 2 --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gpu-check-2-all.json > $OUT/gpu-check-2-all.txt 2>&1; echo "gpu-check share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  for s in 0 1; do
    TESSERA_STAGE_STATE=$s NGPUS=1,2 CELLS=pr,bfs,wcc RUNS=5 timeout 100 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"stage\":$s,\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf more.tgz speed.err links.err gen.txt && rm -f speed.err links.err gen.txt && cd - >/dev/null
cat $OUT/machine.txt; cat $OUT/links.jsonl; tail -2 $OUT/gpu-check-2-all.txt; cut -c1-200 $OUT/speed.jsonl
