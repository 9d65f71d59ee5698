#!/bin/bash
# Session 36 call 13 (an experiment build: TESSERA_EXP_REUSE=1 hands each run's output back to the
# pool, so the next run reuses it): is the slow team step of a fresh engine's runs 1-4 its fresh
# output array? bfs, RMAT 22, 16 threads: plain, reuse, TESSERA_NO_HUGEPAGES=1; 3 rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
nproc > /tmp/o/machine.txt; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag >> /tmp/o/machine.txt
for r in 1 2 3; do for v in plain reuse nohuge; do
  echo "## bfs round $r $v" >> /tmp/o/cv.txt
  case $v in
    plain) node .device/cv.mjs bfs /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1 ;;
    reuse) TESSERA_EXP_REUSE=1 node .device/cv.mjs bfs /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1 ;;
    nohuge) TESSERA_NO_HUGEPAGES=1 node .device/cv.mjs bfs /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1 ;;
  esac
done; done
cat /tmp/o/machine.txt /tmp/o/cv.txt > $OUT/cv.txt
cat /tmp/o/machine.txt; grep -E "^##|^[0-9]+ " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
