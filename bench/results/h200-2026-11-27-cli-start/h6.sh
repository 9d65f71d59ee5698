# A: session start (f173c15); B0: this build, GPUs opened during the load, sockets after; B1: sockets started during the load too.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf /tmp/A && mkdir -p /tmp/A/build && tar xJf .device/e1-release.tar.xz -C /tmp/A/build && tar xJf .device/f173-dist.tar.xz -C /tmp/A && cp package.json /tmp/A/ && ln -sfn /tmp/node_modules /tmp/A/node_modules
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
printf 'name: cpu\nsockets:\n  - id: 0\n    threads: auto\n' > /tmp/cpu.yaml
S=$(date +%s%N); dd if=/tmp/g24.tsr of=/dev/null bs=16M 2>&1 | tail -1; node .device/drop.mjs /tmp/g24.tsr; dd if=/tmp/g24.tsr of=/dev/null bs=16M 2>&1 | tail -1
for cache in warm cold; do
for rep in 1 2; do
  for b in A B0 B1; do
    if [ $b = A ]; then R=/tmp/A; else R=$PWD; fi
    if [ $b = B0 ]; then export TESSERA_PRESTART_SOCKETS=0; else unset TESSERA_PRESTART_SOCKETS; fi
    for tp in cpu gpu; do
      if [ $tp = cpu ]; then TOP="--topology /tmp/cpu.yaml"; else TOP="--topology configs/1S1G-pcie5.yaml --alpha 0"; fi
      [ $cache = cold ] && node .device/drop.mjs /tmp/g24.tsr
      S=$(date +%s%N); node $R/dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc $TOP --steal off --report /tmp/r.json -q; E=$(date +%s%N)
      echo "CLI $cache $b $tp wcc wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")"
    done
  done
done
done
