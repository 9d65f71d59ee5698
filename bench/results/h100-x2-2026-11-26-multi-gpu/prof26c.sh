#!/bin/bash
# Where the coordinator's time goes with dealt pages (S) on two GPUs: a CPU profile of bfs and wcc.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
timeout 100 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1
CONFIGS=2s CELLS=bfs,wcc RUNS=3 REPORTS=$OUT/reports.jsonl timeout 100 node --cpu-prof --cpu-prof-dir=/tmp/prof .device/mg26.mjs "$PWD" /tmp/g.tsr | cut -c1-300 > $OUT/speed.txt 2>&1
python3 .device/prof26c.py /tmp/prof > $OUT/top.txt 2>&1
gzip -f $OUT/reports.jsonl
cat $OUT/speed.txt | cut -c1-120; head -90 $OUT/top.txt
