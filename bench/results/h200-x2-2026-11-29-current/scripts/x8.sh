#!/bin/bash
# Call 8 (nvidia-h200-x2, the command as run): call 7's check for louvain and the examples at 640 MiB.
GEN=none source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts; for g in "1" "2 --multi-gpu s"; do n=${g%% *}; timeout 60 node scripts/gpu-check.mjs --gpus $g --gpu-share 1 --scale 20 --no-snap --no-bench --memory-limit 640MiB --programs louvain,hits,mis > /tmp/o/gc$n-640.txt 2>&1; echo "gc $n rc=$?"; done; tar cJf $OUT/call8.tar.xz -C /tmp/o .; tail -n 3 /tmp/o/gc*-640.txt
