#!/bin/bash
# Session 32 call 8: a run's result replaced in the engine's pool by a fresh array populated in the
# background (Run.finish), and pristine pooled arrays taken as zeros. RMAT 25 GPU-only bfs/pr/wcc on
# 1, 2P, 2S and CPU wcc (tl, 16 threads, RMAT 22), before (97db7b5) / after, two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before33.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1
[ -f /tmp/g22.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > $OUT/gen22.txt 2>&1
echo "generate $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    X=/dev/null; [ $round = 1 ] && X=$OUT/reports-$b.jsonl
    CONFIGS=1,2p,2s CELLS=bfs,pr,wcc RUNS=8 REPORTS=$X timeout 200 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
    TL_THREADS=16 ROOT=$R timeout 60 node .device/tl.mjs wcc /tmp/g22.tsr 30 > $OUT/tl-wcc-$b-$round.txt 2>&1
  done
done
cd $OUT && tar czf checks.tgz speed.err reports-*.jsonl && rm -f speed.err reports-*.jsonl && cd - >/dev/null
grep -v "^GPU" $OUT/machine.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],'phases',{k:round(v,1) for k,v in r['phases'].items() if k in ('allocMs','stepsMs','settleMs','otherMs')})
PY
for f in $OUT/tl-*.txt; do echo "$(basename $f) $(sed -n 2,3p $f | tr '\n' ' ' | cut -c1-220)"; done
