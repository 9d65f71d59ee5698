import { Worker, BroadcastChannel, MessageChannel } from 'node:worker_threads';
const N = Number(process.argv[2] ?? 16);
const code = `const { BroadcastChannel, workerData, parentPort } = require('node:worker_threads'); const bc = new BroadcastChannel('y'); bc.onmessage = () => {}; parentPort.on('message', (m) => { if (m.port) m.port.on('message', () => {}); }); parentPort.postMessage('ok');`;
const ws = []; for (let i = 0; i < N; i++) ws.push(new Worker(code, { eval: true }));
await Promise.all(ws.map((w) => new Promise((r) => w.once('message', r))));
const ports = ws.map((w) => { const { port1, port2 } = new MessageChannel(); w.postMessage({ port: port2 }, [port2]); return port1; });
const bc = new BroadcastChannel('y');
const sabs = Array.from({ length: 6 }, () => new SharedArrayBuffer(1 << 20));
const msg = () => ({ key: 'socket0:12:bfs', kernel: 'bfs', module: 'file:///x/y/kernels.js', mode: 'pull', args: { level: 3 }, state: [{ name: 'depth', kind: 'i32', buffer: sabs[0] }, { name: 'seen', kind: 'i32', buffer: sabs[1] }], frontier: sabs[2], frontierList: undefined, next: sabs[3], wantList: false, listCap: 100, pullPages: 'in', vertex: false, countNext: true, queue: sabs[4], gen: 5 });
for (let rep = 0; rep < 3; rep++) {
  let t = performance.now(); for (let k = 0; k < 500; k++) { const m = msg(); for (const p of ports) p.postMessage(m); } const a = (performance.now() - t) / 500;
  t = performance.now(); for (let k = 0; k < 500; k++) bc.postMessage(msg()); const b = (performance.now() - t) / 500;
  console.log(`per dispatch to ${N}: ports ${(a * 1000).toFixed(1)} us, broadcast ${(b * 1000).toFixed(1)} us`);
  await new Promise((r) => setTimeout(r, 200));
}
bc.close(); for (const p of ports) p.close(); for (const w of ws) await w.terminate();
