#!/bin/bash
# Session 31 call 7: each GPU capped at 2 GiB (pages stream), RMAT 25 GPU-only: 1 GPU vs 2 P vs 2 S,
# before (fa38a09) / after, pr wcc bfs; then what the model predicts and picks (--multi-gpu auto).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
sed -e 's/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/' configs/1S2G.yaml > /tmp/1S2G-2GiB.yaml; cp /tmp/1S2G-2GiB.yaml $OUT/
t0=$(date +%s)
for b in before after; do
  R=$PWD; X=/dev/null; [ $b = before ] && R=/tmp/B; [ $b = after ] && X=$OUT/reports.jsonl
  MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=pr,wcc,bfs RUNS=5 REPORTS=$X timeout 200 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "capped $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for a in pr wcc bfs; do
  t1=$(date +%s)
  echo "== $a" >> $OUT/model.txt; timeout 150 $T model --graph /tmp/g.tsr --topology /tmp/1S2G-2GiB.yaml --algo $a --multi-gpu auto --alpha 0 >> $OUT/model.txt 2>&1; echo "model $a rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
done
gzip -f $OUT/reports.jsonl
cat $OUT/machine.txt | grep -v "^GPU"; grep -i "chosen\|pick\|^==\|-P \|-S " $OUT/model.txt | head -30
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
