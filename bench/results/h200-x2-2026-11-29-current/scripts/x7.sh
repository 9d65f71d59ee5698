#!/bin/bash
# Call 7 (nvidia-h200-x2), call 5's build: call 6's capped gpu-check for the programs after cdlp (LCC's triangle work
# array needs 120 MiB: lcc and tc at 320 MiB, the rest at 160 MiB), one GPU and two with dealt pages (S).
set -u
GEN=none source bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh; F=bench/results/h200-x2-2026-11-29-current/scripts
for g in "1" "2 --multi-gpu s"; do n=${g%% *}
  t1=$(date +%s); timeout 100 node scripts/gpu-check.mjs --gpus $g --gpu-share 1 --scale 20 --no-snap --no-bench --memory-limit 160MiB --programs bc,scc,ppr,kcore,louvain,hits,mis > /tmp/o/gc$n-160.txt 2>&1; log "gpu-check $n 160MiB" $?
  t1=$(date +%s); timeout 60 node scripts/gpu-check.mjs --gpus $g --gpu-share 1 --scale 20 --no-snap --no-bench --memory-limit 320MiB --programs lcc,tc > /tmp/o/gc$n-320.txt 2>&1; log "gpu-check $n 320MiB" $?
done
tar cJf $OUT/call7.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt | tail -5; tail -n 2 /tmp/o/gc*.txt
