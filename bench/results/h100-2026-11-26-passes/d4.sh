#!/bin/bash
# Call 4 (x1): this build (passes on kept threads, huge out-degrees over the grid, cached dense task lists,
# takeState for held frontiers) against 9b55774: gpu-check on the H100 (share 1), then before / after
# CPU-only RMAT 22 (bfs, wcc, sssp, 16 threads) and GPU-only RMAT 24 (bfs, wcc, pr), two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B /tmp/o && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1 &
(timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1) &
timeout 60 node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22w.tsr > /tmp/o/gen22.txt 2>&1
wait
t0=$(date +%s)
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
for round in 1 2; do for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  for p in bfs wcc sssp; do n=14; [ $p = sssp ] && n=8; ROOT=$R QUIET=1 timeout 60 node .device/cpubfs.mjs /tmp/g22w.tsr $p $n 2>&1 | sed "s/^/$b $round cpu22 /" >> /tmp/o/cpu.txt; done
  CONFIGS=1 CELLS=bfs,wcc,pr RUNS=5 timeout 100 node .device/mg26.mjs "$R" /tmp/g24w.tsr 2>>/tmp/o/gpu.err | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> /tmp/o/gpu.jsonl
done; done
CONFIGS=1 CELLS=bfs,wcc RUNS=5 REPORTS=/tmp/o/reports24.jsonl timeout 100 node .device/mg26.mjs $PWD /tmp/g24w.tsr > /dev/null 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; cut -c1-60 /tmp/o/cpu.txt
tail -2 /tmp/o/gc1.txt
python3 - /tmp/o/gpu.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['cell'],r['medianMs'],r['runs'],r['phases'].get('allocMs'))
PY
