#!/bin/bash
# One device call: gpu-check (every program, GPU vs CPU) on RMAT 20 and the SNAP graphs with this
# build, then GPU-only PageRank / BFS / top-down BFS on RMAT 24 for the build before the plug-in
# port and this one, alternated, then the PCIe / cuSPARSE anchors.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules && mkdir -p /tmp/before/build && ln -sfn "$PWD/build/Release" /tmp/before/build/Release
{ nvidia-smi -L; nproc; node -v; git log --oneline -1 2>/dev/null; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ "${SKIP_CHECK:-0}" = 1 ] || node scripts/gpu-check.mjs --scale 20 --snap .device/snap --no-bench --json $OUT/gpu-check.json > $OUT/gpu-check.txt 2>&1; echo "gpu-check rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t0=$(date +%s)
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for i in 1 2 3; do
  node .device/speed.mjs /tmp/before /tmp/g24.tsr before >> $OUT/speed.jsonl 2>> $OUT/speed.err
  node .device/speed.mjs "$PWD" /tmp/g24.tsr after >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
[ "${SKIP_CHECK:-0}" = 1 ] || timeout 120 python3 .device/gpu_anchors.py 24 > $OUT/anchors.txt 2>&1
cat $OUT/machine.txt; tail -15 $OUT/gpu-check.txt; cat $OUT/speed.jsonl; tail -5 $OUT/speed.err; cat $OUT/anchors.txt
