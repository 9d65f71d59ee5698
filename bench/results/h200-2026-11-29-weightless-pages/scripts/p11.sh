#!/bin/bash
# Call 11: `tessera run` with the topology detected (--topology auto, the default: nvidia-smi) against a topology file, GPU-only wcc on RMAT 24 weighted, in turn (ot.mjs: when the .tsr is opened, the exit event; tl.mjs once each); nvidia-smi's own time.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
S=bench/results/h200-2026-11-29-weightless-pages/scripts
for i in 1 2 3; do s=$(date +%s%N); nvidia-smi --query-gpu=index,memory.total --format=csv,noheader,nounits > /dev/null; e=$(date +%s%N); echo "nvidia-smi $(( (e-s)/1000000 )) ms"; done > /tmp/o/auto.txt
node dist/src/cli/main.js topology detect >> /tmp/o/auto.txt 2>&1
for i in 1 2 3 4; do for t in auto file; do
  if [ $t = auto ]; then TOP="auto --alpha 0"; else TOP="configs/1S1G-pcie5.yaml --alpha 0"; fi
  H="--import ./$S/ot.mjs"; [ $i = 4 ] && H="--import ./$T/tl.mjs"
  s=$(date +%s%N); node $H dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology $TOP -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== $t wall_ms $(( (e-s)/1000000 )) $(python3 -c "import json;r=json.load(open('/tmp/o/r.json'));print('load',round(r['loadMs']),'start',round(r['startMs']),'total',round(r['totalMs'],2))") $(grep -E '^(OPEN|EXIT)|gpu.create' /tmp/o/err.txt | tr -s ' ' | tr '\n' ' ')"
done; done >> /tmp/o/auto.txt 2>&1
tar cJf $OUT/call11.tar.xz -C /tmp/o .
cat /tmp/o/auto.txt
