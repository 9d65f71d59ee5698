#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nproc; lscpu | grep "Model name"; } > $OUT/machine.txt
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > $OUT/gen.txt 2>&1
for i in 1 2 3; do
  node .device/ab21.mjs /tmp/before /tmp/g22.tsr before >> $OUT/ab.jsonl 2>> $OUT/ab.err
  node .device/ab21.mjs "$PWD" /tmp/g22.tsr after >> $OUT/ab.jsonl 2>> $OUT/ab.err
done
cat $OUT/machine.txt; cat $OUT/ab.jsonl | python3 -c "
import sys,json
for l in sys.stdin:
  d=json.loads(l); print(d['label'], ' '.join('%s %s/%s'%(k,d[k]['first'],d[k]['median']) for k in ['bfs','wcc','pr','sssp']))"; tail -3 $OUT/ab.err
