#!/bin/bash
# Call 1: A (the engine's warm-up as it was: its GPU step ran no kernel) against B (its pull reads the preloaded pages once on the device: native kernel 'touch'), in turn, four engines a cell; wcc and bfs, then sssp and PageRank twice. One GPU owning every vertex, the program preloaded, 6 runs, results kept.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-warm-touch/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
A="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release"
for i in 1 2 3 4; do
  for p in wcc bfs; do
    echo "== $p A"; $A timeout 60 node $S/ft.mjs $p /tmp/g24.tsr 6
    echo "== $p B"; timeout 60 node $S/ft.mjs $p /tmp/g24.tsr 6
  done
done > /tmp/o/first.txt 2>&1
for i in 1 2; do
  for p in sssp pr; do
    echo "== $p A"; $A timeout 60 node $S/ft.mjs $p /tmp/g24.tsr 6
    echo "== $p B"; timeout 60 node $S/ft.mjs $p /tmp/g24.tsr 6
  done
done > /tmp/o/first2.txt 2>&1
python3 $S/ratios.py /tmp/o/first.txt > /tmp/o/ratios.txt; python3 $S/ratios.py /tmp/o/first2.txt >> /tmp/o/ratios.txt
grep -h "create ms\|^==" /tmp/o/first.txt /tmp/o/first2.txt | paste - - > /tmp/o/create.txt
tar cJf $OUT/call1.tar.xz -C /tmp/o .
cat /tmp/o/ratios.txt /tmp/o/create.txt; grep -i "error" /tmp/o/first.txt | head -5
