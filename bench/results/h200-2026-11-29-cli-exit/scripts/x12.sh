#!/bin/bash
# Call 12: the session's last build (61d84c7) on the GPU: x11.sh's checks (RMAT 22 weighted GPU-only against CPU-only,
# gpu-check --gpus 1), then `tessera run --algo bfs` without --source on RMAT 24 weighted's .tsr (refused before the read's
# end; the reads in flight stop at the exit), three walls.
set -u
bash bench/results/h200-2026-11-29-cli-exit/scripts/x11.sh > /tmp/x11.out 2>&1
rm -f $OUT/call11.tar.xz; mkdir -p /tmp/o12; cp /tmp/o/same.txt /tmp/o/gpu-check.txt /tmp/o/machine.txt /tmp/o12/
GEN="rmat --scale 24 --weighted" TSR=g24.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
cp /tmp/o12/* /tmp/o/
for i in 1 2 3; do s=$(date +%s%N); node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo bfs > /dev/null 2>/tmp/o/err.txt; rc=$?; e=$(date +%s%N); echo "refused rc=$rc wall_ms $(( (e-s)/1000000 )) $(cat /tmp/o/err.txt)"; done > /tmp/o/refused.txt 2>&1; log refused $?
tar cJf $OUT/call12.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/same.txt /tmp/o/refused.txt; tail -1 /tmp/o/gpu-check.txt
