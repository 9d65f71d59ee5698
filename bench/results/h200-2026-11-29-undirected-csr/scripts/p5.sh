#!/bin/bash
# Call 5: gpu-check of the session's last build (b9974a9: kcore without a view on a graph read from disk, Ligra's rule there) with every built-in and example, at GPU shares 1 and 0.6.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
for sh in 1 0.6; do timeout 280 node scripts/gpu-check.mjs --gpus 1 --gpu-share $sh --scale 20 --no-bench > /tmp/o/check$sh.txt 2>&1; echo "check rc $?" >> /tmp/o/check$sh.txt; done
tar cJf $OUT/call5.tar.xz -C /tmp/o .
tail -n 3 /tmp/o/check1.txt /tmp/o/check0.6.txt
