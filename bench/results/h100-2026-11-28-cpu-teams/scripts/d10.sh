#!/bin/bash
# Session 35 call 10 (nvidia-h100-x1): the bottom-up level on one thread, tessera's team of one
# worker (trace) against GAPBS -l with OMP_NUM_THREADS=1 on the same edges; 15 threads team/steps.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -x /tmp/gapbs/bfs ] || { cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
TL_THREADS=1 TESSERA_TEAM_TRACE=1 node .device/tl.mjs bfs /tmp/g.tsr 12 > /tmp/o/trace1.txt 2>&1
[ -f /tmp/g.el ] || node .device/el.mjs /tmp/g.tsr /tmp/g.el > /tmp/o/el.txt 2>&1
OMP_NUM_THREADS=1 /tmp/gapbs/bfs -f /tmp/g.el -r 0 -n 4 -l > /tmp/o/gapbs1.txt 2>&1
for r in 1 2; do
  TL_THREADS=15 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl15-team-$r.txt 2>&1
  TL_THREADS=15 TESSERA_TEAM=0 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl15-steps-$r.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
grep rank /tmp/o/trace1.txt | tail -3; grep median /tmp/o/trace1.txt; tail -12 /tmp/o/gapbs1.txt; for f in /tmp/o/tl15*.txt; do echo "== $f $(sed -n 2p $f)"; done
