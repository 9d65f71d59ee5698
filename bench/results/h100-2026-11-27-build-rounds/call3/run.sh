#!/bin/bash
# Session 27 call 3 (x1): the build's team steps timed (instrumented copy inst/: each step's wall, main's share, helpers' min/median/max)
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules && ln -sfn /tmp/node_modules .device/inst/node_modules
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; git log --oneline -1; uptime; } > /tmp/o/machine.txt 2>&1
R=$PWD
for i in 1 2; do (cd .device/inst && node --expose-gc $R/.device/bp.mjs rmat:24:weighted 16 1) > /tmp/o/steps$i.txt 2>&1; done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; cat steps1.txt; tail -1 steps2.txt
