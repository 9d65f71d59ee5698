#!/bin/bash
# Session 36 call 14: the harness handing each run's result back (Engine.recycle; N) against not
# (O = 8563fcd): bfs and wcc on RMAT 22 against GAPBS on the same 16 threads, two rounds in turn.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_NATIVE_DIR=$PWD/build/Release TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
O=$PWD/.device/O; N=$PWD
for r in 1 2; do for b in O N; do
  timeout 150 node ${!b}/dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-$b-$r --no-progress > /tmp/o/harness-$b-$r.txt 2>&1
done; done
tar cJf $OUT/all.tar.xz -C /tmp o
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h '| gapbs (16' $f | grep -v "| ok"; grep -h "| tessera |" $f | cut -c1-80; done
