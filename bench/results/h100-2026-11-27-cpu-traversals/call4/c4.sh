#!/bin/bash
# Session 26 call 4 (x1): harness RMAT 22 bfs,wcc vs GAPBS (16 threads) on this build; tl timelines
# (wcc, bfs); main-thread profile of no-op vertex maps at 16 threads.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; git log --oneline -1; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc sssp pr >/dev/null 2>&1)
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/nopprof.mjs /tmp/g.tsr 16 /tmp/nop.cpuprofile > /tmp/o/nop.txt 2>&1
python3 .device/topprof.py /tmp/nop.cpuprofile 40 >> /tmp/o/nop.txt 2>&1
for c in wcc bfs; do node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c.txt 2>&1; done
timeout 300 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; echo "harness rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; head -3 /tmp/o/nop.txt; head -5 /tmp/o/tl-wcc.txt | cut -c1-250; head -3 /tmp/o/tl-bfs.txt | cut -c1-250; grep -A8 "Peers on the same" /tmp/o/harness/*/results.md
