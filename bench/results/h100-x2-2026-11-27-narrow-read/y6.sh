#!/bin/bash
# Session 34 call 6 (build 92c1a20): does asking for huge pages slow a run's background faulting?
# bfs on RMAT 25, 1 GPU and 2 S, two rounds, default against TESSERA_NO_HUGEPAGES=1 (no
# MADV_HUGEPAGE anywhere: the .tsr's arrays and the runs' fresh state arrays); CPU bfs and wcc on
# RMAT 24 (one socket of all 32 threads, tl.mjs, 20 runs) the same two ways.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || { tar xJf .device/prod-modules.tar.xz -C /tmp; tar xJf .device/gmods.tar.xz -C /tmp/node_modules; }
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; for f in enabled defrag; do echo "thp $f: $(cat /sys/kernel/mm/transparent_hugepage/$f)"; done; grep -i huge /proc/meminfo; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
[ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1
[ -f /tmp/g24.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --out /tmp/g24.tsr >> $OUT/gen.txt 2>&1
echo "gen done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in huge nohuge; do
    E=""; [ $b = nohuge ] && E="TESSERA_NO_HUGEPAGES=1"
    env $E CONFIGS=1,2s CELLS=bfs RUNS=8 REPORTS=$OUT/reports-$b-$round.jsonl timeout 100 node .device/mg26.mjs "$PWD" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,\"g\":25,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
for round in 1 2; do
  for b in huge nohuge; do
    E=""; [ $b = nohuge ] && E="TESSERA_NO_HUGEPAGES=1"
    for c in bfs wcc; do echo "== $b $round" >> $OUT/cpu.txt; env $E ROOT=$PWD timeout 100 node .device/tl.mjs $c /tmp/g24.tsr 20 2>&1 | head -2 >> $OUT/cpu.txt; done
  done
done
echo "all done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf reports.tgz reports*.jsonl gen.txt speed.err 2>/dev/null && rm -f reports*.jsonl gen.txt speed.err
cat machine.txt | grep -v "^GPU"; cat cpu.txt
python3 - speed.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    print(r['g'],r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
