#!/bin/bash
# Session 38 call 2: bfs's levels in the addon (bfsTeam, B) against the TypeScript team (A = 8398b9a):
# depths against the reference, a fresh engine's runs 1-9 (cv.mjs), the GAPBS harness on RMAT 22.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
[ -d .device/A2 ] || tar xJf .device/A2.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A2/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
ROOT=$PWD node .device/check.mjs /tmp/g22.tsr 6 16 > /tmp/o/check.txt 2>&1
A() { ROOT=$PWD/.device/A2 TESSERA_NATIVE_DIR=$PWD/.device/A2/build/Release TESSERA_NATIVE_FLAVOR=host "$@"; }
for r in 1 2 3; do
  echo "== A bfs" >> /tmp/o/cv.txt; A node .device/cv.mjs bfs /tmp/g22.tsr 9 >> /tmp/o/cv.txt 2>&1
  echo "== B bfs" >> /tmp/o/cv.txt; node .device/cv.mjs bfs /tmp/g22.tsr 9 >> /tmp/o/cv.txt 2>&1
done
echo "== A bfs warm 30" >> /tmp/o/cv.txt; A node .device/cv.mjs bfs /tmp/g22.tsr 30 >> /tmp/o/cv.txt 2>&1
echo "== B bfs warm 30" >> /tmp/o/cv.txt; node .device/cv.mjs bfs /tmp/g22.tsr 30 >> /tmp/o/cv.txt 2>&1
A timeout 150 node .device/A2/dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-A --no-progress > /tmp/o/harness-A.txt 2>&1
timeout 150 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-B --no-progress > /tmp/o/harness-B.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/check.txt
awk '/^==/{h=$0; next} /^create/{next} {a[h]=a[h]" "$2} END{for(k in a) print k, a[k]}' /tmp/o/cv.txt
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h "| bfs |" $f | cut -c1-150; done; tail -2 /tmp/o/harness-*.txt
