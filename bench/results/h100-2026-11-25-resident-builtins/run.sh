#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && ln -sfn $PWD/build /tmp/before/build && ln -sfn /tmp/node_modules /tmp/before/node_modules && cp package.json /tmp/before/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
(node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/o/gen.txt 2>&1) &
timeout 150 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs bfs,sssp,pr --json /tmp/o/gpu-check.json > /tmp/o/gpu-check.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/machine.txt
wait
for r in 1 2; do
  timeout 120 node .device/speed20.mjs /tmp/before /tmp/g24.tsr before >> /tmp/o/speed.jsonl 2>>/tmp/o/speed.err
  timeout 120 node .device/speed20.mjs $PWD /tmp/g24.tsr after >> /tmp/o/speed.jsonl 2>>/tmp/o/speed.err
done
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; tail -1 /tmp/o/gpu-check.txt; tail -3 /tmp/o/speed.err
python3 -c "
import json
for l in open('/tmp/o/speed.jsonl'):
  d=json.loads(l); print(d['label'], {k:(v['medianMs'], v['uploadMiB']) for k,v in d['cells'].items()})
"
