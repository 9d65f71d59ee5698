#!/bin/bash
# x2 call B: each GPU capped at 2 GiB (its pages stream), RMAT 25 GPU-only: what the model predicts
# for P and S and picks (tessera model --multi-gpu auto, alpha 0; its first run calibrates the GPUs),
# then 1 GPU vs 2 P vs 2 S measured, pr and wcc.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
sed -e 's/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/' configs/1S2G.yaml > /tmp/1S2G-2GiB.yaml
cp /tmp/1S2G-2GiB.yaml $OUT/
for a in pr wcc; do
  t1=$(date +%s)
  echo "== $a" >> $OUT/model.txt; timeout 200 $T model --graph /tmp/g.tsr --topology /tmp/1S2G-2GiB.yaml --algo $a --multi-gpu auto --alpha 0 >> $OUT/model.txt 2>&1; echo "model $a rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
done
t0=$(date +%s)
MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=pr,wcc RUNS=5 timeout 200 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"cap\":\"2GiB\",/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
echo "capped $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cat $OUT/machine.txt | grep -v "^GPU"; grep -i "chosen\|multi-GPU\|^==" $OUT/model.txt | head -20
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['cap'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
