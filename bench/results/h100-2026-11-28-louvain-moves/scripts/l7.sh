#!/bin/bash
# Session 37 call 8: the session's last build B against A (f2672f6): louvain (engine runs, the graphology harness),
# `tessera run` on a .tsr end to end (bfs, wcc; detected topology), and bfs's first runs under V8 pool sizes.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
tar xJf .device/graph-mods.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules; tar xJf .device/A.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
A() { TESSERA_NATIVE_DIR=$ROOT/.device/A/build/Release "$@"; }
rm -rf /tmp/o; mkdir -p /tmp/o
nproc > /tmp/o/machine.txt; lscpu | grep -i "model name" >> /tmp/o/machine.txt
for r in 1 2; do
  echo "== A" >> /tmp/o/runs16.txt; A node .device/A/x/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/runs16.txt 2>&1
  echo "== B" >> /tmp/o/runs16.txt; node .device/lv-r.mjs rmat:16:weighted 16 15 >> /tmp/o/runs16.txt 2>&1
done
timeout 150 node dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness-B --no-progress > /tmp/o/harness-B.txt 2>&1
A timeout 150 node .device/A/dist/src/cli/main.js bench --config bench/graphology-small.yaml --programs louvain --out-dir /tmp/o/harness-A --no-progress > /tmp/o/harness-A.txt 2>&1
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
SRC=$(node -e "import('./dist/src/graph/tsr.js').then(async m => { const g = await m.readTsr('/tmp/g22.tsr'); console.log(g.ids.toOriginal[0]); })")
for rep in 1 2 3; do for b in A B; do for p in bfs wcc; do
  IT=""; [ $p = bfs ] && IT="--source $SRC"
  if [ $b = A ]; then R=$ROOT/.device/A; export TESSERA_NATIVE_DIR=$ROOT/.device/A/build/Release; else R=$ROOT; unset TESSERA_NATIVE_DIR; fi
  S=$(date +%s%N); node $R/dist/src/cli/main.js run --graph /tmp/g22.tsr --algo $p $IT --report /tmp/r.json -q > /dev/null; E=$(date +%s%N)
  echo "CLI $b $p wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")" >> /tmp/o/cli.txt
done; done; done
unset TESSERA_NATIVE_DIR
for rep in 1 2 3; do for f in "" "--v8-pool-size=1" "--v8-pool-size=4"; do
  echo "== bfs [$f]" >> /tmp/o/pool.txt; node $f .device/cv.mjs bfs /tmp/g22.tsr 9 >> /tmp/o/pool.txt 2>&1
done; done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/runs16.txt /tmp/o/cli.txt; grep -h "graphology (1 thread) |" /tmp/o/harness-*/*/results.md; grep -h "louvain | tessera | 1S | 0" /tmp/o/harness-*/*/results.md; awk '/^==/{h=$0; next} /^create/{c=$2; next} {a[h]=a[h]" "$2} END{for(k in a) print k, a[k]}' /tmp/o/pool.txt
