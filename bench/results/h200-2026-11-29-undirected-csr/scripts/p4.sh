#!/bin/bash
# Call 4: B = HEAD (undirectedCsr public; examples/mis over the view's CSR, its GPU operator cutting its union pages from it) against A = 1b4423c (.device/A), in turn:
# `tessera run --algo <examples/mis>` on RMAT 22 (unweighted), CPU-only and GPU-only, twice each; louvain on RMAT 16 weighted, one engine's 12 runs each (lvn.mjs);
# gpu-check (B) of kcore, louvain and the examples as chosen, and of kcore and mis with pull forced, at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
[ -d .device/A ] || tar xJf .device/A.tar.xz -C .device
S=bench/results/h200-2026-11-29-gpu-vertex-maps/scripts
node dist/src/cli/main.js generate rmat --scale 22 --out /tmp/g22.tsr > /dev/null 2>&1
for t in configs/1S.yaml "configs/1S1G-pcie5.yaml --alpha 0"; do for i in 1 2; do for b in A B; do
  if [ $b = B ]; then R="node"; Rt=.; else R="env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release node"; Rt=.device/A; fi
  st=$(date +%s%N); $R $Rt/dist/src/cli/main.js run --graph /tmp/g22.tsr --algo $Rt/dist/examples/mis/index.js --topology $t -q --report /tmp/o/r.json --out /tmp/o/m$b.txt > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== mis rmat 22 $b $t run $i wall_ms $(( (e-st)/1000000 ))"; python3 $S/steps.py /tmp/o/r.json; head -c 300 /tmp/o/err.txt
done; cmp -s /tmp/o/mA.txt /tmp/o/mB.txt && echo "outputs equal" || echo "OUTPUTS DIFFER"; done; done > /tmp/o/mis.txt 2>&1
rm -f /tmp/o/mA.txt /tmp/o/mB.txt
L=bench/results/h200-2026-11-28-louvain-rounds/scripts/lvn.mjs
for b in A B B A; do echo -n "louvain $b: "; if [ $b = B ]; then node $L rmat:16:weighted 16 12; else ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release node $L rmat:16:weighted 16 12; fi; done > /tmp/o/louvain.txt 2>&1
for sh in 1 0.6; do
  timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $sh --scale 20 --no-bench --programs kcore,louvain,mis,hits > /tmp/o/check$sh.txt 2>&1; echo "check rc $?" >> /tmp/o/check$sh.txt
  timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $sh --scale 20 --no-bench --programs kcore,mis --mode pull > /tmp/o/pull$sh.txt 2>&1; echo "check rc $?" >> /tmp/o/pull$sh.txt
done
tar cJf $OUT/call4.tar.xz -C /tmp/o .
grep -v "^  mis" /tmp/o/mis.txt; cat /tmp/o/louvain.txt; tail -n 2 /tmp/o/check*.txt /tmp/o/pull*.txt
