#!/bin/bash
# Session 27 call 11 (x1): the degree count grouped by key range per chunk (bucketed) against 3aa9e76 (probe/),
# generate + build RMAT 24 through the library's generate(), alternated; steps of the new one (inst/).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules && ln -sfn /tmp/node_modules .device/inst/node_modules
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep -E "Model name|L2|L3"; uptime; } > /tmp/o/machine.txt 2>&1
R=$PWD
for i in 1 2 3; do
  echo "new $(node --expose-gc .device/bpa.mjs rmat:24:weighted 1)" >> /tmp/o/bpa.txt 2>&1
  echo "old $(cd .device/probe && node --expose-gc $R/.device/bpa.mjs rmat:24:weighted 1)" >> /tmp/o/bpa.txt 2>&1
done
(cd .device/inst && node --expose-gc $R/.device/bpa.mjs rmat:24:weighted 1) > /tmp/o/steps.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; cat bpa.txt; grep '"count"\|"scan"\|totalMs' steps.txt | cut -c1-150
