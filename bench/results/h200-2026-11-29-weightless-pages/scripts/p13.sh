#!/bin/bash
# Call 13: where weighted PageRank's (ppr) vertex maps go on one GPU: `tessera run --algo pr --param weighted=1 --iterations 10`, GPU-only, RMAT 24 weighted, under tl.mjs (each GpuController and socket actor call: count, first start, last end), twice; the report's phases and steps.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
for i in 1 2; do
  node --import ./$T/tl.mjs dist/src/cli/main.js run --graph /tmp/g24.tsr --algo pr --param weighted=1 --iterations 10 --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r$i.json > /dev/null 2>/tmp/o/tl$i.txt
  python3 -c "
import json;r=json.load(open('/tmp/o/r$i.json'))
print('== run $i', r['program'], round(r['totalMs'],1), r['phases'])
for s in r['steps'][:4]: print('  step', s.get('kernel'), {k: v for k, v in s.items() if isinstance(v, (int, float))})
"
  cat /tmp/o/tl$i.txt
done > /tmp/o/ppr-tl.txt 2>&1
tar cJf $OUT/call13.tar.xz -C /tmp/o .
cat /tmp/o/ppr-tl.txt | cut -c1-300
