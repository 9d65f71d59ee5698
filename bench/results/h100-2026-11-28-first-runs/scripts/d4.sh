#!/bin/bash
# Session 36 call 4 (e2.sh again, B with the warm gang's idle clock from its ring, IDLE_MS 250): A (HEAD 25eb96e) against B (gang kept after warm-up, kernels imported at create,
# team scratch pooled, output spare, dense plan at create): a fresh engine's runs, runs after 100 ms
# gaps, the harness against GAPBS (bfs, wcc), RMAT 22, 16 threads.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_NATIVE_DIR=$PWD/build/Release TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
A=$PWD/.device/A; B=$PWD
for r in 1 2 3; do for p in bfs wcc; do for b in A B; do
  echo "## $p round $r build $b" >> /tmp/o/cv.txt
  ROOT=${!b} node .device/cv.mjs $p /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1
done; done; done
for r in 1 2; do for b in A B; do
  echo "## bfs gap 100 round $r build $b" >> /tmp/o/cv.txt
  GAP_MS=100 ROOT=${!b} node .device/cv.mjs bfs /tmp/g.tsr 8 >> /tmp/o/cv.txt 2>&1
  echo "## bfs gap 400 round $r build $b" >> /tmp/o/cv.txt
  GAP_MS=400 ROOT=${!b} node .device/cv.mjs bfs /tmp/g.tsr 6 >> /tmp/o/cv.txt 2>&1
done; done
for b in A B; do

  timeout 200 node ${!b}/dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-$b --no-progress > /tmp/o/harness-$b.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
grep -E "^##|^[0-9] " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h '| gapbs (16' $f; done
