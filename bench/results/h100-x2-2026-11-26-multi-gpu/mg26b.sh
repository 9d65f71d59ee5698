#!/bin/bash
# Issue 26, --multi-gpu after the span fold and run-copy push planning: gpu-check on 2 GPUs with
# dealt pages at share 1 and 0.6; RMAT 25 GPU-only 1 GPU vs 2 GPUs P vs S, resident and capped.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc2s.json > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 0.6 --scale 20 --no-bench --snap .device/snap --json $OUT/gc2s6.json > $OUT/gc2s6.txt 2>&1; echo "gpu-check 2 S share 0.6 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  CONFIGS=1,2p,2s CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports.jsonl timeout 150 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"cap\":\"none\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "resident $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
MEMLIMIT=$((2*1024*1024*1024)) CONFIGS=1,2p,2s CELLS=pr,bfs RUNS=5 REPORTS=$OUT/reports.jsonl timeout 120 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"cap\":\"2GiB\",\"round\":1,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
echo "capped $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 60 python3 .device/gpu_anchors.py 25 > $OUT/anchors.txt 2>&1
gzip -f $OUT/reports.jsonl
cd $OUT && tar czf checks.tgz gc2s.json gc2s6.json speed.err gen.txt && rm -f gc2s.json gc2s6.json speed.err gen.txt && cd - >/dev/null
cat $OUT/machine.txt; tail -1 $OUT/gc2s.txt $OUT/gc2s6.txt; python3 -c "
import json
for l in open('$OUT/speed.jsonl'):
    r=json.loads(l); print(r['cap'], r['round'], r['conf'], r['cell'], r['medianMs'], r['runs'], [(p['actor'], p['ranges'], p['vertices']) for p in r['partition']])
"; grep GTEPS $OUT/anchors.txt
