xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
printf 'name: cpu\nsockets:\n  - id: 0\n    threads: auto\n' > /tmp/cpu.yaml
for i in 1 2 3; do S=$(date +%s%N); node dist/src/cli/main.js --help >/dev/null; E=$(date +%s%N); echo "help_ms $(( (E-S)/1000000 ))"; done
mkdir -p $OUT/prof
for tp in cpu gpu; do
  if [ $tp = cpu ]; then TOP="--topology /tmp/cpu.yaml"; else TOP="--topology configs/1S1G-pcie5.yaml --alpha 0"; fi
  for rep in 1 2; do
    S=$(date +%s%N); node --cpu-prof --cpu-prof-dir=/tmp/prof-$tp-$rep dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc $TOP --steal off --report /tmp/r.json -q; E=$(date +%s%N)
    echo "CLI $tp wcc start_ns $S end_ns $E wall_ms $(( (E-S)/1000000 )) $(node -e "const r=JSON.parse(require('fs').readFileSync('/tmp/r.json'));console.log('load',r.loadMs?.toFixed(0),'total',r.totalMs.toFixed(1))")"
    cp /tmp/prof-$tp-$rep/*.0.001.cpuprofile $OUT/prof/$tp-$rep.cpuprofile
  done
done
cd $OUT && tar czf prof.tgz prof && rm -rf prof
