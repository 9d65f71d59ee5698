#!/bin/bash
# Session 30 call 10: staging copy threads up to 16 (half the cores) against 8 (TESSERA_STAGING_THREADS=8, the old default), RMAT 25, pr and bfs, 1 vs 2P vs 2S.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1
for round in 1 2; do for th in 8 16; do
  TESSERA_STAGING_THREADS=$th CONFIGS=1,2p,2s CELLS=pr,bfs RUNS=6 timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"threads\":$th,\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done; done
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['threads'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,1) for k,v in r['phases'].items()})
PY
