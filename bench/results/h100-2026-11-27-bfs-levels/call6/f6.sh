#!/bin/bash
# Session 28 call 6 (x1): bfs levels in one native call + seeding on the device + 16 staging threads.
# gpu-check share 1 and 0.6 (RMAT 20); GPU-only RMAT 24 bfs/wcc/pr before (a9a776d) / after, 3 rounds of 10 runs;
# the harness (bench/gpu-gapbs-rmat24.yaml: bfs, wcc; GAPBS on the 16 cores).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o /tmp/B; mkdir -p /tmp/B /tmp/o && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/ && mkdir -p /tmp/B/build && tar xJf .device/before-release.tar.xz -C /tmp/B/build && mv /tmp/B/build/before-release /tmp/B/build/Release
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1 &
([ -f /tmp/g24w.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1) &
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check 1 rc=$?" >> /tmp/o/machine.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench --json /tmp/o/gc06.json > /tmp/o/gc06.txt 2>&1; echo "gpu-check 0.6 rc=$?" >> /tmp/o/machine.txt
wait
for round in 1 2 3; do for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  CONFIGS=1 CELLS=bfs,wcc,pr RUNS=10 timeout 150 node .device/mg26.mjs "$R" /tmp/g24w.tsr 2>>/tmp/o/gpu.err | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> /tmp/o/gpu.jsonl
done; done
CELLS=bfs RUNS=10 timeout 100 node .device/rt.mjs /tmp/g24w.tsr > /tmp/o/rt.txt 2>&1
t0=$(date +%s)
timeout 300 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/b24 --no-progress > /tmp/o/bench24.log 2>&1; echo "bench24 rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/b24/*/ | head -1); cp "$d"/results.md /tmp/o/results24.md; cp "$d"/cells.jsonl /tmp/o/cells24.jsonl
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; tail -1 /tmp/o/gc1.txt; tail -1 /tmp/o/gc06.txt; tail -3 /tmp/o/gpu.err
python3 - /tmp/o/gpu.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['cell'],r['medianMs'],r['runs'],{k: round(v,2) for k,v in r['phases'].items()}, r['steps'])
PY
grep -v "receive\|send\|bitmap\|residentNames" /tmp/o/rt.txt | head -16
grep "^| rmat" /tmp/o/results24.md | cut -d'|' -f2-9; grep -A10 "Peers on the same" /tmp/o/results24.md | grep "^| rmat"
