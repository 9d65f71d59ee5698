#!/bin/bash
# Session 39 call 4: a fresh engine's runs 1-12 (cvp.mjs), pr (10 iterations), sssp, bc (4 sources) on RMAT 22 and louvain on RMAT 16, 16 threads: A (4a2bf3e) against B, in turn, 2 rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
[ -d /tmp/A3 ] || tar xJf .device/A3.tar.xz -C /tmp; ln -sfn /tmp/node_modules /tmp/A3/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host
rm -rf /tmp/o; mkdir -p /tmp/o; nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for r in 1 2; do for p in pr sssp bc louvain; do
  g=/tmp/g.tsr; P='{}'; [ $p = louvain ] && g=16; [ $p = bc ] && P='{"sources":4}'
  echo "## $p round $r A" >> /tmp/o/cv.txt; PARAMS=$P ROOT=/tmp/A3 TESSERA_NATIVE_DIR=/tmp/A3/build/Release node .device/cvp.mjs $p $g 12 >> /tmp/o/cv.txt 2>&1
  echo "## $p round $r B" >> /tmp/o/cv.txt; PARAMS=$P ROOT=$PWD node .device/cvp.mjs $p $g 12 >> /tmp/o/cv.txt 2>&1
done; done
cat /tmp/o/machine.txt /tmp/o/cv.txt > $OUT/cv.txt
cat /tmp/o/machine.txt; python3 .device/cvsum.py /tmp/o/cv.txt
