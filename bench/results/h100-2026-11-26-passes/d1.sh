#!/bin/bash
# Call 1 (x1): per-page API calls cut (hit spans, used events only where eviction can happen) before
# (9b55774) / after on RMAT 24 weighted GPU-only, two rounds; per-call timing and a main-thread CPU
# profile of warm bfs and wcc runs; .tsr load speed (addon and JS); the CPU-only harness on RMAT 22
# (bench/gapbs-rmat22.yaml --programs bfs,wcc) with GAPBS on the 16 cores.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > $OUT/machine.txt 2>&1
rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && for k in bfs cc sssp pr; do g++ -std=c++11 -O3 -Wall -fopenmp src/$k.cc -o $k & done; wait) > $OUT/gapbs-build.txt 2>&1 &
t0=$(date +%s)
timeout 120 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
ls -la /tmp/g24w.tsr >> $OUT/machine.txt
timeout 90 node bench/tsr-load.mjs /tmp/g24w.tsr --loads 5 > $OUT/tsrload.txt 2>&1
TESSERA_NATIVE_TSR=0 timeout 60 node bench/tsr-load.mjs /tmp/g24w.tsr --loads 3 >> $OUT/tsrload.txt 2>&1
t0=$(date +%s)
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    REP=/dev/null; [ $b = after ] && [ $round = 2 ] && REP=$OUT/reports.jsonl
    CONFIGS=1 CELLS=bfs,wcc,pr RUNS=5 REPORTS=$REP timeout 100 node .device/mg26.mjs "$R" /tmp/g24w.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "before/after $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for p in bfs wcc; do
  rm -rf /tmp/prof; timeout 100 node --cpu-prof --cpu-prof-dir=/tmp/prof .device/calls28.mjs $PWD /tmp/g24w.tsr $p >> $OUT/calls.jsonl 2>> $OUT/calls.err
  (cd /tmp/prof && ls -S | head -1 | xargs -I{} cp {} /tmp/main-$p.cpuprofile)
done
wait
t0=$(date +%s)
timeout 240 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/bres --no-progress > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
d=$(ls -dt /tmp/bres/*/ | head -1); cp "$d"/results.md "$d"/cells.jsonl $OUT/ 2>/dev/null
tar cJf $OUT/extra.tar.xz -C /tmp main-bfs.cpuprofile main-wcc.cpuprofile 2>/dev/null; gzip -f $OUT/reports.jsonl
cat $OUT/machine.txt; cat $OUT/tsrload.txt | tail -12; cut -c1-700 $OUT/calls.jsonl
grep "^| rmat" $OUT/results.md | cut -d'|' -f2-9 | head -20; grep -A14 "Peers on the same" $OUT/results.md | grep "^|"
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['cell'],r['medianMs'],r['runs'],r['steps'])
PY
