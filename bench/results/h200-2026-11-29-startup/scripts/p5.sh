#!/bin/bash
# Call 5 (nvidia-h200): this session's build in the graphology harness (`bench/graphology-small.yaml`: bfs, pr, wcc,
# sssp and louvain on RMAT 10, 12 and 16 weighted, one socket of 16 threads, graphology in the same cells).
set -u
GEN=none
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
tar xJf .device/graph-mods.tar.xz -C /tmp
t1=$(date +%s); NODE_PATH=/tmp/node_modules timeout 500 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; log harness $?
cp /tmp/o/harness/*/results.md /tmp/o/harness.md 2>/dev/null; rm -rf /tmp/o/harness
tar cJf $OUT/call5.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt; grep -B2 -A30 "Peers on the same" /tmp/o/harness.md | head -60; tail -3 /tmp/o/harness.txt
