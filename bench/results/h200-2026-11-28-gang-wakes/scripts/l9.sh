#!/bin/bash
# Session 37 call 10: wcc and bfs on RMAT 22 (16 threads): each gang thread's start (monotonic us) beside the main thread's profile.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules; rm -rf .device/G; tar xJf .device/G.tar.xz -C .device; ln -sfn /tmp/node_modules .device/G/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_NATIVE_DIR=$PWD/build/Release
rm -rf /tmp/o; mkdir -p /tmp/o
[ -f /tmp/g22.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
for p in wcc bfs; do
  GANG_TL=1 RECYCLE=1 ROOT=$PWD/.device/G node --cpu-prof --cpu-prof-interval 50 --cpu-prof-dir=/tmp/o/prof-$p .device/cvr.mjs $p /tmp/g22.tsr 6 > /tmp/o/gt-$p.txt 2>&1
  M=$(ls /tmp/o/prof-$p | grep '\.0\.001\.'); mv /tmp/o/prof-$p/$M /tmp/o/main-$p.cpuprofile; rm -rf /tmp/o/prof-$p
done
tar cJf $OUT/all.tar.xz -C /tmp o
grep -v GT /tmp/o/gt-wcc.txt; grep -v GT /tmp/o/gt-bfs.txt; ls -la /tmp/o
