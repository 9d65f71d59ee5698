// node timeline.mjs FILE FROM TO [OFFSET]: sample timeline (consecutive equal stacks merged), times + OFFSET
import fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2]));
const from = Number(process.argv[3]), to = Number(process.argv[4]), off = Number(process.argv[5] ?? 0);
const byId = new Map(p.nodes.map((n) => [n.id, n])); const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (id) => { const f = byId.get(id).callFrame; return `${f.functionName || '(anon)'}@${f.url.split('/').slice(-1)[0]}:${f.lineNumber}`; };
let t = p.startTime, prev = '', start = 0, lastMs = 0;
const D = Number(process.env.DEPTH ?? 4);
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i]; const ms = (t - p.startTime) / 1000 + off;
  if (ms < from || ms > to) continue;
  let id = p.samples[i], st = [];
  for (let k = 0; k < D && id !== undefined; k++) { st.push(name(id)); id = parent.get(id); }
  const key = st.join(' < ');
  if (key !== prev) { if (prev) console.log(start.toFixed(2), (lastMs - start + 0.1).toFixed(2).padStart(6), prev); prev = key; start = ms; }
  lastMs = ms;
}
console.log(start.toFixed(2), (lastMs - start).toFixed(2).padStart(6), prev);
