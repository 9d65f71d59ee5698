#!/bin/bash
# Issue 20 (branch residency) on an H100: resident state on CUDA (gpu-check at gpuShare 1 and 0.5,
# hops rounds), then hops (operator) vs bfs (built-in) GPU-only, before (8c7fddd) and after, alternated.
set -u
W=$PWD/.device/wt20-residency
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp
mkdir -p /tmp/before /tmp/after && tar xJf $W/base.tar.xz -C /tmp/before && tar xJf $W/tree.tar.xz -C /tmp/after
ln -sfn /tmp/node_modules /tmp/before/node_modules && ln -sfn /tmp/node_modules /tmp/after/node_modules
SNAP=$PWD/.device/snap
cd /tmp/after
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; node -v; } > $OUT/machine.txt 2>&1
mods="--module dist/test/fixtures/operators/programs.js --module dist/examples/kcore/index.js --module dist/examples/hits/index.js"
for share in 1 0.5; do
  t0=$(date +%s)
  timeout 150 node scripts/gpu-check.mjs --scale 18 --snap $SNAP --no-bench --programs scc,ppr $mods --gpu-share $share --json $OUT/gc-$share.json > $OUT/gc-$share.txt 2>&1
  echo "gpu-check share $share rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
done
t0=$(date +%s)
timeout 90 node .device-rounds.mjs > $OUT/rounds.txt 2>&1; echo "rounds rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
timeout 100 node dist/src/cli/main.js generate rmat --scale 22 --out /tmp/g22.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for r in 1 2; do
  for m in "" "--mode push"; do
    timeout 60 node scripts/operator-transfers.mjs /tmp/g22.tsr --runs 5 $m --json --root /tmp/before >> $OUT/speed.jsonl 2>> $OUT/speed.err
    timeout 60 node scripts/operator-transfers.mjs /tmp/g22.tsr --runs 5 $m --json >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "speed $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 60 node scripts/operator-transfers.mjs /tmp/g22.tsr --runs 5 > $OUT/speed-after.txt 2>&1
cat $OUT/machine.txt; tail -4 $OUT/gc-1.txt; tail -4 $OUT/gc-0.5.txt; cat $OUT/rounds.txt; cat $OUT/speed-after.txt; tail -3 $OUT/speed.err
python3 -c "
import json
for l in open('$OUT/speed.jsonl'):
  d=json.loads(l); print('before' if d['root']=='/tmp/before' else 'after ', d['mode'], 'hops %.1f ms in %.1f MiB' % (d['hops']['ms'], d['hops']['stateIn']/2**20), 'bfs %.1f ms in %.1f MiB' % (d['bfs']['ms'], d['bfs']['stateIn']/2**20), 'ratio %.2f' % (d['hops']['ms']/d['bfs']['ms']))
"
