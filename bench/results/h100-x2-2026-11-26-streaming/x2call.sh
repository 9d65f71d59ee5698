#!/bin/bash
# Issue 26: PageRank and BFS on RMAT 25, GPU-only, each GPU capped below the graph (memoryLimit
# 2 GiB: pages stream every pass), 1 GPU vs 2 GPUs. Issue 21: a fresh session's first run vs warm
# on every core. Issue 25: 1S1G from disk vs in memory for wcc, pr, cdlp (RMAT 20 weighted).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; free -g | head -2; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
L=$OUT/disk.txt
timeout 60 $T generate rmat --scale 20 --weighted --page-edges 65536 --out /tmp/r20.tsr >> $L 2>&1
LIM=$(python3 -c "import os; print(os.path.getsize('/tmp/r20.tsr')//8)")
for a in wcc pr cdlp; do
  for m in mem disk; do
    extra=""; [ $m = disk ] && extra="--host-memory $LIM"
    timeout 60 $T run --algo $a --graph /tmp/r20.tsr --topology configs/1S1G.yaml --alpha 0.5 --steal off $extra --out /tmp/$a.$m -q >> $L 2>&1 || echo "$a $m failed" >> $L
  done
  echo "$a 1S1G mem vs disk: $(python3 .device/cmp-out.py /tmp/$a.mem /tmp/$a.disk)" >> $L
done
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
# A fresh session's runs (run 0 is the first), every core.
for a in bfs wcc; do timeout 60 node .device/runs.mjs rmat:22:weighted $a 5 >> $OUT/first-run.txt 2>&1; done
t0=$(date +%s)
for round in 1 2; do
  MEMLIMIT=$((2*1024*1024*1024)) NGPUS=1,2 CELLS=pr,bfs RUNS=5 REPORTS=$OUT/reports.jsonl timeout 200 node .device/mgpu.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"cap\":\"2GiB\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
cat $OUT/machine.txt $L; grep -c . $OUT/first-run.txt; cut -c1-160 $OUT/speed.jsonl; tail -3 $OUT/speed.err
