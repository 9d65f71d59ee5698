#!/bin/bash
# Call 7: with sssp's dist and bc's dist, sigma and delta unset (no host fill where one GPU keeps its own), GPU-only on RMAT 24 weighted: a fresh engine's first run and its later ones (6 runs, results kept, two engines each) for sssp (top hub) and bc (4 sources, seed 48); gpu-check at GPU shares 1 and 0.6.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-bc-sources/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2; do for c in sssp bc; do
  P='{}'; [ $c = bc ] && P='{"sources":4,"seed":48}'
  echo "== GPU $c"; PARAMS=$P GPU=1 KEEP=1 timeout 60 node $S/so.mjs $c /tmp/g24.tsr 6
done; done > /tmp/o/first-runs.txt 2>&1
for share in 1 0.6; do timeout 120 node scripts/gpu-check.mjs --gpus 1 --gpu-share $share --scale 20 --no-bench > /tmp/o/gc-$share.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/gc-$share.txt; done
tar cJf $OUT/call7.tar.xz -C /tmp o
cat /tmp/o/first-runs.txt; for f in /tmp/o/gc-1.txt /tmp/o/gc-0.6.txt; do tail -n 2 $f; done
