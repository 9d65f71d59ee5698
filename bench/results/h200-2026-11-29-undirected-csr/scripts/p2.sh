#!/bin/bash
# Call 2: B = HEAD (call 1's build, and GPUs cutting their union pages from the view (viewCsr), kcore's blocked pushes) against A = 1b4423c (.device/A), in turn:
# `tessera run --algo kcore` on RMAT 20 and 22 (unweighted), CPU-only and GPU-only, twice each (steps.py); one engine's six runs (kw.mjs) CPU-only and GPU-only at RMAT 20;
# gpu-check (B) of kcore, louvain and the example mis at GPU shares 1 and 0.6. (As p1.sh but for these lines.)
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
[ -d .device/A ] || tar xJf .device/A.tar.xz -C .device
S=bench/results/h200-2026-11-29-gpu-vertex-maps/scripts
K=bench/results/h200-2026-11-29-undirected-csr/scripts
for s in 20 22; do node dist/src/cli/main.js generate rmat --scale $s --out /tmp/g$s.tsr > /dev/null 2>&1; done
run() { # build, then the rest of the command line
  if [ $1 = B ]; then shift; node "$@"; else shift; env ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release node "$@"; fi
}
main() { if [ $1 = B ]; then echo dist/src/cli/main.js; else echo .device/A/dist/src/cli/main.js; fi; }
for s in 20 22; do for t in configs/1S.yaml "configs/1S1G-pcie5.yaml --alpha 0"; do for i in 1 2; do for b in A B; do
  st=$(date +%s%N); run $b $(main $b) run --graph /tmp/g$s.tsr --algo kcore --topology $t -q --report /tmp/o/r.json --out /tmp/o/k$b.txt > /dev/null 2>/tmp/o/err.txt; e=$(date +%s%N)
  echo "== kcore rmat $s $b $t run $i wall_ms $(( (e-st)/1000000 ))"; python3 $S/steps.py /tmp/o/r.json; head -c 300 /tmp/o/err.txt
done; cmp -s /tmp/o/kA.txt /tmp/o/kB.txt && echo "outputs equal" || echo "OUTPUTS DIFFER"; done; done; done > /tmp/o/kcore.txt 2>&1
rm -f /tmp/o/kA.txt /tmp/o/kB.txt
for g in 0 1; do for b in A B; do
  echo "== kw $b GPU=$g"; if [ $b = B ]; then GPU=$g timeout 120 node $K/kw.mjs /tmp/g20.tsr 6; else GPU=$g ROOT=$PWD/.device/A TESSERA_NATIVE_DIR=$PWD/build/Release timeout 120 node $K/kw.mjs /tmp/g20.tsr 6; fi
done; done > /tmp/o/session.txt 2>&1
for sh in 1 0.6; do timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $sh --scale 20 --no-bench --programs kcore,louvain,mis > /tmp/o/check$sh.txt 2>&1; echo "check rc $?" >> /tmp/o/check$sh.txt; done
tar cJf $OUT/call2.tar.xz -C /tmp/o .
cat /tmp/o/kcore.txt /tmp/o/session.txt; tail -n 3 /tmp/o/check1.txt /tmp/o/check0.6.txt
