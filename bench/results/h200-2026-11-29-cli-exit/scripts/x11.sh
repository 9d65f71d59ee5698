#!/bin/bash
# Call 11: the session's last build on the GPU: a .tsr's pages (1 GiB read batches) on the GPU, GPU-only results equal the
# CPU's on RMAT 22 weighted (bfs, wcc, sssp exactly; pr within 1e-9 relative), and gpu-check --gpus 1 (RMAT 20, SNAP).
set -u
GEN="rmat --scale 22 --weighted" TSR=g22.tsr
. bench/results/h200-2026-11-29-cli-exit/scripts/setup.sh
t1=$(date +%s); for a in bfs wcc sssp pr; do for topo in gpu cpu; do TA="--topology configs/1S.yaml"; [ $topo = gpu ] && TA="--topology configs/1S1G-pcie5.yaml --alpha 0"
  node dist/src/cli/main.js run --graph /tmp/g22.tsr --algo $a $( [ $a = bfs ] || [ $a = sssp ] && echo --source 0 ) $TA -q --out /tmp/o/$a-$topo.txt; done
  python3 -c "
a=[l.split() for l in open('/tmp/o/$a-gpu.txt')]; b=[l.split() for l in open('/tmp/o/$a-cpu.txt')]
bad=sum(1 for x,y in zip(a,b) if x[0]!=y[0] or (x[1]!=y[1] and abs(float(x[1])-float(y[1]))>1e-9*max(abs(float(y[1])),1e-300)))
print('$a gpu vs cpu: lines', len(a), len(b), 'differing', bad)"; rm -f /tmp/o/$a-gpu.txt /tmp/o/$a-cpu.txt; done > /tmp/o/same.txt 2>&1; log same $?
t1=$(date +%s); timeout 300 node scripts/gpu-check.mjs --gpus 1 --scale 20 --no-bench > /tmp/o/gpu-check.txt 2>&1; log gpu-check $?
tar cJf $OUT/call11.tar.xz -C /tmp/o .
cat /tmp/o/machine.txt /tmp/o/same.txt; tail -3 /tmp/o/gpu-check.txt
