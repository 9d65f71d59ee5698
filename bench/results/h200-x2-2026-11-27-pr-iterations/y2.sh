#!/bin/bash
# Session 31 call 2: a session's first GPU run with CUDA's lazy module loading (default) against
# CUDA_MODULE_LOADING=EAGER; RMAT 24 weighted, cb.mjs (create, runs 1-5), wcc bfs pr, two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g24.tsr ] || timeout 150 $T generate rmat --scale 24 --weighted --out /tmp/g24.tsr > $OUT/gen.txt 2>&1
echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for mode in lazy eager; do
    for p in wcc bfs pr; do
      echo "== $round $mode $p" >> $OUT/cb.txt
      if [ $mode = eager ]; then CUDA_MODULE_LOADING=EAGER timeout 60 node .device/cb.mjs /tmp/g24.tsr gpu $p >> $OUT/cb.txt 2>&1
      else timeout 60 node .device/cb.mjs /tmp/g24.tsr gpu $p >> $OUT/cb.txt 2>&1; fi
    done
  done
done
grep -v "^GPU" $OUT/machine.txt; grep -A1 "^==" $OUT/cb.txt | grep -v "^--"
