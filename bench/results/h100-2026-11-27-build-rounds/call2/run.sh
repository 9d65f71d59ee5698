#!/bin/bash
# Session 27 call 2 (x1): build of RMAT 24 weighted on 16 threads: this build (parallel transpose rounds,
# parallel renumber) against the commit before (probe/), alternated; main-thread profile of the new one.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; git log --oneline -1; uptime; } > /tmp/o/machine.txt 2>&1
R=$PWD
for i in 1 2; do
  echo "new $(node --expose-gc .device/bp.mjs rmat:24:weighted 16 1)" >> /tmp/o/bp.txt 2>&1
  echo "old $(cd .device/probe && node --expose-gc $R/.device/bp.mjs rmat:24:weighted 16 1)" >> /tmp/o/bp.txt 2>&1
done
mkdir -p /tmp/o/prof && node --cpu-prof --cpu-prof-dir=/tmp/o/prof .device/bp.mjs rmat:24:weighted 16 1 >> /tmp/o/bp.txt 2>&1
for f in /tmp/o/prof/*.cpuprofile; do echo "== $f"; node .device/topprof.mjs $f 25; done > /tmp/o/prof.txt 2>&1
rm -rf /tmp/o/prof
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; cat bp.txt; head -28 prof.txt
