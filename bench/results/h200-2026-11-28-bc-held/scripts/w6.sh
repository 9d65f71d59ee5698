#!/bin/bash
# Call 6 (one H200): bc held on the device across sources (B: this session's build) against A (77a50f2, bc up and back each source), RMAT 24 weighted, 4 sources (seed 48), GPU-only, results kept, 6 runs a fresh engine, three engines each in turn (so.mjs); gpu-check of B at GPU shares 1 and 0.6.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
SO=bench/results/h200-2026-11-28-bc-sources/scripts/so.mjs
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2 3; do
  echo "== A bc"; ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release PARAMS='{"sources":4,"seed":48}' GPU=1 KEEP=1 timeout 90 node $SO bc /tmp/g24.tsr 6
  echo "== B bc"; PARAMS='{"sources":4,"seed":48}' GPU=1 KEEP=1 timeout 90 node $SO bc /tmp/g24.tsr 6
done > /tmp/o/bc.txt 2>&1
for share in 1 0.6; do timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $share --scale 20 --no-bench > /tmp/o/gc-$share.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/gc-$share.txt; done
tar cJf $OUT/call6.tar.xz -C /tmp/o .
cat /tmp/o/bc.txt; for f in /tmp/o/gc-*.txt; do tail -n 2 $f; done
