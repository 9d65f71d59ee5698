#!/bin/bash
# Session 40 call 3: where bc's time goes on RMAT 22 (16 threads, 4 sources, seed 7): a fresh engine's runs with each superstep's ms, then the same under --cpu-prof (every thread's self times).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1 TESSERA_NATIVE_FLAVOR=host ROOT=$PWD
C=bench/results/h200-2026-11-28-warm-up/scripts/cvp.mjs
(nproc; lscpu | grep -i "model name"; PARAMS='{"sources":4,"seed":7}' node $C bc 22 4) > $OUT/call3-steps.txt 2>&1
rm -rf /tmp/prof; PARAMS='{"sources":4,"seed":7}' node --cpu-prof --cpu-prof-dir=/tmp/prof $C bc 22 3 > /dev/null 2>&1
python3 .device/profsum.py /tmp/prof 25 > $OUT/call3-prof.txt 2>&1
cut -c1-400 $OUT/call3-steps.txt; head -60 $OUT/call3-prof.txt
