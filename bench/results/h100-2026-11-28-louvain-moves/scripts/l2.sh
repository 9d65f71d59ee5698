#!/bin/bash
# Session 37 call 2: louvain's batched moves (gathering on every core) against the serial loop, RMAT 16 and 18, 16 threads.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
for cfg in 0,1 128,4096 256,8192 512,16384 1024,32768 512,65536 0,1 512,16384; do
  echo "== $cfg" >> /tmp/o/phases16.txt
  TESSERA_LOUVAIN_BATCH=$cfg node .device/lv-q2.mjs rmat:16:weighted >> /tmp/o/phases16.txt 2>&1
done
for r in 1 2; do for cfg in 0,1 512,16384; do
  echo "== $cfg" >> /tmp/o/runs16.txt
  TESSERA_LOUVAIN_BATCH=$cfg node .device/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/runs16.txt 2>&1
done; done
for cfg in 0,1 512,16384 1024,65536; do
  echo "== $cfg" >> /tmp/o/phases18.txt
  TESSERA_LOUVAIN_BATCH=$cfg node .device/lv-q2.mjs rmat:18:weighted >> /tmp/o/phases18.txt 2>&1
done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/runs16.txt; grep -A5 "==" /tmp/o/phases16.txt | cut -c1-200; cut -c1-160 /tmp/o/phases18.txt
