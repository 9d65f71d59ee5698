#!/bin/bash
# Issue 21: A/B (before = HEAD build, after = working tree), session warm medians, per-step profile.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /tmp/o/gen.txt 2>&1
for i in 1 2; do
  node .device/ab21.mjs /tmp/before /tmp/g22.tsr before >> /tmp/o/ab.jsonl 2>> /tmp/o/ab.err
  node .device/ab21.mjs "$PWD" /tmp/g22.tsr after >> /tmp/o/ab.jsonl 2>> /tmp/o/ab.err
done
sed "s#/ROOT#$PWD#g" .device/prof21.mjs > /tmp/prof21.mjs
node /tmp/prof21.mjs /tmp/g22.tsr > /tmp/o/steps.jsonl 2> /tmp/o/steps.err
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/ab.jsonl | python3 -c "
import sys,json
for l in sys.stdin:
  d=json.loads(l); print(d['label'], ' '.join('%s %s/%s'%(k,d[k]['first'],d[k]['median']) for k in ['bfs','wcc','pr','sssp']))"; tail -n3 /tmp/o/ab.err /tmp/o/steps.err
python3 -c "
import json
for l in open('/tmp/o/steps.jsonl'):
  d=json.loads(l); print(d['algo'], d['ms'], {k:round(v,1) for k,v in d['phases'].items()})
  for s in d['steps']: print('  ', s['mode'], s['ms'], 'plan', s['plan'], 'list', s['list'], 'fr', s['frontier'], [(a['tasks'], a['c']) for a in s['actors']])
"
