#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && ln -sfn $PWD/build /tmp/before/build && ln -sfn $PWD/native /tmp/before/native && ln -sfn /tmp/node_modules /tmp/before/node_modules && cp package.json /tmp/before/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; } > /tmp/o/machine.txt 2>&1
(node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /tmp/o/gen.txt 2>&1; node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr >> /tmp/o/gen.txt 2>&1) &
timeout 120 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs pr,bfs,sssp --json /tmp/o/gpu-check.json > /tmp/o/gpu-check.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/machine.txt
wait
for r in 1 2 3; do
  TESSERA_NO_HUGEPAGES=1 timeout 60 node .device/hp.mjs /tmp/g22.tsr bfs,wcc,pr,sssp >> /tmp/o/hp.jsonl 2>> /tmp/o/hp.err
  timeout 60 node .device/hp.mjs /tmp/g22.tsr bfs,wcc,pr,sssp >> /tmp/o/hp.jsonl 2>> /tmp/o/hp.err
done
timeout 100 node .device/speed20.mjs /tmp/before /tmp/g24.tsr before >> /tmp/o/speed.jsonl 2>>/tmp/o/speed.err
timeout 100 node .device/speed20.mjs $PWD /tmp/g24.tsr after >> /tmp/o/speed.jsonl 2>>/tmp/o/speed.err
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; tail -1 /tmp/o/gpu-check.txt; head -c 400 /tmp/o/hp.err; cat /tmp/o/hp.jsonl; head -c 300 /tmp/o/speed.err
python3 -c "
import json
for l in open('/tmp/o/speed.jsonl'):
  d=json.loads(l); print(d['label'], {k:(round(v['medianMs'],1), v['uploadMiB']) for k,v in d['cells'].items()})
"
