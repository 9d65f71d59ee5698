#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; git log -1 --format=%h 2>/dev/null; } > /tmp/o/machine.txt 2>&1
sed "s#/ROOT#$PWD#g" .device/prof22.mjs > /tmp/prof22.mjs
(node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /tmp/o/gen.txt 2>&1) &
timeout 300 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --module dist/examples/hits/index.js --json /tmp/o/gpu-check.json > /tmp/o/gpu-check.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/machine.txt
wait
timeout 150 node /tmp/prof22.mjs /tmp/g22.tsr bfs,wcc,pr,sssp > /tmp/o/steps.jsonl 2> /tmp/o/steps.err
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; tail -2 /tmp/o/gpu-check.txt; tail -n3 /tmp/o/steps.err
python3 -c "
import json
for l in open('/tmp/o/steps.jsonl'):
  d=json.loads(l); print(d['algo'], d['ms'], {k:round(v,1) for k,v in d['phases'].items()})
  for s in d['steps'][:8]: print('  ', s['mode'], s['ms'], 'plan', s['plan'], 'list', s['list'], 'fr', s['frontier'], [(a['tasks'], a['c'], a['b']) for a in s['actors']])
"
