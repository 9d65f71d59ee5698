#!/bin/bash
# Call 6: what a .tsr load of RMAT 24 weighted (4.6 GB, page cache) is bound by: the host's huge-page settings, dd's rate, bench/tsr-load.mjs (a fresh process per load) with and without checks, and without huge-page advice (TESSERA_NO_HUGEPAGES=1), in turn.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
{
  echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled) defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
  grep -i "MemTotal\|MemFree\|AnonHuge" /proc/meminfo
  lscpu | grep -i "numa\|socket\|Thread"
  dd if=/tmp/g24.tsr of=/dev/null bs=8M 2>&1 | tail -1
  for r in 1 2; do
    echo "== verify"; node bench/tsr-load.mjs /tmp/g24.tsr --loads 3
    echo "== no-verify"; node bench/tsr-load.mjs /tmp/g24.tsr --loads 3 --no-verify
    echo "== verify, no huge pages"; TESSERA_NO_HUGEPAGES=1 node bench/tsr-load.mjs /tmp/g24.tsr --loads 3
  done
} > /tmp/o/load.txt 2>&1
tar cJf $OUT/call6.tar.xz -C /tmp/o .
cat /tmp/o/load.txt
