#!/bin/bash
# Call 3: B = HEAD (call 2's build, csrPages copying a page's lists at once, kcore's rounds on the sockets unless pull is forced) against A = 1b4423c (.device/A), in turn:
# as p1.sh (kcore RMAT 20 and 22, CPU-only and GPU-only, twice each; kw.mjs sessions); gpu-check (B) of kcore and mis with pull forced, and of kcore, louvain and mis as chosen, at GPU shares 1 and 0.6.
set -u
sed -n '/^\. bench/,/^rm -f/p' bench/results/h200-2026-11-29-undirected-csr/scripts/p1.sh > /tmp/p1-runs.sh
sed -n '/^for g in 0 1/,/^done; done > \/tmp\/o\/session.txt/p' bench/results/h200-2026-11-29-undirected-csr/scripts/p1.sh > /tmp/p1-session.sh
. /tmp/p1-runs.sh
. /tmp/p1-session.sh
for sh in 1 0.6; do
  timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $sh --scale 20 --no-bench --programs kcore,mis --mode pull > /tmp/o/pull$sh.txt 2>&1; echo "check rc $?" >> /tmp/o/pull$sh.txt
  timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share $sh --scale 20 --no-bench --programs kcore,louvain,mis > /tmp/o/check$sh.txt 2>&1; echo "check rc $?" >> /tmp/o/check$sh.txt
done
tar cJf $OUT/call3.tar.xz -C /tmp/o .
grep -v "^  kcore" /tmp/o/kcore.txt; cat /tmp/o/session.txt; tail -n 2 /tmp/o/pull*.txt /tmp/o/check*.txt
