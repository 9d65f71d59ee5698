#!/bin/bash
# Final build of the session (issues 26, 21): gpu-check on 2 GPUs (P, share 1) and 1 GPU (share 1);
# RMAT 25 GPU-only before (7f81063) and after alternated, 1 GPU vs 2 GPUs P vs S; RMAT 24 on 1 GPU.
#
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; free -g | head -2; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 200 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc2p.json > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    CONFIGS=1,2p,2s CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports-$b.jsonl timeout 150 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"cap\":\"none\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "resident $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc1.json > $OUT/gc1.txt 2>&1; echo "gpu-check 1 share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 100 $T generate rmat --scale 24 --out /tmp/g24.tsr >> $OUT/gen.txt 2>&1; echo "generate 24 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    CONFIGS=1 CELLS=pr,bfs,wcc RUNS=5 REPORTS=$OUT/reports-$b.jsonl timeout 100 node .device/mg26.mjs "$R" /tmp/g24.tsr | sed "s/^{/{\"build\":\"$b\",\"cap\":\"rmat24\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "rmat24 $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 120 python3 .device/gpu_anchors.py 24 25 > $OUT/anchors.txt 2>&1; echo "anchors rc=$?" >> $OUT/machine.txt
for f in reports-before reports-after; do gzip -f $OUT/$f.jsonl; done
cd $OUT && tar czf checks.tgz gc2p.json gc1.json speed.err gen.txt reports-before.jsonl.gz reports-after.jsonl.gz && rm -f gc2p.json gc1.json speed.err gen.txt reports-*.jsonl.gz && cd - >/dev/null
cat $OUT/machine.txt | grep -v "^GPU" ; for f in gc2p gc1; do tail -n 1 $OUT/$f.txt; done; grep -v Warn $OUT/anchors.txt | grep -i "GB/s\|GTEPS"
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['cap'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],'fold',r['foldMs'],'list',r['listMs'],'plan',r['planMs'])
PY
