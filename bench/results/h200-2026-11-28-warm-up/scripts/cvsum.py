# cv.mjs's blocks ("## name" then its lines): create, the first run, the median of the others, their ratio.
import re,statistics,sys
for b in open(sys.argv[1]).read().split('## ')[1:]:
    lines=b.strip().split('\n'); head=lines[0]
    create=[l for l in lines if l.startswith('create')]
    t=[float(l.split()[1]) for l in lines[1:] if re.match(r'^\d+ ',l)]
    if len(t)<3: print(head,'FAILED',lines[-3:]); continue
    m=statistics.median(t[1:]); print(f"{head:22s} {create[0] if create else ''} first {t[0]:.1f} median {m:.1f} ratio {t[0]/m:.2f}")
