#!/bin/bash
# Session 27 call 5 (x1): build steps timed (inst/: per-helper times in order), then new vs old (probe/) totals
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/inst/node_modules && ln -sfn /tmp/node_modules .device/probe/node_modules
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; git log --oneline -1; uptime; } > /tmp/o/machine.txt 2>&1
R=$PWD
(cd .device/inst && node --expose-gc $R/.device/bp.mjs rmat:24:weighted 16 1) > /tmp/o/steps.txt 2>&1
for i in 1 2; do
  echo "new $(node --expose-gc .device/bp.mjs rmat:24:weighted 16 1)" >> /tmp/o/bp.txt 2>&1
  echo "old $(cd .device/probe && node --expose-gc $R/.device/bp.mjs rmat:24:weighted 16 1)" >> /tmp/o/bp.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; grep -v '"generate"' steps.txt | cut -c1-400; cat bp.txt
