#!/bin/bash
# Session 36 call 7: is run 2's slowness the previous runs' outputs freed (GC, munmap)? Build C,
# RMAT 22, 16 threads: results dropped (default) against kept alive (KEEP=1), also with --max-opt=1;
# one run each with --trace-gc and run markers.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for r in 1 2 3; do for p in bfs wcc; do
  for v in "drop" "keep" "keep --max-opt=1"; do
    k=0; [ "${v%% *}" = keep ] && k=1; f=${v#drop}; f=${f#keep}
    echo "## $p round $r $v" >> /tmp/o/cv.txt
    KEEP=$k node $f .device/cv.mjs $p /tmp/g.tsr 10 >> /tmp/o/cv.txt 2>&1
  done
done; done
MARK=1 node --trace-gc .device/cv.mjs bfs /tmp/g.tsr 8 > /tmp/o/gc-bfs.txt 2>&1
MARK=1 KEEP=1 node --trace-gc .device/cv.mjs bfs /tmp/g.tsr 8 > /tmp/o/gc-bfs-keep.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
grep -E "^##|^[0-9]+ " /tmp/o/cv.txt | awk '/^##/{if(l)print l; l=$0; next}{split($0,a," "); l=l" "a[2]} END{print l}'
grep -E "@@RUN|Mark|Scav" /tmp/o/gc-bfs.txt | grep -v "^\[.*Scavenge" | tail -30
