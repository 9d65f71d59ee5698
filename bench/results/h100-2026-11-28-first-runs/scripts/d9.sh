#!/bin/bash
# Session 36 call 9: C (3b50693) against D (C + the team drill at the gang's warm-up): a fresh
# engine's runs (bfs, wcc; RMAT 22, 16 threads), 3 rounds; D's deopts; the harness (bfs) both.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_NATIVE_DIR=$PWD/build/Release TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
C=$PWD/.device/C; D=$PWD
for r in 1 2 3; do for p in bfs wcc; do for b in C D; do
  echo "## $p round $r build $b" >> /tmp/o/cv.txt
  ROOT=${!b} node .device/cv.mjs $p /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1
done; done; done
MARK=1 ROOT=$D node --trace-opt --trace-deopt .device/cv.mjs bfs /tmp/g.tsr 8 > /tmp/o/opt-bfs-D.txt 2>&1
for b in C D; do
  timeout 200 node ${!b}/dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-$b --no-progress > /tmp/o/harness-$b.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
grep -E "^##|^[0-9]+ " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
grep -E "deoptimiz|bailout" /tmp/o/opt-bfs-D.txt | grep -oE "<JSFunction [^ >]*|reason: [^)]*" | sort | uniq -c | sort -rn | head
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h '| gapbs (16' $f; done
