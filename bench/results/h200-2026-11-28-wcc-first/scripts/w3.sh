#!/bin/bash
# Call 3: as call 2 (same build): does another program's run after create (PRE) take the cold paths out of wcc's (bfs's) first run? Three engines a cell, 6 runs, results kept; the first run's controller calls traced.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-wcc-first/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2 3; do
  echo "== wcc"; timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc PRE=bfs"; PRE=bfs timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc PRE=pr"; PRE=pr timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== bfs"; timeout 60 node $S/ft.mjs bfs /tmp/g24.tsr 6
  echo "== bfs PRE=wcc"; PRE=wcc timeout 60 node $S/ft.mjs bfs /tmp/g24.tsr 6
done > /tmp/o/pre.txt 2>&1
tar cJf $OUT/call3.tar.xz -C /tmp/o .
grep -v "^[0-9.]*	" /tmp/o/pre.txt | grep -v "^--"
