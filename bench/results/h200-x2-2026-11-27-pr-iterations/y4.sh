#!/bin/bash
# Session 31 call 4: a preloaded program's device side made at create (GpuHandler.prepare) and
# pr_iterations, one GPU, RMAT 24 weighted: cb.mjs (create, runs 1-5) before (fa38a09) / after,
# wcc bfs pr, two rounds interleaved; `tessera run` wall on the GPU, before / after, two rounds.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before-dist.tar.xz -C /tmp/B && ln -sfn $PWD/build /tmp/B/build && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/ && cp -r configs /tmp/B/
T="node dist/src/cli/main.js"
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
[ -f /tmp/g24.tsr ] || timeout 150 $T generate rmat --scale 24 --weighted --out /tmp/g24.tsr > $OUT/gen.txt 2>&1
SRC=$(node -e "import('./dist/src/graph/tsr.js').then(async m => { const g = await m.readTsr('/tmp/g24.tsr'); console.log(g.ids.toOriginal[0]); })")
H=$PWD
for round in 1 2; do
  for b in before after; do
    R=$H; [ $b = before ] && R=/tmp/B
    for p in wcc bfs pr; do
      echo "cb $round $b $p $(cd $R && timeout 60 node $H/.device/cb.mjs /tmp/g24.tsr gpu $p 2>&1 | head -1)" >> $OUT/cb.txt
    done
  done
done
for round in 1 2; do
  for b in before after; do
    R=$H; [ $b = before ] && R=/tmp/B
    for p in wcc bfs pr; do
      IT=""; [ $p = bfs ] && IT="--source $SRC"
      S=$(date +%s%N); (cd $R && timeout 60 node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $p $IT --topology configs/1S1G-pcie5.yaml --alpha 0 --steal off --report /tmp/r.json -q > /dev/null 2>> $OUT/cli.err); E=$(date +%s%N)
      echo "cli $round $b $p wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")" >> $OUT/cli.txt
    done
  done
done
cat $OUT/cb.txt $OUT/cli.txt; head -5 $OUT/cli.err
