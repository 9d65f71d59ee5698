#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && ln -sfn $PWD/build /tmp/before/build && ln -sfn $PWD/native /tmp/before/native && ln -sfn /tmp/node_modules /tmp/before/node_modules && cp package.json /tmp/before/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
node dist/src/cli/main.js generate rmat --scale 22 --out /tmp/g22.tsr > /tmp/o/gen.txt 2>&1
for r in 1 2; do
  for m in "--mode push" ""; do
    timeout 60 node scripts/operator-transfers.mjs /tmp/g22.tsr --runs 5 $m --json --root /tmp/before >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err
    timeout 60 node scripts/operator-transfers.mjs /tmp/g22.tsr --runs 5 $m --json >> /tmp/o/speed.jsonl 2>> /tmp/o/speed.err
  done
done
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; head -c 600 /tmp/o/speed.err; python3 -c "
import json
for l in open('/tmp/o/speed.jsonl'):
  d=json.loads(l); print(d['root'], d['mode'], d['same'], 'hops', round(d['hops']['ms'],1), d['hops']['stateOut'], 'bfs', round(d['bfs']['ms'],1))
"
