# python3 ratios.py FILE: for each "== cell" block of ft.mjs output, the first run's total over the median of runs 2-6 (and those totals).
import re, statistics, sys
cell, runs = None, []
def done():
    if cell and len(runs) > 1:
        m = statistics.median(runs[1:])
        print(f"{cell:28s} first {runs[0]:7.2f} median(2-) {m:7.2f} ratio {runs[0] / m:.2f}")
for line in open(sys.argv[1]):
    if line.startswith('== '):
        done(); cell, runs = line[3:].strip(), []
    m = re.match(r'^(\d+) at \d+ ([\d.]+) ', line)
    if m: runs.append(float(m.group(2)))
done()
