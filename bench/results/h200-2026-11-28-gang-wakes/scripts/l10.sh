#!/bin/bash
# Session 37 call 11: gang threads spinning before they sleep (TESSERA_GANG_SPIN_MS), wcc and bfs on RMAT 22, 16 and 15 threads.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g22.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
for r in 1 2; do for p in wcc bfs; do for cfg in "0 16" "1 16" "3 16" "3 15"; do set -- $cfg
  echo "== $p spin $1 threads $2: $(TESSERA_GANG_SPIN_MS=$1 TL_THREADS=$2 RECYCLE=1 node .device/cvr.mjs $p /tmp/g22.tsr 9 2>&1 | awk 'NR>1 {printf "%s ", $2}')" >> /tmp/o/spin.txt
done; done; done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/spin.txt
