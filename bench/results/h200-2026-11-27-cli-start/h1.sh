
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
G=${G:-/tmp/g24.tsr}; SC=${SC:-24}
nproc; nvidia-smi --query-gpu=name --format=csv,noheader; lscpu | grep "Model name"
T=$(date +%s.%N)
node dist/src/cli/main.js generate rmat --scale $SC --weighted --out $G 2>&1 | tail -2
echo "generate s: $(echo "$(date +%s.%N) - $T" | bc)"
ls -la $G
printf 'name: cpu\nsockets:\n  - id: 0\n    threads: auto\n' > /tmp/cpu.yaml
for rep in 1 2; do
for i in 1 2 3; do S=$(date +%s%N); node dist/src/cli/main.js --help >/dev/null; E=$(date +%s%N); echo "help_ms $(( (E-S)/1000000 ))"; done
for p in bfs wcc pr; do
  for tp in cpu gpu; do
    node .device/cb.mjs $G $tp $p | tee /tmp/cb.txt
    SRC=$(head -1 /tmp/cb.txt | sed 's/.*"src":\([0-9]*\).*/\1/')
    if [ $tp = cpu ]; then TOP="--topology /tmp/cpu.yaml"; else TOP="--topology configs/1S1G-pcie5.yaml --alpha 0"; fi
    IT=""; [ $p = pr ] && IT="--iterations 10"; [ $p = bfs ] && IT="--source $SRC"
    S=$(date +%s%N); node dist/src/cli/main.js run --graph $G --algo $p $IT $TOP --steal off --report /tmp/r.json -q; E=$(date +%s%N)
    echo "CLI $tp $p wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")"
  done
done
done
mkdir -p $OUT
