#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o /tmp/el
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
if [ ! -x /tmp/gapbs/sssp ]; then rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1; fi
EL=/tmp/el; [ -f /tmp/el/g.wel ] && EL=
node .device/tl2.mjs 22 bfs,wcc,sssp,pr 10 $EL > /tmp/o/tl.txt 2>&1
TESSERA_TPT=64 node .device/tl2.mjs 22 bfs,wcc,pr 10 > /tmp/o/tl-tpt64.txt 2>&1
(cd /tmp/gapbs && ./bfs -f /tmp/el/g.el -r 0 -n 6; ./cc -f /tmp/el/g.el -n 6; ./sssp -f /tmp/el/g.wel -r 0 -d 496262 -n 4) > /tmp/o/gapbs.txt 2>&1
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; grep -h "median\|phases" /tmp/o/tl.txt /tmp/o/tl-tpt64.txt; grep -i "average" /tmp/o/gapbs.txt
