#!/bin/bash
# Call 2: gpu-check with B (every built-in on RMAT 20 and the SNAP graphs against its serial reference) at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
timeout 250 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 250 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call2.tar.xz -C /tmp/o .
for f in /tmp/o/check1.txt /tmp/o/check06.txt; do tail -n 3 $f; done
