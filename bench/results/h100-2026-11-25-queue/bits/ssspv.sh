#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o
[ -f /tmp/g22.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /tmp/o/gen.txt 2>&1
for i in 1 2; do
  node .device/ssspv.mjs /tmp/before /tmp/g22.tsr before >> /tmp/o/v.jsonl 2>> /tmp/o/v.err
  node .device/ssspv.mjs "$PWD" /tmp/g22.tsr after >> /tmp/o/v.jsonl 2>> /tmp/o/v.err
done
tar -C /tmp -czf $OUT/o.tgz o
tail -n3 /tmp/o/v.err
python3 -c "
import json
for l in open('/tmp/o/v.jsonl'):
  d=json.loads(l); print(d['label'].ljust(14), ' | '.join('%s %s %s'%(k, d[k]['median'], d[k]['modes']) for k in ['sssp','bfs','wcc']))
"
