#!/bin/bash
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && g++ -std=c++11 -O3 -Wall -fopenmp src/tc.cc -o tc) > /tmp/o/gapbs-build.txt 2>&1 &
for p in high rand; do
  timeout 150 node scripts/gpu-check.mjs --scale 20 --no-bench --snap .device/snap --programs tc,lcc --partition $p --json /tmp/o/check-$p.json > /tmp/o/check-$p.txt 2>&1; echo "check $p rc=$?" >> /tmp/o/machine.txt
done
wait
timeout 240 node .device/tc/tri-time.mjs --scales 20,22 --programs tc,lcc --reps 3 --shares 1,0.5 --partitions high --out /tmp/o > /tmp/o/tri-time.txt 2>&1; echo "tri-time rc=$?" >> /tmp/o/machine.txt
timeout 200 node dist/src/cli/main.js bench --config .device/tc/tc-1s.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > /tmp/o/bench.log 2>&1; echo "bench rc=$?" >> /tmp/o/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/results.json /tmp/o/ 2>/dev/null
tar -C /tmp -czf $OUT/o.tgz o
cat /tmp/o/machine.txt; tail -2 /tmp/o/check-high.txt /tmp/o/check-rand.txt 2>/dev/null | grep -v "^$"; cat /tmp/o/tri-time.txt | tail -20; tail -3 /tmp/o/bench.log; grep -E "^\| rmat" /tmp/o/results.md | head; grep -A8 "Peers on the same" /tmp/o/results.md | head -12
