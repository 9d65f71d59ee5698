#!/bin/bash
# Session 36 call 12: bfsPull over bits with next's bits gathered a word at a time (one plain OR
# for a word inside the range, one atomic OR at its ends) against an atomic OR per vertex found
# (natold): bfs's team, RMAT 22, 16 threads, 30 warm runs x 3 rounds in turn; the harness both.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/bfs ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
OLD=$PWD/.device/natold; NEW=$PWD/build/Release
node .device/check.mjs /tmp/g.tsr 3 16 > /tmp/o/check.txt 2>&1
for r in 1 2 3; do for b in OLD NEW; do
  TESSERA_NATIVE_DIR=${!b} node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-$b-$r.txt 2>&1
done; done
for b in OLD NEW; do
  TESSERA_NATIVE_DIR=${!b} timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-$b --no-progress > /tmp/o/harness-$b.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
tail -2 /tmp/o/check.txt; for f in /tmp/o/tl-*.txt; do echo "== $f $(sed -n 1,2p $f | tr '\n' ' ')"; done
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h '| gapbs (16' $f; done
