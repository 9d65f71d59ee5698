#!/bin/bash
# Session 31 call 8: each GPU capped at 2 GiB (pages stream), RMAT 25 GPU-only, this build only,
# 9 runs a cell (median of runs 2-9: the page cache settles over the first runs), two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 $T generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
for round in 1 2; do
  X=/dev/null; [ $round = 1 ] && X=$OUT/reports.jsonl
  MEMLIMIT=2147483648 CONFIGS=1,2p,2s CELLS=pr,wcc,bfs RUNS=9 REPORTS=$X timeout 250 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "capped $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
gzip -f $OUT/reports.jsonl
cat $OUT/machine.txt | grep -v "^GPU"
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
