#!/bin/bash
# Call 3 (x1): the addon's passes on kept threads (fills, folds, lists, copies; fills from 256 KiB)
# and huge out-degrees over the whole grid: before (9b55774) / after, CPU-only RMAT 22 (bfs, wcc,
# sssp, 16 threads) and GPU-only RMAT 24 (bfs, wcc, pr), two rounds each; the CPU harness with GAPBS.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B /tmp/o && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1 &
(timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1) &
timeout 60 node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22w.tsr > /tmp/o/gen22.txt 2>&1
wait
for round in 1 2; do for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  for p in bfs wcc sssp; do n=14; [ $p = sssp ] && n=8; ROOT=$R QUIET=1 timeout 60 node .device/cpubfs.mjs /tmp/g22w.tsr $p $n 2>&1 | sed "s/^/$b $round cpu22 /" >> /tmp/o/cpu.txt; done
  CONFIGS=1 CELLS=bfs,wcc,pr RUNS=5 timeout 100 node .device/mg26.mjs "$R" /tmp/g24w.tsr 2>>/tmp/o/gpu.err | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> /tmp/o/gpu.jsonl
done; done
CONFIGS=1 CELLS=bfs,wcc RUNS=5 REPORTS=/tmp/o/reports24.jsonl timeout 100 node .device/mg26.mjs $PWD /tmp/g24w.tsr > /dev/null 2>&1
t0=$(date +%s)
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc,sssp --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > /tmp/o/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/cells.jsonl /tmp/o/ 2>/dev/null
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; cut -c1-60 /tmp/o/cpu.txt
grep -A8 "Peers on the same" /tmp/o/results.md | grep "^| rmat"
python3 - /tmp/o/gpu.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['cell'],r['medianMs'],r['runs'],r['phases'].get('allocMs'))
PY
