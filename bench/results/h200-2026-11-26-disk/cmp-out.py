# Compares two `id value` result files: exact for integers, max relative difference for floats.
import sys
a, b = open(sys.argv[1]), open(sys.argv[2])
n = bad = 0; worst = 0.0
for la, lb in zip(a, b):
    n += 1
    ia, va = la.split(); ib, vb = lb.split()
    if ia != ib: bad += 1; continue
    if va == vb: continue
    try:
        x, y = float(va), float(vb)
        d = abs(x - y) / max(abs(y), 1e-300)
        worst = max(worst, d)
        if d > 1e-9: bad += 1
    except ValueError:
        bad += 1
print(f"{n} lines, {bad} differ beyond 1e-9, max relative difference {worst:.3g}")
