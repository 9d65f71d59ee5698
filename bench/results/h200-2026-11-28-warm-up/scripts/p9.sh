#!/bin/bash
# Session 39 call 9 (the session's build): sssp against the serial reference on RMAT 22 (16 threads), a fresh engine's runs 1-12 for every program of the harness and louvain (2 rounds), the GAPBS harness on RMAT 22.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host
rm -rf /tmp/o; mkdir -p /tmp/o; nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/scheck.mjs /tmp/g.tsr 2 16 > /tmp/o/check.txt 2>&1
for r in 1 2; do for p in bfs wcc pr sssp bc louvain; do
  g=/tmp/g.tsr; P='{}'; [ $p = louvain ] && g=16; [ $p = bc ] && P='{"sources":4}'
  echo "## $p round $r B" >> /tmp/o/cv.txt; PARAMS=$P node .device/cvp.mjs $p $g 12 >> /tmp/o/cv.txt 2>&1
done; done
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc sssp pr bc > /tmp/o/gapbs-build.txt 2>&1)
timeout 330 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/o/h --no-progress > /tmp/o/harness.txt 2>&1
cp /tmp/o/h/*/results.md $OUT/harness.md 2>/dev/null; cp /tmp/o/harness.txt $OUT/
cat /tmp/o/machine.txt /tmp/o/check.txt /tmp/o/cv.txt > $OUT/cv.txt
cat /tmp/o/machine.txt /tmp/o/check.txt; python3 .device/cvsum.py /tmp/o/cv.txt; grep -E "gapbs \(16 threads\) \|" /tmp/o/h/*/results.md | cut -c1-120; tail -2 /tmp/o/harness.txt
