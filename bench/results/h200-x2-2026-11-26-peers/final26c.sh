#!/bin/bash
# pr's state unset (no fill per run), copyArray for wcc's labels: gpu-check on 2 GPUs (0.5) and
# 1 GPU (1: pr, wcc, cdlp); RMAT 25 GPU-only 1 vs 2 GPUs, this build against 5f85de3 (before).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --scale 20 --no-bench --snap .device/snap --json $OUT/gc2.json > $OUT/gc2.txt 2>&1; echo "gpu-check 2 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 120 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs pr,wcc,cdlp --gpu-share 1 --json $OUT/gc1-all.json > $OUT/gc1-all.txt 2>&1; echo "gpu-check 1 share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  NGPUS=1,2 CELLS=pr,wcc RUNS=5 timeout 100 node .device/mgpu.mjs /tmp/before /tmp/g.tsr | sed "s/^{/{\"build\":\"before\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  NGPUS=1,2 CELLS=pr,wcc RUNS=5 REPORTS=$OUT/reports.jsonl timeout 100 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"after\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 60 python3 .device/gpu_anchors.py 25 > $OUT/anchors.txt 2>&1
gzip -f $OUT/reports.jsonl
cd $OUT && tar czf checks.tgz gc2.json gc1-all.json speed.err gen.txt && rm -f gc2.json gc1-all.json speed.err gen.txt && cd - >/dev/null
cat $OUT/machine.txt; tail -1 $OUT/gc2.txt; tail -1 $OUT/gc1-all.txt; cut -c1-120 $OUT/speed.jsonl; grep GTEPS $OUT/anchors.txt
