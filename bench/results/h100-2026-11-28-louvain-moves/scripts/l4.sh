#!/bin/bash
# Session 37 call 4: where the batched moves' time goes (an instrumented host addon, .device/S), RMAT 16 and 18.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD TESSERA_NATIVE_FLAVOR=host TESSERA_NATIVE_DIR=$PWD/.device/S TESSERA_LV_STATS=1
rm -rf /tmp/o; mkdir -p /tmp/o
node .device/lv-q2.mjs rmat:16:weighted > /tmp/o/s16.txt 2>&1
node .device/lv-q2.mjs rmat:18:weighted > /tmp/o/s18.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
head -14 /tmp/o/s16.txt | cut -c1-250; head -12 /tmp/o/s18.txt | cut -c1-250
