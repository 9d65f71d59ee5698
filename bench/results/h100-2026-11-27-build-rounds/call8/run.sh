#!/bin/bash
# Session 27 call 8 (x1): generate + build RMAT 24 weighted through the library's generate(): this build
# (staging touched by every thread before the scatter) against 0cadc90 (probe/), alternated; steps (inst/).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/inst/node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep -E "Model name|Thread|Core|Socket|NUMA node"; git log --oneline -1; uptime; } > /tmp/o/machine.txt 2>&1
R=$PWD
for i in 1 2 3; do
  echo "new $(node --expose-gc .device/bpa.mjs rmat:24:weighted 1)" >> /tmp/o/bpa.txt 2>&1
  echo "old $(cd .device/probe && node --expose-gc $R/.device/bpa.mjs rmat:24:weighted 1)" >> /tmp/o/bpa.txt 2>&1
done
(cd .device/inst && node --expose-gc $R/.device/bpa.mjs rmat:24:weighted 1) > /tmp/o/steps.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; cat bpa.txt; grep -v '"generate"' steps.txt | cut -c1-200
