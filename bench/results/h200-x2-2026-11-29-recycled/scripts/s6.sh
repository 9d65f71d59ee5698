#!/bin/bash
# Call 6 (nvidia-h200, one GPU): A (aa4d8a0: the addon's madvise before every fill) against B (a84337f: once per buffer),
# in turn, RMAT 24 weighted, bfs, wcc, pr (10 iterations), sssp, on the CPU socket alone (every core) and on the GPU
# alone (mg29.mjs CONFIGS 0 and 1, preloaded, results recycled, 8 runs, the median of runs 2-8).
set -u
F=bench/results/h200-x2-2026-11-29-recycled/scripts
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
rm -rf .device/A; tar xJf .device/A.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_DIR=$PWD/build/Release
rm -rf /tmp/o; mkdir -p /tmp/o; T0=$(date +%s)
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
log() { echo "$1 rc=$2 $(( $(date +%s) - t1 ))s (at $(( $(date +%s) - T0 ))s)" >> /tmp/o/machine.txt; }
t1=$(date +%s); [ -f /tmp/g24.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/o/gen.txt 2>&1; log generate $?
for conf in 1 0; do for b in A B; do R=$PWD; [ $b = A ] && R=$PWD/.device/A
  t1=$(date +%s); left=$(( 560 - (t1 - T0) )); [ $left -lt 20 ] && break
  CONFIGS=$conf CELLS=bfs,wcc,pr,sssp RUNS=8 timeout $left node $F/mg29.mjs "$R" /tmp/g24.tsr | sed "s/^{/{\"build\":\"$b\",/" >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err; log "$conf $b" $?; done; done
python3 - /tmp/o/speed.jsonl > /tmp/o/speed.txt <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
tar cJf $OUT/call6.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; sort -k2,2 -k3,3 -s /tmp/o/speed.txt | cut -c1-260; tail -3 /tmp/o/speed.err
