#!/bin/bash
# Session 27 call 9 (x1): WCC's labels in one native call (affLabels) against 0cadc90 (probe/: the copy and two
# vertex maps), tl.mjs medians of 30 warm runs alternated; harness bfs,wcc against GAPBS with the new build.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
ln -sfn $PWD/build .device/probe/build
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; uptime; } > /tmp/o/machine.txt 2>&1
R=$PWD
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1) &
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for i in 1 2; do
  node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-wcc-new$i.txt 2>&1
  (cd .device/probe && ROOT=$R/.device/probe node $R/.device/tl.mjs wcc /tmp/g.tsr 30) > /tmp/o/tl-wcc-old$i.txt 2>&1
done
wait
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; echo "harness rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; for f in tl-wcc-*.txt; do echo "$f $(sed -n 2,3p $f | cut -c1-220)"; done; grep -A6 "Peers on the same" harness/*/results.md | tail -3
