#!/bin/bash
# Session 39 call 7: sssp's push and pull in C++: the distances against the serial reference on RMAT 22 (16 threads, 3 sources), a fresh engine's runs 1-12 A (4a2bf3e) against B in turn, 2 rounds (bc and louvain B too), the GAPBS harness for sssp.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
[ -d /tmp/A3 ] || tar xJf .device/A3.tar.xz -C /tmp; ln -sfn /tmp/node_modules /tmp/A3/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host
rm -rf /tmp/o; mkdir -p /tmp/o; nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt; nvidia-smi -L >> /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/scheck.mjs /tmp/g.tsr 3 16 > /tmp/o/check.txt 2>&1
for r in 1 2; do
  echo "## sssp round $r A" >> /tmp/o/cv.txt; ROOT=/tmp/A3 TESSERA_NATIVE_DIR=/tmp/A3/build/Release node .device/cvp.mjs sssp /tmp/g.tsr 12 >> /tmp/o/cv.txt 2>&1
  echo "## sssp round $r B" >> /tmp/o/cv.txt; node .device/cvp.mjs sssp /tmp/g.tsr 12 >> /tmp/o/cv.txt 2>&1
done
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 sssp > /tmp/o/gapbs-build.txt 2>&1)
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs sssp --peer gapbs=/tmp/gapbs --out-dir /tmp/o/h --no-progress > /tmp/o/harness.txt 2>&1
cp /tmp/o/h/*/results.md $OUT/harness-B.md 2>/dev/null
cat /tmp/o/machine.txt /tmp/o/check.txt /tmp/o/cv.txt > $OUT/cv.txt
cat /tmp/o/machine.txt /tmp/o/check.txt; python3 .device/cvsum.py /tmp/o/cv.txt; grep -E "^\| rmat" /tmp/o/h/*/results.md | cut -c1-200 | head -12; tail -2 /tmp/o/harness.txt
