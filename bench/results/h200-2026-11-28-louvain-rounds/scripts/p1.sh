#!/bin/bash
# Session 40 call 1: louvain's sequential path whole in C++ (B: cpu.louvainRounds) against pass by pass from TypeScript (A: NOROUNDS=1), one build.
# A fresh engine's runs 1-12 on RMAT 16 (16 threads), three engines each in turn; one engine's 15 runs (RMAT 16) and 5 (RMAT 18) with Q; the graphology harness (B).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
tar xJf .device/graph-mods.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host ROOT=$PWD
S=bench/results/h200-2026-11-28-louvain-rounds/scripts
rm -rf /tmp/o; mkdir -p /tmp/o; nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
for r in 1 2 3; do
  echo "## louvain round $r A" >> /tmp/o/cv.txt; NOROUNDS=1 node $S/cvn.mjs louvain 16 12 >> /tmp/o/cv.txt 2>&1
  echo "## louvain round $r B" >> /tmp/o/cv.txt; node $S/cvn.mjs louvain 16 12 >> /tmp/o/cv.txt 2>&1
done
for g in 16:15 18:5; do
  echo "A rmat ${g%%:*}: $(NOROUNDS=1 node $S/lvn.mjs rmat:${g%%:*}:weighted 16 ${g##*:} 2>&1)" >> /tmp/o/lvq.txt
  echo "B rmat ${g%%:*}: $(node $S/lvn.mjs rmat:${g%%:*}:weighted 16 ${g##*:} 2>&1)" >> /tmp/o/lvq.txt
done
timeout 200 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/h --no-progress > /tmp/o/harness.txt 2>&1
cp /tmp/h/*/results.md /tmp/o/harness.md
cat /tmp/o/machine.txt /tmp/o/cv.txt /tmp/o/lvq.txt > $OUT/call1-cv.txt
cp /tmp/o/harness.md $OUT/call1-harness.md; cp /tmp/o/harness.txt $OUT/call1-harness.txt
cat /tmp/o/machine.txt; python3 .device/cvsum.py /tmp/o/cv.txt; cat /tmp/o/lvq.txt; grep -E "louvain \|" /tmp/o/harness.md | cut -c1-220; tail -2 /tmp/o/harness.txt
