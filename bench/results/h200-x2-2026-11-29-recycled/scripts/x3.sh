#!/bin/bash
# Call 3 (nvidia-h200-x2), build 6c5c516: where bfs's allocMs goes (alloc29.mjs: each RunPools.alloc timed), RMAT 25,
# one GPU and two with S, 8 runs each; the one-GPU cell again under --cpu-prof.
set -u
F=bench/results/h200-x2-2026-11-29-recycled/scripts
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o; mkdir -p /tmp/o/prof; T0=$(date +%s)
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
log() { echo "$1 rc=$2 $(( $(date +%s) - t1 ))s (at $(( $(date +%s) - T0 ))s)" >> /tmp/o/machine.txt; }
t1=$(date +%s); [ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1; log generate $?
for c in 1 2s; do t1=$(date +%s); timeout 60 node $F/alloc29.mjs "$PWD" /tmp/g.tsr $c 8 >> /tmp/o/alloc.jsonl 2>> /tmp/o/err.txt; log "alloc $c" $?; done
t1=$(date +%s); timeout 60 node --cpu-prof --cpu-prof-dir=/tmp/o/prof --cpu-prof-interval 100 $F/alloc29.mjs "$PWD" /tmp/g.tsr 1 8 > /tmp/o/alloc-prof.jsonl 2>> /tmp/o/err.txt; log "prof" $?
tar cJf $OUT/call3.tar.xz -C /tmp/o .
grep -v "^GPU" /tmp/o/machine.txt; cut -c1-700 /tmp/o/alloc.jsonl; tail -3 /tmp/o/err.txt
