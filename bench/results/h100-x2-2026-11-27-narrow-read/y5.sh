#!/bin/bash
# Session 34 call 5 (a build with two knobs for the background faulting of a run's fresh arrays,
# not committed: TESSERA_POPULATE_THREADS, default 8, and TESSERA_POPULATE_SHIFT, at least 2^24
# bytes a thread): bfs on RMAT 25, 1 GPU and 2 S, two rounds of four variants: p8 (as landed),
# p16 (16 threads, 8 MiB each at least), p32 (32, 4 MiB), sync (TESSERA_NO_POPULATE=1: faulted in
# on the coordinator's call before the run goes on). Transparent huge pages' settings.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || { tar xJf .device/prod-modules.tar.xz -C /tmp; tar xJf .device/gmods.tar.xz -C /tmp/node_modules; }
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; for f in enabled defrag; do echo "thp $f: $(cat /sys/kernel/mm/transparent_hugepage/$f)"; done; uname -r; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1
echo "gen done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in p8 p16 p32 sync; do
    case $b in
      p8) E="";; p16) E="TESSERA_POPULATE_THREADS=16 TESSERA_POPULATE_SHIFT=23";; p32) E="TESSERA_POPULATE_THREADS=32 TESSERA_POPULATE_SHIFT=22";; sync) E="TESSERA_NO_POPULATE=1";;
    esac
    env $E CONFIGS=1,2s CELLS=bfs RUNS=8 REPORTS=$OUT/reports-$b-$round.jsonl timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,\"g\":25,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "all done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf reports.tgz reports*.jsonl gen.txt speed.err 2>/dev/null && rm -f reports*.jsonl gen.txt speed.err
cat machine.txt | grep -v "^GPU"
python3 - speed.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    print(r['g'],r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
