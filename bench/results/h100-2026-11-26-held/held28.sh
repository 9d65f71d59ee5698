#!/bin/bash
# Held state and frontiers (GPU owning every vertex): gpu-check on 1 GPU at share 1 and 0.5;
# RMAT 24 weighted GPU-only bfs/wcc/sssp/pr, before (56a112a) and after alternated twice; anchors.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B && tar xJf .device/before3-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
timeout 120 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > $OUT/gen.txt 2>&1 &
t0=$(date +%s)
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc1.json > $OUT/gc1.txt 2>&1; echo "gpu-check 1 share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait
t0=$(date +%s)
for round in 1 2; do
  for b in before after; do
    R=$PWD; X=; [ $b = before ] && R=/tmp/B; [ $b = after ] && [ $round = 2 ] && X=$OUT/reports.jsonl
    REPORTS=$X CONFIGS=1 CELLS=bfs,wcc,sssp,pr RUNS=5 timeout 120 node .device/mg26.mjs "$R" /tmp/g24w.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 100 python3 .device/gpu_anchors.py 24 > $OUT/anchors.txt 2>&1
t0=$(date +%s)
timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.5 --scale 20 --no-bench --snap .device/snap --json $OUT/gc1h.json > $OUT/gc1h.txt 2>&1; echo "gpu-check 1 share 0.5 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
rm -f $OUT/gc1.json $OUT/gc1h.json; [ -f $OUT/reports.jsonl ] && gzip $OUT/reports.jsonl
cat $OUT/machine.txt; tail -n 1 $OUT/gc1.txt $OUT/gc1h.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['cell'],r['medianMs'],r['runs'],'in',round(r['per']['gpu0']['in']/2**20,1),'out',round(r['per']['gpu0']['out']/2**20,1),'MiB')
PY
