import fs from 'fs';
const p = JSON.parse(fs.readFileSync(process.argv[2]));
const self = new Map(); const byId = new Map(p.nodes.map(n => [n.id, n]));
const dt = p.timeDeltas; let total = 0;
const cnt = new Map();
for (let i = 0; i < p.samples.length; i++) { cnt.set(p.samples[i], (cnt.get(p.samples[i]) ?? 0) + (dt[i] ?? 0)); }
for (const [id, t] of cnt) { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t); total += t; }
console.log('total ms', (total/1000).toFixed(0));
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, +(process.argv[3] ?? 30))) console.log((t/1000).toFixed(1).padStart(8), k);
