#!/bin/bash
# Session 36 call 5: A (HEAD 25eb96e) against C (gang kept after warm-up with its idle clock from
# its ring, IDLE_MS 250; kernels imported at create; bfs team scratch pooled; dense plan at create):
# a fresh engine's runs at 16 threads, C at 15 too; the harness (1S 16 threads and 15) against GAPBS on 16.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_NATIVE_DIR=$PWD/build/Release TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
A=$PWD/.device/A; C=$PWD
for r in 1 2 3; do for p in bfs wcc; do for b in A C C15; do
  echo "## $p round $r build $b" >> /tmp/o/cv.txt
  d=${b%15}; th=16; [ $b = C15 ] && th=15
  TL_THREADS=$th ROOT=${!d} node .device/cv.mjs $p /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1
done; done; done
printf 'name: 1S15\nsockets:\n  - id: 0\n    threads: 15\n' > /tmp/1S15.yaml
sed -e 's|  - ../configs/1S.yaml|  - ../configs/1S.yaml\n  - /tmp/1S15.yaml|' bench/gapbs-rmat22.yaml > bench/c15.yaml
timeout 200 node $A/dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-A --no-progress > /tmp/o/harness-A.txt 2>&1
timeout 250 node dist/src/cli/main.js bench --config bench/c15.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-C --no-progress > /tmp/o/harness-C.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
grep -E "^##|^[0-9] " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h '| gapbs (16' $f; grep -h "| tessera |" $f; done
