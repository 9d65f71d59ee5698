#!/bin/bash
# Session 40 call 4: bc's level frontiers kept as depths (B: no list made from a byte map on the coordinator, the backward step picking its level's vertices, the reset and halving as vertex maps) against the build before (A: .device/Abc/dist), RMAT 22 weighted, 16 threads, 4 sources (seed 7).
# A fresh engine's runs 1-5 with each superstep's ms, two engines each in turn; the values' hash under both; the GAPBS harness for bc (B).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host TESSERA_NATIVE_DIR=$PWD/build/Release
S=bench/results/h200-2026-11-28-bc-native/scripts C=bench/results/h200-2026-11-28-warm-up/scripts/cvp.mjs
(cp -r .device/gapbs /tmp/gapbs && cd /tmp/gapbs && make -j16 bc > /tmp/gapbs-make.txt 2>&1) &
rm -rf /tmp/o; mkdir -p /tmp/o; (nproc; lscpu | grep -i "model name") > /tmp/o/machine.txt
for r in 1 2; do
  echo "## bc round $r A" >> /tmp/o/cv.txt; PARAMS='{"sources":4,"seed":7}' ROOT=$PWD/.device/Abc node $C bc 22 5 >> /tmp/o/cv.txt 2>&1
  echo "## bc round $r B" >> /tmp/o/cv.txt; PARAMS='{"sources":4,"seed":7}' ROOT=$PWD node $C bc 22 5 >> /tmp/o/cv.txt 2>&1
done
echo "A $(ROOT=$PWD/.device/Abc node $S/bcsum.mjs rmat:22:weighted 2>&1)" > /tmp/o/sum.txt
echo "B $(ROOT=$PWD node $S/bcsum.mjs rmat:22:weighted 2>&1)" >> /tmp/o/sum.txt
wait
timeout 300 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bc --peer gapbs=/tmp/gapbs --out-dir /tmp/h --no-progress > /tmp/o/harness.txt 2>&1
cp /tmp/h/*/results.md /tmp/o/harness.md
cat /tmp/o/machine.txt /tmp/o/cv.txt /tmp/o/sum.txt > $OUT/call4-cv.txt; cp /tmp/o/harness.md $OUT/call4-harness.md; cp /tmp/o/harness.txt $OUT/call4-harness.txt
cat /tmp/o/machine.txt; python3 .device/cvsum.py /tmp/o/cv.txt; cat /tmp/o/sum.txt; grep -E "^\| rmat:22.*bc" /tmp/o/harness.md | cut -c1-200; tail -2 /tmp/o/harness.txt
