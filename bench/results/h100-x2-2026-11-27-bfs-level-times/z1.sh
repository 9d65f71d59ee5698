#!/bin/bash
# Session 33 call 1: d531cff's native refactor on real GPUs (gpu-check 2 P / 2 S at share 1), and
# bfs's levels timed per level (levelTimes: pages, call, meeting, next frontier) on RMAT 25, 1 / 2P / 2S.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; nvidia-smi topo -m | head -4; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1 &
G=$!
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu p --gpu-share 1 --scale 20 --no-bench > $OUT/gc2p.txt 2>&1; echo "gpu-check 2 P rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G
t0=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  CONFIGS=1,2p,2s CELLS=bfs RUNS=8 REPORTS=$OUT/reports-$round.jsonl timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
grep -v "^GPU" $OUT/machine.txt; tail -n 1 $OUT/gc2p.txt $OUT/gc2s.txt; cat $OUT/speed.err | tail -5
python3 - $OUT <<'PY'
import json,sys
o=sys.argv[1]
for l in open(o+'/speed.jsonl'):
    r=json.loads(l); print(r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'],{k:round(v,2) for k,v in r['phases'].items()})
for rd in (1,2):
  for l in open(o+'/reports-%d.jsonl'%rd):
    r=json.loads(l)
    for s in r['report']['steps']:
      for a in s['actors']:
        g=a.get('gpu')
        if g: print(rd, r['conf'], a['actor'], 'run', round(g.get('runMs',0),2), 'kernel', round(g['kernelMs'],2), g.get('directions'), g.get('levelTimes'))
PY
