#!/bin/bash
# Call 1 (nvidia-h200-x2), build 4b69887 (the GPU warm-up reading the preloaded pages, streaming stores in the copy pool, Run.finish clearing held frontiers by their lists): gpu-check (RMAT 20 and the SNAP graphs, every built-in) with P and with S at GPU share 1; RMAT 25 unweighted, GPU-only, bfs and pr (10 iterations), one GPU against two with P and with S (mg26.mjs, 6 runs, the median of runs 2-6), two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
for c in p s; do t1=$(date +%s); timeout 150 node scripts/gpu-check.mjs --gpus 2 --multi-gpu $c --gpu-share 1 --scale 20 --no-bench > /tmp/o/gc2$c.txt 2>&1; echo "gpu-check 2 $c rc=$? $(( $(date +%s) - t1 ))s" >> /tmp/o/machine.txt; done
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for round in 1 2; do CONFIGS=1,2p,2s CELLS=bfs,pr RUNS=6 timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"round\":$round,/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; done
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt; tail -n 2 /tmp/o/gc2*.txt; cat /tmp/o/speed.txt; tail -3 /tmp/o/speed.err
