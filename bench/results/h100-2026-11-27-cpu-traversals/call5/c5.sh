#!/bin/bash
# Session 26 call 5 (x1): is the early-run excess JIT? early.mjs (fresh engine: run 1, runs 2-4) for bfs and
# wcc at 16 threads, default V8 vs fast tier-up flags; tl (30 runs) default.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; cat /sys/kernel/mm/transparent_hugepage/enabled; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for c in bfs wcc; do
  for i in 1 2 3; do node .device/early.mjs $c /tmp/g.tsr 16 /tmp/w.json | head -1 >> /tmp/o/early-default.txt; done
  for i in 1 2 3; do node --interrupt-budget=8000 .device/early.mjs $c /tmp/g.tsr 16 /tmp/w.json | head -1 >> /tmp/o/early-budget.txt; done
  for i in 1 2 3; do node --always-sparkplug --interrupt-budget=8000 .device/early.mjs $c /tmp/g.tsr 16 /tmp/w.json | head -1 >> /tmp/o/early-sparkplug.txt; done
done
for c in bfs wcc; do node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c.txt 2>&1; done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; for f in early-*.txt; do echo "== $f"; cat $f; done; for f in tl-*.txt; do head -2 $f; done
