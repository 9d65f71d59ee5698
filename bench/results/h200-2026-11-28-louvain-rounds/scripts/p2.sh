#!/bin/bash
# Session 40 call 2: where a warm louvain run's time goes on RMAT 16 (16 threads): lvt.mjs (each native pass of the pass-by-pass path timed, the supersteps).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host ROOT=$PWD
S=bench/results/h200-2026-11-28-louvain-rounds/scripts
(nproc; lscpu | grep -i "model name"; node $S/lvt.mjs rmat:16:weighted 16 8; node $S/lvt.mjs rmat:16:weighted 16 8 | tail -20) > $OUT/call2-lvt.txt 2>&1
cat $OUT/call2-lvt.txt
