#!/bin/bash
# Session 30 call 6 (one GPU): before (40e6471's JS, same native) / after on RMAT 24 weighted: Engine.create and runs 1-5
# (cb.mjs, program preloaded) for bfs, wcc, pr on CPU and GPU-only; tessera run's wall for bfs; gpu-check at share 1.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/ && cp -r configs /tmp/B/
{ nvidia-smi -L; nproc; } > $OUT/machine.txt
W=$PWD
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > $OUT/gen.txt 2>&1
printf 'name: cpu\nsockets:\n  - id: 0\n    threads: auto\n' > /tmp/cpu.yaml
for rep in 1 2; do for p in bfs wcc pr; do for tp in cpu gpu; do for b in before after; do
  D=$W; [ $b = before ] && D=/tmp/B
  (cd $D && node $W/.device/cb.mjs /tmp/g24.tsr $tp $p 2>&1 | head -1 | sed "s/^{/{\"build\":\"$b\",/") >> $OUT/cb.jsonl
done; done; done; done
SRC=$(node -e "import('./dist/src/graph/tsr.js').then(async m => { const g = await m.readTsr('/tmp/g24.tsr'); console.log(g.ids.toOriginal[0]); })")
for rep in 1 2 3; do for tp in cpu gpu; do for b in before after; do
  D=$W; [ $b = before ] && D=/tmp/B
  if [ $tp = cpu ]; then TOP="--topology /tmp/cpu.yaml"; else TOP="--topology configs/1S1G-pcie5.yaml --alpha 0"; fi
  S=$(date +%s%N); (cd $D && node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo bfs --source $SRC $TOP --steal off --report /tmp/r.json -q); E=$(date +%s%N)
  echo "CLI $b $tp bfs wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'start',r.startMs?.toFixed(0),'total',r.totalMs.toFixed(1))")" >> $OUT/cli.txt
done; done; done
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1.txt 2>&1; echo "gpu-check rc=$?" >> $OUT/machine.txt
cat $OUT/machine.txt; tail -1 $OUT/gc1.txt; cat $OUT/cli.txt
python3 - "$OUT/cb.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    try: r=json.loads(l)
    except Exception: print(l.strip()); continue
    print(r['build'],r['topo'],r['program'],'create',r['createMs'],'runs',r['runs'])
PY
