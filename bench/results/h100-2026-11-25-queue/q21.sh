#!/bin/bash
# Issue 21: shared task queue A/B (before = HEAD build, after = working tree), per-step profile, harness vs GAPBS.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > $OUT/gapbs-build.txt 2>&1 &
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > $OUT/gen.txt 2>&1
wait
for i in 1 2; do
  node .device/ab21.mjs /tmp/before /tmp/g22.tsr before >> $OUT/ab.jsonl 2>> $OUT/ab.err
  node .device/ab21.mjs "$PWD" /tmp/g22.tsr after >> $OUT/ab.jsonl 2>> $OUT/ab.err
done
sed "s#/ROOT#$PWD#g" .device/prof21.mjs > /tmp/prof21.mjs
node /tmp/prof21.mjs /tmp/g22.tsr > $OUT/steps.jsonl 2> $OUT/steps.err
t0=$(date +%s)
timeout 400 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/results.json $OUT/ 2>/dev/null
cat $OUT/machine.txt; cat $OUT/ab.jsonl | python3 -c "
import sys,json
for l in sys.stdin:
  d=json.loads(l); print(d['label'], ' '.join('%s %s/%s'%(k,d[k]['first'],d[k]['median']) for k in ['bfs','wcc','pr','sssp']))"; tail -3 $OUT/ab.err $OUT/steps.err; cut -c1-1500 $OUT/steps.jsonl; tail -3 $OUT/bench.log; grep -A12 "GAPBS\|gapbs" $OUT/results.md | head -30
