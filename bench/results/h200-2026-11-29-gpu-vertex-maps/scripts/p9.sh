#!/bin/bash
# Call 9: gpu-check of the examples (hits: its scaling a GPU vertex pass; mis) with the session's last build, at GPU shares 1 and 0.6 (gpu-check runs the built-ins only unless given --module).
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for sh in 1 0.6; do
  timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share $sh --scale 20 --no-bench --programs pr --module dist/examples/hits/index.js --module dist/examples/mis/index.js > /tmp/o/check$sh.txt 2>&1; echo "check$sh rc $?" >> /tmp/o/check$sh.txt
done
tar cJf $OUT/call9.tar.xz -C /tmp/o .
tail -n 18 /tmp/o/check1.txt; tail -n 3 /tmp/o/check0.6.txt
