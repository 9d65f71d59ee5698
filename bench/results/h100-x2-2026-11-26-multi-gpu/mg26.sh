#!/bin/bash
# Issue 26, --multi-gpu: gpu-check on 2 GPUs with dealt pages (S); RMAT 25 GPU-only, 1 GPU vs
# 2 GPUs P vs S, resident and each GPU capped at 2 GiB; the model's P/S prediction for pr and bfs.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nvidia-smi topo -m; nproc; free -g | head -2; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc2s.json > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  CONFIGS=1,2p,2s CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports.jsonl timeout 150 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"cap\":\"none\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "resident $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
MEMLIMIT=$((2*1024*1024*1024)) CONFIGS=1,2p,2s CELLS=pr,bfs RUNS=5 REPORTS=$OUT/reports.jsonl timeout 120 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"cap\":\"2GiB\",\"round\":1,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
echo "capped $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for a in pr bfs; do timeout 90 $T model --graph /tmp/g.tsr --algo $a --topology configs/1S2G.yaml --alpha 0 --alpha-steps 1 --partition high --multi-gpu auto > $OUT/model-$a.txt 2>&1; echo "model $a rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt; done
gzip -f $OUT/reports.jsonl
cd $OUT && tar czf checks.tgz gc2s.json speed.err gen.txt && rm -f gc2s.json speed.err gen.txt && cd - >/dev/null
cat $OUT/machine.txt | grep -v "^GPU\|NV\|SYS\|Legend\|^ *$\|X " ; tail -1 $OUT/gc2s.txt; cut -c1-200 $OUT/speed.jsonl; grep -h "chosen\|HIGH-P\|^0.000\|^1.000" $OUT/model-*.txt
