#!/bin/bash
# Call 2: what B's first wcc run still pays: A, B, B then warm2.mjs (a held u8 array read back at its end: the read-back path), B then one wcc run (the bound), in turn, four engines a cell; bfs B and B + warm2, two each.
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
  echo "== wcc A"; $A timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc B"; timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc B+warm2"; PRE=bench/results/h200-2026-11-28-wcc-first/scripts/warm2.mjs timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc B+wcc"; PRE=wcc timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
done > /tmp/o/wcc.txt 2>&1
for i in 1 2; do
  echo "== bfs B"; timeout 60 node $S/ft.mjs bfs /tmp/g24.tsr 6
  echo "== bfs B+warm2"; PRE=bench/results/h200-2026-11-28-wcc-first/scripts/warm2.mjs timeout 60 node $S/ft.mjs bfs /tmp/g24.tsr 6
done > /tmp/o/bfs.txt 2>&1
python3 $S/ratios.py /tmp/o/wcc.txt > /tmp/o/ratios.txt; python3 $S/ratios.py /tmp/o/bfs.txt >> /tmp/o/ratios.txt
tar cJf $OUT/call2.tar.xz -C /tmp/o .
cat /tmp/o/ratios.txt; grep -i "error" /tmp/o/*.txt | head -5
