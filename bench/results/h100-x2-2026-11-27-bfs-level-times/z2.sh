#!/bin/bash
# Session 33 call 2: (a) KTwcBlock's grid sized by a page's edges where it may hold a huge vertex
# (bfs RMAT 25, 1 GPU / 2 GPUs S, before c8fce93 / after, two rounds; gpu-check 1 and 2 S);
# (b) tessera run importing the engine while its graph loads (RMAT 24 .tsr, CPU and GPU wall);
# (c) louvain's aggregation writing its lists in place (RMAT 16 session runs, before / after), and
# the harness against graphology.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || { tar xJf .device/prod-modules.tar.xz -C /tmp; tar xJf .device/gmods.tar.xz -C /tmp/node_modules; }
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before34.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp -r configs /tmp/B/
{ nvidia-smi -L; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
( [ -f /tmp/g.tsr ] || timeout 150 node dist/src/cli/main.js generate rmat --scale 25 --out /tmp/g.tsr > $OUT/gen.txt 2>&1; [ -f /tmp/g24.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --out /tmp/g24.tsr >> $OUT/gen.txt 2>&1 ) &
G=$!
timeout 100 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench > $OUT/gc1.txt 2>&1; echo "gpu-check 1 rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
wait $G
echo "gen done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    CONFIGS=1,2s CELLS=bfs RUNS=8 REPORTS=$OUT/reports-$b-$round.jsonl timeout 100 node .device/mg26.mjs "$R" /tmp/g.tsr | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/" >> $OUT/speed.jsonl 2>> $OUT/speed.err
  done
done
echo "bfs done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
t1=$(date +%s)
timeout 120 node scripts/gpu-check.mjs --gpus 2 --multi-gpu s --gpu-share 1 --scale 20 --no-bench > $OUT/gc2s.txt 2>&1; echo "gpu-check 2 S rc=$? $(( $(date +%s) - t1 ))s" >> $OUT/machine.txt
# (b) the CLI, interleaved: wall ms from the shell
cli() { local R=$1; shift; local s=$(date +%s%N); node $R/dist/src/cli/main.js run --graph /tmp/g24.tsr --source 0 -q "$@" > /dev/null 2>>$OUT/cli.err; local e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
cat /tmp/g24.tsr > /dev/null
for round in 1 2 3; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    echo "$round $b cpu-bfs $(cli $R --algo bfs --topology configs/1S.yaml) gpu-bfs $(cli $R --algo bfs --topology configs/1S1G-pcie5.yaml --alpha 0) cpu-wcc $(cli $R --algo wcc --topology configs/1S.yaml)" >> $OUT/cli.txt
  done
done
echo "cli done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
# (c) louvain
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    echo "$round $b $(timeout 60 node .device/lv2d.mjs $R 16 9)" >> $OUT/louvain.txt
  done
done
timeout 150 node dist/src/cli/main.js bench --config .device/gl16.yaml --out-dir /tmp/gl16 > $OUT/harness.txt 2>&1; echo "harness rc=$?" >> $OUT/machine.txt
cp /tmp/gl16/*/results.md $OUT/harness-results.md 2>/dev/null
echo "all done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
cd $OUT && tar czf reports.tgz reports-*.jsonl gen.txt speed.err cli.err harness.txt 2>/dev/null && rm -f reports-*.jsonl gen.txt speed.err cli.err harness.txt
cat machine.txt | grep -v "^GPU"; tail -n 1 gc1.txt gc2s.txt; cat cli.txt louvain.txt; grep -i "louvain" harness-results.md | head -5
python3 - speed.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['build'],r['round'],r['conf'],r['cell'],r['medianMs'],r['runs'])
PY
