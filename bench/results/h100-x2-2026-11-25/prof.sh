#!/bin/bash
# Profile: RMAT 24 GPU-only PageRank, BFS, WCC on 1 and 2 GPUs with the report's phases and GPU wait times.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
t0=$(date +%s)
node dist/src/cli/main.js generate rmat --scale ${SCALE:-24} --weighted --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" > $OUT/machine.txt
REPORTS=$OUT/reports.jsonl CELLS=${CELLS:-pr,bfs,wcc} RUNS=5 timeout 300 node .device/mgpu.mjs "$PWD" /tmp/g.tsr > $OUT/mgpu.jsonl 2> $OUT/mgpu.err; echo "mgpu rc=$?" >> $OUT/machine.txt
gzip $OUT/reports.jsonl
cat $OUT/machine.txt; cut -c1-300 $OUT/mgpu.jsonl; tail -3 $OUT/mgpu.err
