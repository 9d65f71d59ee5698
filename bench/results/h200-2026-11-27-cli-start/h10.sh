# The session's final build: gpu-check at GPU shares 1 and 0.6; first runs (cb.mjs) and the CLI on RMAT 24.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench 2>&1 | tail -2
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench 2>&1 | tail -2
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
printf 'name: cpu\nsockets:\n  - id: 0\n    threads: auto\n' > /tmp/cpu.yaml
for rep in 1 2; do for p in bfs wcc pr; do for tp in cpu gpu; do node .device/cb.mjs /tmp/g24.tsr $tp $p 2>&1 | head -1; done; done; done
SRC=$(node -e "import('./dist/src/graph/tsr.js').then(async m => { const g = await m.readTsr('/tmp/g24.tsr'); console.log(g.ids.toOriginal[0]); })")
for rep in 1 2 3; do for tp in cpu gpu; do
  if [ $tp = cpu ]; then TOP="--topology /tmp/cpu.yaml"; else TOP="--topology configs/1S1G-pcie5.yaml --alpha 0"; fi
  S=$(date +%s%N); node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo bfs --source $SRC $TOP --steal off --report /tmp/r.json -q; E=$(date +%s%N)
  echo "CLI $tp bfs wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")"
done; done
