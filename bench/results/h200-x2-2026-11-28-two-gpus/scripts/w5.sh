#!/bin/bash
# Call 5 (nvidia-h200-x2, same build): RMAT 25 bfs GPU-only, one GPU against two with S, the last run's report kept (REPORTS: the levels' times per GPU), two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_REQUIRE_NATIVE=1
rm -rf /tmp/o5; mkdir -p /tmp/o5
{ nvidia-smi -L; nproc; } > /tmp/o5/machine.txt 2>&1
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > /tmp/o5/gen.txt 2>&1
for round in 1 2; do REPORTS=/tmp/o5/reports-$round.jsonl CONFIGS=1,2s CELLS=bfs RUNS=6 timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"round\":$round,/" >> /tmp/o5/speed.jsonl 2>> /tmp/o5/speed.err; done
tar cJf $OUT/call5.tar.xz -C /tmp/o5 .
cut -c1-400 /tmp/o5/speed.jsonl; tail -3 /tmp/o5/speed.err
