#!/bin/bash
# Session 36 call 11: does one run of another program (pr, 1 iteration) right after create take
# the first run's cold costs? Build 3ec1ddd, RMAT 22, 16 threads, bfs and wcc, 3 rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
for r in 1 2 3; do for p in bfs wcc; do for v in plain pr; do
  echo "## $p round $r rehearse $v" >> /tmp/o/cv.txt
  if [ $v = plain ]; then node .device/cvr.mjs $p /tmp/g.tsr 8 >> /tmp/o/cv.txt 2>&1; else REHEARSE=pr node .device/cvr.mjs $p /tmp/g.tsr 8 >> /tmp/o/cv.txt 2>&1; fi
done; done; done
cat /tmp/o/machine.txt /tmp/o/cv.txt > $OUT/cv.txt
grep -E "^##|^[0-9]+ " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
