#!/bin/bash
# Call 2 (x1): the harness on RMAT 24 weighted (bench/gpu-gapbs-rmat24.yaml --programs pr,bfs,wcc:
# GPU-only cells, CPU-only, GAPBS on the 16 cores) and cuSPARSE in the same call; pr/bfs/wcc
# before (fb75a86) / after (this build), one round.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > $OUT/gapbs-build.txt 2>&1 &
t0=$(date +%s)
timeout 120 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait
t0=$(date +%s)
for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  CONFIGS=1 CELLS=pr,bfs,wcc RUNS=5 timeout 100 node .device/mg26.mjs "$R" /tmp/g24w.tsr | sed "s/^{/{\"build\":\"$b\",/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "before/after $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 330 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs pr,bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/cells.jsonl $OUT/ 2>/dev/null
timeout 90 python3 .device/gpu_anchors.py 24 > $OUT/anchors.txt 2>&1
cat $OUT/machine.txt; grep -v Warn $OUT/anchors.txt | grep GTEPS; grep "^| rmat" $OUT/results.md | cut -d'|' -f2-9 | head -20; grep -A14 "Peers on the same" $OUT/results.md | grep "^|"
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['cell'],r['medianMs'],r['runs'])
PY
tail -3 $OUT/bench.log
