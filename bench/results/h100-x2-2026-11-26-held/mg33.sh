#!/bin/bash
# Issue 26's streaming acceptance with held state: each GPU capped at 2 GiB (its pages stream),
# RMAT 25 GPU-only, 1 GPU vs 2 GPUs P vs S (this build, two rounds), and what the model predicts
# for P and S (tessera model --multi-gpu auto, alpha 0).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=bfs,wcc,pr RUNS=5 REPORTS=$([ $round = 2 ] && echo $OUT/reports.jsonl || echo /dev/null) timeout 200 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"cap\":\"2GiB\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "capped $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
sed -e 's/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/' configs/1S2G.yaml > /tmp/1S2G-2GiB.yaml
for a in bfs pr wcc; do echo "== $a" >> $OUT/model.txt; timeout 60 $T model --graph /tmp/g.tsr --topology /tmp/1S2G-2GiB.yaml --algo $a --multi-gpu auto --alpha 0 >> $OUT/model.txt 2>&1; done
gzip -f $OUT/reports.jsonl
cat $OUT/machine.txt | grep -v "^GPU"; grep -i "multi\|predict\|choice\|chose" $OUT/model.txt | head -20
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['cap'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
