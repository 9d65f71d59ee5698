#!/bin/bash
# Session 40 call 5: bc's steps in C++ (B: cpu.bcFwdPush/bcFwdPull/bcBackPull/bcBackPush) against the same build with TESSERA_NATIVE_KERNELS=0 (Bts: the TypeScript kernels, call 4's B) and against A (.device/Abc/dist: before call 4's change), RMAT 22 weighted, 16 threads, 4 sources (seed 7), a fresh engine's runs 1-6, two engines each in turn;
# B's values' hash; the GAPBS harness for bc (B); gpu-check (RMAT 20 and the SNAP graphs) at GPU shares 1 and 0.6 (bc's driver changed for every topology).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-bc-native/scripts C=bench/results/h200-2026-11-28-warm-up/scripts/cvp.mjs
(cp -r .device/gapbs /tmp/gapbs && cd /tmp/gapbs && make -j16 bc > /tmp/gapbs-make.txt 2>&1) &
rm -rf /tmp/o; mkdir -p /tmp/o; (nproc; lscpu | grep -i "model name"; nvidia-smi -L) > /tmp/o/machine.txt
export TESSERA_NATIVE_DIR=$PWD/build/Release
for r in 1 2; do
  echo "## bc round $r A" >> /tmp/o/cv.txt; TESSERA_NATIVE_FLAVOR=host PARAMS='{"sources":4,"seed":7}' ROOT=$PWD/.device/Abc node $C bc 22 6 >> /tmp/o/cv.txt 2>&1
  echo "## bc round $r Bts" >> /tmp/o/cv.txt; TESSERA_NATIVE_KERNELS=0 TESSERA_NATIVE_FLAVOR=host PARAMS='{"sources":4,"seed":7}' ROOT=$PWD node $C bc 22 6 >> /tmp/o/cv.txt 2>&1
  echo "## bc round $r B" >> /tmp/o/cv.txt; TESSERA_NATIVE_FLAVOR=host PARAMS='{"sources":4,"seed":7}' ROOT=$PWD node $C bc 22 6 >> /tmp/o/cv.txt 2>&1
done
echo "B $(TESSERA_NATIVE_FLAVOR=host ROOT=$PWD node $S/bcsum.mjs rmat:22:weighted 2>&1)" > /tmp/o/sum.txt
wait
TESSERA_NATIVE_FLAVOR=host timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bc --peer gapbs=/tmp/gapbs --out-dir /tmp/h --no-progress > /tmp/o/harness.txt 2>&1
cp /tmp/h/*/results.md /tmp/o/harness.md
unset TESSERA_NATIVE_DIR
for share in 1 0.6; do timeout 170 node scripts/gpu-check.mjs --gpus 1 --gpu-share $share --scale 20 --no-bench > /tmp/o/gpu-check-$share.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/gpu-check-$share.txt; done
cat /tmp/o/machine.txt /tmp/o/cv.txt /tmp/o/sum.txt > $OUT/call5-cv.txt; cp /tmp/o/harness.md $OUT/call5-harness.md; cat /tmp/o/gpu-check-1.txt /tmp/o/gpu-check-0.6.txt > $OUT/call5-gpu-check.txt
cat /tmp/o/machine.txt; python3 .device/cvsum.py /tmp/o/cv.txt; cat /tmp/o/sum.txt; grep -E "^\| rmat:22.*bc" /tmp/o/harness.md | cut -c1-200; tail -2 /tmp/o/harness.txt; tail -4 /tmp/o/gpu-check-1.txt; tail -4 /tmp/o/gpu-check-0.6.txt
