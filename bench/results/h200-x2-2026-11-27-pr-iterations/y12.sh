#!/bin/bash
# Session 31 call 12: held arrays exact on every GPU (bfs's levels, wcc's Afforest) read back in even
# shares at settle instead of by owned ranges; RMAT 25 resident, before (0cd0542+) / after, 1 vs 2P vs 2S, bfs wcc.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    CONFIGS=1,2p,2s CELLS=bfs,wcc RUNS=6 timeout 100 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items() if k in ('stepsMs','settleMs')})
PY
