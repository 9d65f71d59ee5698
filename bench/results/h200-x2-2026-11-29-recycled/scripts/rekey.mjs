// Call-5 rates under this host's topology keys (offline use of a device calibration): node rekey.mjs TOPOLOGY.yaml FROM.json TO.json
import fs from 'node:fs';
const { loadTopology } = await import(new URL('../../../../dist/src/topology/load.js', import.meta.url));
const { topologyKey, cpuCacheKey } = await import(new URL('../../../../dist/src/model/cache.js', import.meta.url));
const t = await loadTopology(process.argv[2]);
const src = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const out = { version: 3, entries: {} };
for (const [k, v] of Object.entries(src.entries)) {
  const [, algo, mode] = k.split('|');
  const nk = k.startsWith('sockets#') ? cpuCacheKey(t, algo, mode) : `${topologyKey(t)}|${algo}|${mode}`;
  out.entries[nk] = { ...v, host: (await import('node:os')).hostname() };
}
fs.writeFileSync(process.argv[4], JSON.stringify(out, null, 2));
console.log(Object.keys(out.entries));
