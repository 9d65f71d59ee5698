xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/before && tar xJf .device/f173-dist.tar.xz -C /tmp/before && cp package.json /tmp/before/ && ln -sfn /tmp/node_modules /tmp/before/node_modules && mkdir -p /tmp/before/build && cp -r build/Release /tmp/before/build/
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
printf 'name: cpu\nsockets:\n  - id: 0\n    threads: auto\n' > /tmp/cpu.yaml
SRC=$(node -e "import('./dist/src/graph/tsr.js').then(async m => { const g = await m.readTsr('/tmp/g24.tsr'); console.log(g.ids.toOriginal[0]); })")
echo "src $SRC"
for rep in 1 2 3; do
  for b in before after; do
    if [ $b = before ]; then M=/tmp/before/dist/src/cli/main.js; else M=dist/src/cli/main.js; fi
    S=$(date +%s%N); node $M --help >/dev/null; E=$(date +%s%N); echo "$b help_ms $(( (E-S)/1000000 ))"
    for tp in cpu gpu; do
      if [ $tp = cpu ]; then TOP="--topology /tmp/cpu.yaml"; else TOP="--topology configs/1S1G-pcie5.yaml --alpha 0"; fi
      for p in bfs wcc; do
        IT=""; [ $p = bfs ] && IT="--source $SRC"
        S=$(date +%s%N); node $M run --graph /tmp/g24.tsr --algo $p $IT $TOP --steal off --report /tmp/r.json -q; E=$(date +%s%N)
        echo "CLI $b $tp $p wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")"
      done
    done
  done
done
mkdir -p $OUT/prof
node --cpu-prof --cpu-prof-dir=/tmp/pa dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology /tmp/cpu.yaml --steal off -q && cp /tmp/pa/*.0.001.cpuprofile $OUT/prof/cpu-after.cpuprofile
node --cpu-prof --cpu-prof-dir=/tmp/pb dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology configs/1S1G-pcie5.yaml --alpha 0 --steal off -q && cp /tmp/pb/*.0.001.cpuprofile $OUT/prof/gpu-after.cpuprofile
cd $OUT && tar czf prof.tgz prof && rm -rf prof
