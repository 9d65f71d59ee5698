#!/bin/bash
# Call 3 (nvidia-h200-x2, build 4b69887): call 2 again with bc given 4 sources (seed 48): sssp and bc (single-GPU device loops; superstep paths on two GPUs) and wcc, RMAT 24 weighted, GPU-only, one GPU against two with S (mg26p.mjs: 6 runs, the median of runs 2-6).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-x2-2026-11-28-touch/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/o/gen.txt 2>&1
for conf in 1 2s; do for cell in sssp bc wcc; do
  PARAMS='{"bc":{"sources":4,"seed":48}}' CONFIGS=$conf CELLS=$cell RUNS=6 timeout 120 node $S/mg26p.mjs "$PWD" /tmp/g24.tsr >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err || echo "$conf $cell rc=$?" >> /tmp/o/speed.err
done; done
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
tar cJf $OUT/call3.tar.xz -C /tmp/o .
cat /tmp/o/speed.txt; tail -3 /tmp/o/speed.err
