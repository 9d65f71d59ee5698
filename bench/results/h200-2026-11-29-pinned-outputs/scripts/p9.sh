#!/bin/bash
# Call 9: the review's build (72556ac: the emulated GPU's block pool on a CopyPool): gpu-check at GPU share 1 on the real GPU, and with --emulated.
set -u
. bench/results/h200-2026-11-29-pinned-outputs/scripts/setup.sh
timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 150 node scripts/gpu-check.mjs --emulated --gpu-share 1 --scale 16 --no-bench > /tmp/o/check-emu.txt 2>&1; echo "check-emu rc $?" >> /tmp/o/check-emu.txt
tar cJf $OUT/call9.tar.xz -C /tmp/o .
for f in /tmp/o/check1.txt /tmp/o/check-emu.txt; do tail -n 2 $f; done
