#!/bin/bash
# Call 2: as call 1 (same build), what the first run's garbage collection is (--trace-gc) and whether a full collection after create (--expose-gc, GC_AFTER_CREATE=1) takes it out of the first run; with and without --always-sparkplug. wcc and bfs, 6 runs, results kept, two engines each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
S=bench/results/h200-2026-11-28-wcc-first/scripts
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/gen.txt 2>&1
for i in 1 2; do for c in wcc bfs; do
  echo "== trace-gc $c"; timeout 60 node --trace-gc $S/ft.mjs $c /tmp/g24.tsr 6 | grep -v "^[0-9.]*	"
  echo "== gc $c"; GC_AFTER_CREATE=1 timeout 60 node --expose-gc $S/ft.mjs $c /tmp/g24.tsr 6 | sed -n '1,8p'
  echo "== gc sparkplug $c"; GC_AFTER_CREATE=1 timeout 60 node --expose-gc --always-sparkplug $S/ft.mjs $c /tmp/g24.tsr 6 | sed -n '1,8p'
  echo "== plain $c"; timeout 60 node $S/ft.mjs $c /tmp/g24.tsr 6 | sed -n '1,7p'
done; done > /tmp/o/gc.txt 2>&1
tar cJf $OUT/call2.tar.xz -C /tmp/o .
grep -v "Scavenge\|Mark" /tmp/o/gc.txt
