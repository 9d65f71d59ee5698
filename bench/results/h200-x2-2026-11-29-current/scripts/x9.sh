#!/bin/bash
# Call 9 (nvidia-h200-x2, the command as run): the examples at 160 MiB (call 8 stopped at louvain).
GEN=none source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts; for g in "1" "2 --multi-gpu s"; do n=${g%% *}; timeout 60 node scripts/gpu-check.mjs --gpus $g --gpu-share 1 --scale 20 --no-snap --no-bench --memory-limit 160MiB --programs hits,mis > /tmp/o/gc$n-ex.txt 2>&1; echo "gc $n rc=$?"; done; tar cJf $OUT/call9.tar.xz -C /tmp/o .; tail -n 4 /tmp/o/gc*-ex.txt
