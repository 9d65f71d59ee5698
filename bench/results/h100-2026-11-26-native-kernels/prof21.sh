#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o /tmp/el
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1 &
node .device/tl2.mjs 22 bfs,wcc,sssp 8 /tmp/el > /tmp/o/tl.txt 2>&1
wait
D=$(grep meanWeight /tmp/o/tl.txt | awk '{print $4}')
(cd /tmp/gapbs && ./bfs -f /tmp/el/g.el -r 0 -n 4 -l; ./cc -f /tmp/el/g.el -n 4; ./sssp -f /tmp/el/g.wel -r 0 -d $D -n 4 -l | tail -40) > /tmp/o/gapbs.txt 2>&1
node --cpu-prof --cpu-prof-dir=/tmp/o/cp .device/tl2.mjs 22 bfs,wcc 12 > /tmp/o/tl-prof.txt 2>&1
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt /tmp/o/tl.txt; head -80 /tmp/o/gapbs.txt
