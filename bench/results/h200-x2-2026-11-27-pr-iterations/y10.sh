#!/bin/bash
# Session 31 call 10: on one machine, bfs with both GPUs capped at 2 GiB: measured (1 GPU, 2 P, 2 S;
# 9 runs) and the model's pick (gpuWorkByVertices), RMAT 25.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=bfs RUNS=9 timeout 150 node .device/mg26.mjs "$PWD" /tmp/g.tsr >> $OUT/speed.jsonl 2>> $OUT/speed.err
sed -e 's/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/' configs/1S2G.yaml > /tmp/1S2G-2GiB.yaml
t1=$(date +%s)
echo "== bfs 2GiB" >> $OUT/model.txt; timeout 150 $T model --graph /tmp/g.tsr --topology /tmp/1S2G-2GiB.yaml --algo bfs --multi-gpu auto --alpha 0 >> $OUT/model.txt 2>&1; echo "model rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
cat $OUT/machine.txt | grep -v "^GPU"; grep -E "^0.000|chosen" $OUT/model.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
