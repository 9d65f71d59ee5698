#!/bin/bash
# Call 4: sssp on one GPU owning every vertex, every bucket in one controller call (B: sssp_steps) against the build before (A: a superstep a bucket step, improvements through the coordinator's lists), RMAT 24 weighted from the top hub, in turn; the 16 CPU threads; the GPU harness's sssp cells beside GAPBS; gpu-check at GPU shares 1 and 0.6.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-bc-sources/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && g++ -std=c++11 -O3 -Wall -fopenmp src/sssp.cc -o sssp) > /tmp/o/gapbs-build.txt 2>&1 &
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
A="ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/.device/N0"
B="ROOT=$PWD"
for i in 1 2; do for v in A B; do
  echo "== GPU sssp $v"; env ${!v} GPU=1 KEEP=1 timeout 60 node $S/so.mjs sssp /tmp/g24.tsr 5
done; done > /tmp/o/sssp-gpu.txt 2>&1
echo "== CPU sssp B" > /tmp/o/sssp-cpu.txt; KEEP=1 timeout 60 node $S/so.mjs sssp /tmp/g24.tsr 5 >> /tmp/o/sssp-cpu.txt 2>&1
for share in 1 0.6; do timeout 120 node scripts/gpu-check.mjs --gpus 1 --gpu-share $share --scale 20 --no-bench > /tmp/o/gc-$share.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/gc-$share.txt; done
wait
t0=$(date +%s)
timeout 280 node dist/src/cli/main.js bench --config bench/gpu-gapbs-rmat24.yaml --programs sssp --peer gapbs=/tmp/gapbs --out-dir /tmp/b24 --no-progress > /tmp/o/bench24.log 2>&1; echo "bench24 rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/b24/*/ | head -1); cp "$d"/results.md /tmp/o/results24.md; cp "$d"/cells.jsonl /tmp/o/cells24.jsonl
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/sssp-gpu.txt /tmp/o/sssp-cpu.txt; for f in /tmp/o/gc-1.txt /tmp/o/gc-0.6.txt; do tail -n 2 $f; grep " sssp " $f; done
grep "^| rmat" /tmp/o/results24.md | cut -d'|' -f2-9 | head -12
