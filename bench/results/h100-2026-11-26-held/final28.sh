#!/bin/bash
# Issue 21 with held state: gpu-check on 1 GPU at share 1; GPU-only bfs/wcc on RMAT 24 weighted
# through the harness beside the CPU-only cell and GAPBS (16 threads); before (56a112a) / after
# alternated on the same graph (mg26.mjs); cuSPARSE anchor.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B && tar xJf .device/before3-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > $OUT/gapbs-build.txt 2>&1 &
t0=$(date +%s)
timeout 120 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --snap .device/snap --json $OUT/gc1.json > $OUT/gc1.txt 2>&1; echo "gpu-check 1 share 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait
t0=$(date +%s)
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    CONFIGS=1 CELLS=bfs,wcc RUNS=5 timeout 100 node .device/mg26.mjs "$R" /tmp/g24w.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "before/after $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 300 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/cells.jsonl $OUT/ 2>/dev/null
timeout 90 python3 .device/gpu_anchors.py 24 > $OUT/anchors.txt 2>&1
rm -f $OUT/gc1.json
cat $OUT/machine.txt; tail -n 1 $OUT/gc1.txt; grep -v Warn $OUT/anchors.txt | grep GTEPS; grep "^| rmat" $OUT/results.md | cut -d'|' -f2-9 | head -20; grep -A14 "Peers on the same" $OUT/results.md | grep "^|"
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['cell'],r['medianMs'],r['runs'])
PY
