#!/bin/bash
# Call 8: the build that locks every pooled array and byte map where CPU sockets own vertices too (the default since): gpu-check at GPU shares 0.6 and 1; PageRank at share 0.6, two engines, 6 runs, results handed back.
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2; do echo "== pr share 0.6"; SHARE=0.6 RECYCLE=1 timeout 90 node $S/rc.mjs pr /tmp/g24.tsr 6; done > /tmp/o/pr.txt 2>&1
python3 $W/ratios.py /tmp/o/pr.txt > /tmp/o/ratios.txt
tar cJf $OUT/call8.tar.xz -C /tmp/o .
for f in /tmp/o/check06.txt /tmp/o/check1.txt; do tail -n 2 $f; done; cat /tmp/o/ratios.txt
