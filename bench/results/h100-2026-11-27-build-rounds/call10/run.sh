#!/bin/bash
# Session 27 call 10 (x1): generate + build RMAT 24 weighted through the library's generate(): this build
# (no scan of a generator's lists: maxId) against 0cadc90 (probe/), alternated.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep -E "Model name"; uptime; } > /tmp/o/machine.txt 2>&1
R=$PWD
for i in 1 2 3; do
  echo "new $(node --expose-gc .device/bpa.mjs rmat:24:weighted 1)" >> /tmp/o/bpa.txt 2>&1
  echo "old $(cd .device/probe && node --expose-gc $R/.device/bpa.mjs rmat:24:weighted 1)" >> /tmp/o/bpa.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; cat bpa.txt
