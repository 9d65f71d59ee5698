#!/bin/bash
# Session 32 call 7: bfs on RMAT 25 resident, 1 vs 2P vs 2S (this build), and what bounds its settle
# (the depth's read-back): default, TESSERA_STAGING_THREADS=8 / 32, TESSERA_NO_POPULATE=1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for v in default st8 st32 nopop; do
    E=""; [ $v = st8 ] && E="TESSERA_STAGING_THREADS=8"; [ $v = st32 ] && E="TESSERA_STAGING_THREADS=32"; [ $v = nopop ] && E="TESSERA_NO_POPULATE=1"
    X=/dev/null; [ $round = 1 ] && X=$OUT/reports-$v.jsonl
    env $E CONFIGS=1,2p,2s CELLS=bfs RUNS=8 REPORTS=$X timeout 120 node .device/mg26.mjs $PWD /tmp/g.tsr | sed "s/^{/{\"v\":\"$v\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
cd $OUT && tar czf checks.tgz speed.err reports-*.jsonl && rm -f speed.err reports-*.jsonl && cd - >/dev/null
grep -v "^GPU" $OUT/machine.txt
python3 - "$OUT/speed.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['v'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],'phases',{k:round(v,1) for k,v in r['phases'].items() if k in ('allocMs','stepsMs','settleMs','otherMs')})
PY
