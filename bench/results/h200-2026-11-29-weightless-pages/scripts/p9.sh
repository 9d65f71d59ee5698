#!/bin/bash
# Call 9: Louvain's view kept per graph (B = HEAD) against built every run (A = the commit before, .device/A), RMAT 16 weighted, 16 threads:
# one engine's 12 runs (lvn.mjs of ../../h200-2026-11-28-louvain-rounds), A and B in turn, three times; the graphology harness (bench/graphology-small.yaml --programs louvain) with B, then with A.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
tar xJf .device/graph-mods.tar.xz -C /tmp
L=bench/results/h200-2026-11-28-louvain-rounds/scripts
for r in 1 2 3; do
  echo "A $(ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release node $L/lvn.mjs rmat:16:weighted 16 12 2>&1)"
  echo "B $(node $L/lvn.mjs rmat:16:weighted 16 12 2>&1)"
done > /tmp/o/lvn.txt
timeout 150 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/hB --no-progress > /tmp/o/harness-B.txt 2>&1
cp /tmp/hB/*/results.md /tmp/o/harness-B.md
timeout 150 env TESSERA_NATIVE_DIR=$PWD/build/Release node .device/A/dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/hA --no-progress > /tmp/o/harness-A.txt 2>&1
cp /tmp/hA/*/results.md /tmp/o/harness-A.md
tar cJf $OUT/call9.tar.xz -C /tmp/o .
cat /tmp/o/lvn.txt; grep -E "louvain \|" /tmp/o/harness-B.md /tmp/o/harness-A.md | cut -c1-200; tail -1 /tmp/o/harness-B.txt /tmp/o/harness-A.txt
