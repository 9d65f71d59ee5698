#!/bin/bash
# Call 10 (nvidia-h200, one GPU), build ce52c91 (the session's last code): gpu-check, every built-in and shipped example
# on RMAT 20 and the SNAP graphs, at GPU shares 1 and 0.6.
set -u
TSR=none; GEN=none; source bench/results/h200-x2-2026-11-29-recycled/scripts/setup.sh
for share in 1 0.6; do t1=$(date +%s); left=$(( 560 - (t1 - T0) )); [ $left -lt 30 ] && break
  timeout $left node scripts/gpu-check.mjs --gpu-share $share --scale 20 --no-bench > /tmp/o/gc-$share.txt 2>&1; log "gpu-check $share" $?; done
tar cJf $OUT/call10.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; tail -n 1 /tmp/o/gc-*.txt
