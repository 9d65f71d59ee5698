#!/bin/bash
# Call 9 (one H200): each backward level of bcSource walks only the out-pages holding one of its vertices (B) against A (d88e948: every out-page each level), RMAT 24 weighted, 4 sources (seed 48), GPU-only, results kept, 6 runs, three engines each in turn (so.mjs); gpu-check of B at GPU shares 1 and 0.6; the GPU harness's bc cells beside GAPBS (bench/gpu-gapbs-rmat24.yaml).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
SO=bench/results/h200-2026-11-28-bc-sources/scripts/so.mjs
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && g++ -std=c++11 -O3 -Wall -fopenmp src/bc.cc -o bc) > /tmp/o/gapbs-build.txt 2>&1 &
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2 3; do
  echo "== A bc"; ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release PARAMS='{"sources":4,"seed":48}' GPU=1 KEEP=1 timeout 90 node $SO bc /tmp/g24.tsr 6
  echo "== B bc"; PARAMS='{"sources":4,"seed":48}' GPU=1 KEEP=1 timeout 90 node $SO bc /tmp/g24.tsr 6
done > /tmp/o/bc.txt 2>&1
for share in 1 0.6; do timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $share --scale 20 --no-bench > /tmp/o/gc-$share.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/gc-$share.txt; done
wait
t0=$(date +%s)
timeout 300 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs bc --peer gapbs=/tmp/gapbs --out-dir /tmp/b24 --no-progress > /tmp/o/bench24.log 2>&1; echo "bench24 rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/b24/*/ | head -1); cp "$d"/results.md /tmp/o/results24.md; cp "$d"/cells.jsonl /tmp/o/cells24.jsonl
tar cJf $OUT/call9.tar.xz -C /tmp/o .
cat /tmp/o/bc.txt; tail -n 2 /tmp/o/gc-1.txt /tmp/o/gc-0.6.txt; tail -2 /tmp/o/machine.txt; grep "^| rmat" /tmp/o/results24.md | cut -d'|' -f2-9 | head -12
