#!/bin/bash
# Call 6: the committed build (e4055f3: the controller's jobs on addon_jobs.h's threads, pinHost and pinAside in one method): pinlog.mjs (wcc, pr), gpu-check at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for c in wcc pr; do echo "== $c"; timeout 60 node $S/pinlog.mjs $c /tmp/g24.tsr; done > /tmp/o/pinlog.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call6.tar.xz -C /tmp/o .
grep -v "^readState.*0.0[0-9] ms" /tmp/o/pinlog.txt; for f in /tmp/o/check1.txt /tmp/o/check06.txt; do tail -n 2 $f; done
