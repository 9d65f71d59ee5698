// node selftime.mjs FILE [fromMs toMs] : self time by function (ms), optionally in a window of ms since the profile's start
import fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2]));
const from = Number(process.argv[3] ?? -Infinity), to = Number(process.argv[4] ?? Infinity);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map(); let t = p.startTime; let tot = 0;
const busy = [];
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i]; const ms = (t - p.startTime) / 1000;
  const n = byId.get(p.samples[i]); const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`;
  if (f.functionName !== '(idle)' && f.functionName !== '(program)') busy.push(ms);
  if (ms < from || ms > to) continue;
  const d = (p.timeDeltas[i + 1] ?? 0) / 1000;
  self.set(key, (self.get(key) ?? 0) + d); tot += d;
}
console.log('window total', tot.toFixed(1), 'profile ms', ((t - p.startTime) / 1000).toFixed(0));
// busy periods: print start of runs of busy samples separated by > 2 ms
let s = busy[0], last = busy[0], out = [];
for (const b of busy) { if (b - last > 2) { out.push(`${s.toFixed(0)}-${last.toFixed(0)}`); s = b; } last = b; }
out.push(`${s?.toFixed(0)}-${last?.toFixed(0)}`);
console.log('busy', out.slice(0, 40).join(' '));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(2).padStart(8), k);
