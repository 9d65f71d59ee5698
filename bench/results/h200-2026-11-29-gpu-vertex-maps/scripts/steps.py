# python3 steps.py REPORT.json: a run report's supersteps summed by kernel, mode, vertex map and whether a GPU ran them (count, ms, state MiB up and back).
import json, sys
r = json.load(open(sys.argv[1]))
by = {}
for s in r['steps']:
    gpu = any(a.get('gpu', {}).get('calls', 0) > 0 for a in s['actors'])
    k = f"{s['kernel']}{'(v)' if s.get('vertexMap') else ''}:{s['mode']}:{'gpu' if gpu else 'cpu'}"
    b = by.setdefault(k, [0, 0.0, 0, 0])
    b[0] += 1; b[1] += s['ms']
    b[2] += sum(a.get('gpu', {}).get('stateBytesIn', 0) for a in s['actors']); b[3] += sum(a.get('gpu', {}).get('stateBytesOut', 0) for a in s['actors'])
print(r['program'], 'total', round(r['totalMs'], 1), {k: round(v, 1) for k, v in r['phases'].items()}, r.get('notes', {}))
for k, (n, ms, i, o) in by.items(): print(f"  {k}: {n} steps {ms:.1f} ms, up {i / 2**20:.1f} MiB, back {o / 2**20:.1f} MiB")
