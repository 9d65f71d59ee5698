#!/bin/bash
# Call 7 (nvidia-h200, one GPU): call 6's CPU-only cells again, B and A in turn, twice (B first), to tell their
# difference from the host's drift.
CONFS="0 0" ORDER="B A" CALL=7 bash bench/results/h200-x2-2026-11-29-recycled/scripts/s6.sh
