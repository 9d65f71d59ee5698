#!/bin/bash
# Call 2 (nvidia-h200-x2, build 4b69887): the programs whose one-call device loops are single-GPU (sssp's sssp_steps, bc held on the device) on two GPUs, where they take their superstep paths: RMAT 24 weighted, GPU-only, one GPU against two with S, sssp and bc (mg26.mjs: 6 runs, the median of runs 2-6), wcc beside them (Afforest merges forests across GPUs).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/o/gen.txt 2>&1
CONFIGS=1,2s CELLS=sssp,bc,wcc RUNS=6 timeout 400 node .device/mg26.mjs "$PWD" /tmp/g24.tsr > /tmp/o/speed.jsonl 2> /tmp/o/speed.err
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
tar cJf $OUT/call2.tar.xz -C /tmp/o .
cat /tmp/o/speed.txt; tail -3 /tmp/o/speed.err
