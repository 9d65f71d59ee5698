# A: session start (f173c15); B: this build (GPUs opened during the load, parallel registration, .tsr read into huge pages); BN: B with TESSERA_NO_HUGEPAGES=1
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader; cat /sys/kernel/mm/transparent_hugepage/enabled
rm -rf /tmp/A && mkdir -p /tmp/A/build && tar xJf .device/e1-release.tar.xz -C /tmp/A/build && tar xJf .device/f173-dist.tar.xz -C /tmp/A && cp package.json /tmp/A/ && ln -sfn /tmp/node_modules /tmp/A/node_modules
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
printf 'name: cpu\nsockets:\n  - id: 0\n    threads: auto\n' > /tmp/cpu.yaml
SRC=$(node -e "import('./dist/src/graph/tsr.js').then(async m => { const g = await m.readTsr('/tmp/g24.tsr'); console.log(g.ids.toOriginal[0]); })")
for rep in 1 2 3; do
  for b in A B BN; do
    if [ $b = A ]; then R=/tmp/A; else R=$PWD; fi
    if [ $b = BN ]; then export TESSERA_NO_HUGEPAGES=1; else unset TESSERA_NO_HUGEPAGES; fi
    S=$(date +%s%N); node $R/dist/src/cli/main.js --help >/dev/null; E=$(date +%s%N); echo "$b help_ms $(( (E-S)/1000000 ))"
    for tp in cpu gpu; do
      if [ $tp = cpu ]; then TOP="--topology /tmp/cpu.yaml"; else TOP="--topology configs/1S1G-pcie5.yaml --alpha 0"; fi
      for p in bfs wcc; do
        IT=""; [ $p = bfs ] && IT="--source $SRC"
        S=$(date +%s%N); ROOT=$R node --import ./.device/tlh.mjs $R/dist/src/cli/main.js run --graph /tmp/g24.tsr --algo $p $IT $TOP --steal off --report /tmp/r.json -q 2> /tmp/tl.txt; E=$(date +%s%N)
        echo "CLI $b $tp $p wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))") $(cut -c1-16 /tmp/tl.txt)"
      done
    done
  done
done
unset TESSERA_NO_HUGEPAGES
for p in bfs wcc pr; do for tp in cpu gpu; do node .device/cb.mjs /tmp/g24.tsr $tp $p 2>&1 | head -1; done; done
