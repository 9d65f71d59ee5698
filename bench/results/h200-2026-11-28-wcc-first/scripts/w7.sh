#!/bin/bash
# Call 7 (one H200, build d88e948): wcc's and bfs's first runs with a candidate warm-up run after create (PRE=warm2.mjs: the engine's two touch supersteps, the pull passing a held u8 array the run's end reads back) against none, four engines each in turn, 6 runs, results kept (ft.mjs).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-wcc-first/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2 3 4; do for c in wcc bfs; do
  echo "== $c"; timeout 60 node $S/ft.mjs $c /tmp/g24.tsr 6
  echo "== $c PRE=warm2"; PRE=$S/warm2.mjs timeout 60 node $S/ft.mjs $c /tmp/g24.tsr 6
done; done > /tmp/o/warm2.txt 2>&1
tar cJf $OUT/call7.tar.xz -C /tmp/o .
grep -v "^[0-9.]*	" /tmp/o/warm2.txt | grep -v "^--"
