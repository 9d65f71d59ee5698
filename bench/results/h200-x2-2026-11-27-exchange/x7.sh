#!/bin/bash
# Session 30 call 7 (one GPU): where a session's first GPU-only run goes (fr.mjs), RMAT 24 weighted, pr wcc bfs, twice each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > $OUT/gen.txt 2>&1
for rep in 1 2; do for p in pr wcc bfs; do node .device/fr.mjs /tmp/g24.tsr $p >> $OUT/fr.jsonl 2>&1; done; done
cat $OUT/fr.jsonl
