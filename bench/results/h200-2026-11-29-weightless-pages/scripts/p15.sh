#!/bin/bash
# Call 15: call 14 (p14.sh) again with ppr's pprInit summing out-weights page by page (HEAD): weighted PageRank CPU-only against GPU-only, in turn, twice; the report's phases.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for i in 1 2; do for t in "configs/1S.yaml" "configs/1S1G-pcie5.yaml --alpha 0"; do
  node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo pr --param weighted=1 --iterations 10 --topology $t -q --report /tmp/o/r.json > /dev/null 2>&1
  echo "== $t $(python3 -c "
import json;r=json.load(open('/tmp/o/r.json'));print(r['program'], round(r['totalMs'],1), {k: round(v,1) for k, v in r['phases'].items()})")"
done; done > /tmp/o/maps.txt 2>&1
tar cJf $OUT/call15.tar.xz -C /tmp/o .
cat /tmp/o/maps.txt
