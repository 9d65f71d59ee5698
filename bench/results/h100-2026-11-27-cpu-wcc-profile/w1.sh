#!/bin/bash
# Session 32 call 5 (x1, CPU only): where CPU WCC and BFS spend their time now. Harness RMAT 22 bfs+wcc vs
# GAPBS on the 16 cores; main-thread profiles of 40 warm runs; timelines of 30 warm runs.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; uname -r; uptime; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1)
sed -e '/  - sssp/d' -e '/  - pr:/d' -e '/  - bc:/d' -e '/# Brandes/d' -e '/# whose sample/d' bench/gapbs-rmat22.yaml > bench/tw.yaml
timeout 300 node dist/src/cli/main.js bench --config bench/tw.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; echo "harness rc=$?" >> /tmp/o/machine.txt
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for c in wcc bfs; do
  node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c.txt 2>&1
  node .device/mainprof.mjs $c /tmp/g.tsr 16 40 /tmp/$c.cpuprofile > /tmp/o/mainprof-$c.txt 2>&1
  python3 .device/incl.py /tmp/$c.cpuprofile >> /tmp/o/mainprof-$c.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; grep -v "^GPU" machine.txt; grep -A8 "Peers on the same" harness/*/results.md; for f in tl-*.txt; do sed -n 1,6p $f | cut -c1-300; done; for c in wcc bfs; do head -1 mainprof-$c.txt; sed -n '/--- inclusive/,$p' mainprof-$c.txt | head -45; done
