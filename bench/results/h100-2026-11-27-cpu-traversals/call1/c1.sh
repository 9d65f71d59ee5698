#!/bin/bash
# Session 26 call 1 (x1): CPU diagnosis on 16 threads, RMAT 22 weighted: per-superstep timelines of
# bfs and wcc (median of 30 warm runs), worker + main CPU profiles of the last runs, GAPBS bfs -l and
# cc (phase timers, cc_t) on the same edge list.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1; g++ -std=c++11 -O3 -Wall -fopenmp src/cc_t.cc -o cc_t) &
t0=$(date +%s)
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1; echo "gen $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
for c in bfs wcc; do
  node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c.txt 2>&1
done
for c in bfs wcc; do
  mkdir -p /tmp/prof-$c && (cd /tmp/prof-$c && node --cpu-prof --cpu-prof-interval 100 $ROOT/.device/tl.mjs $c /tmp/g.tsr 40 > /tmp/o/tlp-$c.txt 2>&1)
  ms=$(grep median /tmp/o/tlp-$c.txt | awk '{print $3}')
  f=$(ls -S /tmp/prof-$c/*.cpuprofile | head -1)
  python3 .device/agg.py 600 40 $(ls /tmp/prof-$c/*.cpuprofile | head -1) > /tmp/o/prof-main-$c.txt 2>&1
  python3 .device/agg.py 600 40 $(ls /tmp/prof-$c/*.cpuprofile | tail -16) > /tmp/o/prof-workers-$c.txt 2>&1
done
echo "runs done $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
node .device/el.mjs /tmp/g.tsr /tmp/g.el; echo "el $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
wait
cd /tmp/gapbs
OMP_NUM_THREADS=16 ./bfs -f /tmp/g.el -r 0 -n 8 -l > /tmp/o/gapbs-bfs-l.txt 2>&1
OMP_NUM_THREADS=16 ./bfs -f /tmp/g.el -r 0 -n 8 > /tmp/o/gapbs-bfs.txt 2>&1
OMP_NUM_THREADS=16 ./cc_t -f /tmp/g.el -n 8 > /tmp/o/gapbs-cc.txt 2>&1
echo "all $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; head -12 /tmp/o/tl-bfs.txt; head -8 /tmp/o/tl-wcc.txt; tail -3 /tmp/o/gapbs-bfs.txt /tmp/o/gapbs-cc.txt
