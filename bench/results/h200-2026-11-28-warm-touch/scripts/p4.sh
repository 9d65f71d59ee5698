#!/bin/bash
# Call 4 (build 4b69887): is B's first wcc run cold because of what still runs right after create? A pause after create (SLEEP ms: 0, 50, 500) before the runs, four engines a cell in turn; and node's --single-threaded (no V8 background threads).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-warm-touch/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2 3 4; do
  echo "== wcc sleep0"; timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc sleep50"; SLEEP=50 timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc sleep500"; SLEEP=500 timeout 60 node $S/ft.mjs wcc /tmp/g24.tsr 6
  echo "== wcc single-threaded"; timeout 60 node --single-threaded $S/ft.mjs wcc /tmp/g24.tsr 6
done > /tmp/o/wcc.txt 2>&1
python3 $S/ratios.py /tmp/o/wcc.txt > /tmp/o/ratios.txt; python3 $S/phases.py /tmp/o/wcc.txt > /tmp/o/phases.txt
tar cJf $OUT/call4.tar.xz -C /tmp/o .
paste /tmp/o/ratios.txt /tmp/o/phases.txt | cut -c1-200
