#!/bin/bash
# Call 2: B = HEAD (call 1's build, and GPUs cutting their union pages from the view (viewCsr), kcore's blocked pushes) against A = 1b4423c (.device/A), in turn:
# p1.sh's runs (kcore RMAT 20 and 22, CPU-only and GPU-only; kw.mjs sessions; gpu-check of kcore, louvain and mis at GPU shares 1 and 0.6), its output as call2.tar.xz.
sed 's/call1.tar.xz/call2.tar.xz/' bench/results/h200-2026-11-29-undirected-csr/scripts/p1.sh | bash
