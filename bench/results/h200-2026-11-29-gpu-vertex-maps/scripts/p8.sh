#!/bin/bash
# Call 8: gpu-check of the session's last build (examples/hits' scaling a GPU vertex pass, kcore's levels, union pages written in place) at GPU shares 1 and 0.6 with the fixture mix.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
timeout 250 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check1.txt 2>&1; echo "check1 rc $?" >> /tmp/o/check1.txt
timeout 250 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench --module dist/test/fixtures/operators/mix.js > /tmp/o/check06.txt 2>&1; echo "check06 rc $?" >> /tmp/o/check06.txt
tar cJf $OUT/call8.tar.xz -C /tmp/o .
grep -h "hits\|kcore\|mis " /tmp/o/check1.txt | tail -8; tail -n 2 /tmp/o/check1.txt /tmp/o/check06.txt
