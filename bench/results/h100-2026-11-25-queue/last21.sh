#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name|Thread|Core|Socket|L3"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > /tmp/o/gapbs-build.txt 2>&1 &
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /tmp/o/gen.txt 2>&1
wait
sed "s#/ROOT#$PWD#g; s#threads: os.availableParallelism()#threads: +(process.env.T ?? os.availableParallelism())#" .device/prof22.mjs > /tmp/prof22.mjs
for t in 1 4 16; do T=$t timeout 60 node /tmp/prof22.mjs /tmp/g22.tsr bfs > /tmp/o/steps-t$t.jsonl 2>&1; done
t0=$(date +%s)
timeout 260 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > /tmp/o/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/results.json /tmp/o/ 2>/dev/null
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt
for t in 1 4 16; do python3 -c "
import json,sys
for l in open('/tmp/o/steps-t$t.jsonl'):
  d=json.loads(l); print('T$t', d['algo'], d['ms'])
  for s in d['steps'][:4]: print('  ', s['mode'], s['ms'], 'fr', s['frontier'], [(a['tasks'], a['c'], a['b']) for a in s['actors']])
"; done
grep "^| rmat" /tmp/o/results.md | cut -c1-120
