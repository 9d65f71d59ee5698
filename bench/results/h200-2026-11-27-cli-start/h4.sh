xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/A/build && tar xJf .device/e1-release.tar.xz -C /tmp/A/build && cp -r dist package.json /tmp/A/ && ln -sfn /tmp/node_modules /tmp/A/node_modules
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
SRC=$(node -e "import('./dist/src/graph/tsr.js').then(async m => { const g = await m.readTsr('/tmp/g24.tsr'); console.log(g.ids.toOriginal[0]); })")
for rep in 1 2 3; do
  for b in A B; do
    if [ $b = A ]; then R=/tmp/A; else R=$PWD; fi
    for p in bfs wcc; do
      IT=""; [ $p = bfs ] && IT="--source $SRC"
      S=$(date +%s%N); ROOT=$R node --import ./.device/tlh.mjs $R/dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $p $IT --topology configs/1S1G-pcie5.yaml --alpha 0 --steal off --report /tmp/r.json -q 2> /tmp/tl.txt; E=$(date +%s%N)
      echo "CLI $b gpu $p wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")"
      cat /tmp/tl.txt
    done
  done
done
timeout 300 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench 2>&1 | tail -4
