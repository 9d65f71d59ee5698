// For each gang generation: threads' starts (monotonic us) and the main thread's samples from the first start to the last.
import fs from 'node:fs';
const [gtFile, profFile] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync(profFile));
const byId = new Map(p.nodes.map((n) => [n.id, n])); const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (id) => { const f = byId.get(id).callFrame; return `${f.functionName || '(anon)'}@${f.url.split('/').pop()}:${f.lineNumber}`; };
const samples = []; let t = p.startTime;
for (let i = 0; i < p.samples.length; i++) { t += p.timeDeltas[i]; samples.push([t, p.samples[i]]); }
const gens = new Map();
for (const l of fs.readFileSync(gtFile, 'utf8').split('\n')) { const m = l.match(/^GT (\d+) (\d+) (\d+) ([\d.]+)/); if (m) { const g = +m[2]; if (!gens.has(g)) gens.set(g, []); gens.get(g).push([+m[3], +m[4], +m[1]]); } }
for (const [g, xs] of [...gens].sort((a, b) => a[0] - b[0]).slice(0, +(process.argv[4] ?? 12))) {
  xs.sort((a, b) => a[0] - b[0]);
  const first = xs[0][0], last = xs[xs.length - 1][0];
  console.log(`gen ${g}: starts (ms after first) ${xs.map((x) => ((x[0] - first) / 1000).toFixed(2)).join(' ')}`);
  // main thread samples from 0.3 ms before first to last
  let prev = '', from = 0, cnt = 0;
  const out = [];
  for (const [ts, id] of samples) {
    if (ts < first - 300 || ts > last) continue;
    let st = [], j = id; for (let k = 0; k < 4 && j !== undefined; k++) { st.push(name(j)); j = parent.get(j); }
    const key = st.join(' < ');
    if (key !== prev) { if (prev) out.push(`   ${((from - first) / 1000).toFixed(2)} x${cnt} ${prev}`); prev = key; from = ts; cnt = 0; }
    cnt++;
  }
  if (prev) out.push(`   ${((from - first) / 1000).toFixed(2)} x${cnt} ${prev}`);
  console.log(out.slice(0, 25).join('\n'));
}
