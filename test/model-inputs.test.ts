/**
 * The model's refusals of bad input: a damaged calibration cache entry (refused, the file kept
 * whole), a --source or --mode that changes nothing, a GPU too small for the calibration graphs.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isTesseraError } from '../src/errors.js';
import { modelSweep, readCache, writeCacheEntry } from '../src/model/index.js';
import { loadGraph } from '../src/graph/load.js';
import { parseTopology } from '../src/topology/parse.js';
import { nativeAvailable } from '../actors/gpu/native.js';

test('calibration cache: a damaged entry is refused in one line naming it; the other entries stay', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cache-'));
  const file = path.join(dir, 'cal.json');
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < 7; i++) entries[`t#${i}|bfs|pull`] = { rGpu: 1e9, rCpu: 1e8 };
  (entries['t#3|bfs|pull'] as { rGpu: number }).rGpu = -1;
  const text = JSON.stringify({ version: 3, entries });
  writeFileSync(file, text);
  const e = await t.throwsAsync(readCache(file));
  t.true(isTesseraError(e));
  t.regex(e!.message, /cal\.json: calibration cache entry 't#3\|bfs\|pull' is damaged \(rGpu: .*\) \(at entries\.t#3\|bfs\|pull\.rGpu\)\. Fix: remove that entry/);
  t.false(e!.message.includes('\n'));
  await t.throwsAsync(writeCacheEntry(file, 't#9|bfs|pull', { rGpu: 2e9 }));
  t.is(readFileSync(file, 'utf8'), text, 'the file is kept as it was');
});

test('model: a user\'s source or mode that changes nothing is refused, saying when it applies; a run\'s own are modelled as run', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-model-inputs-'));
  const calibrate = { cacheFile: path.join(dir, 'c.json') };
  const topo = parseTopology('sockets: [{threads: 1}]\nmodel: {rCpu: 10000000}\n', '1S.yaml');
  const { graph } = await loadGraph('rmat:6:weighted');
  const refused = async (algo: string, o: { mode?: 'push' | 'pull'; source?: number }, re: RegExp): Promise<void> => {
    const e = await t.throwsAsync(modelSweep(graph, topo, algo, { steps: 2, calibrate, userFlags: true, ...o }));
    t.true(isTesseraError(e), `${algo}: ${e?.message}`);
    t.regex(e!.message, re);
  };
  await refused('bfs', { source: 0 }, /prediction for bfs does not depend on the source \(at --source\)\. Fix: add --mode push/);
  await refused('bfs', { source: 0, mode: 'pull' }, /bfs in pull mode does not depend on the source/);
  await refused('sssp', { source: 3 }, /sssp does not depend on the source.*Fix: leave --source out/);
  for (const algo of ['tc', 'lcc', 'pr']) await refused(algo, { mode: 'push' }, new RegExp(`program '${algo}' has no push kernels.*\\(at --mode\\)\\. Fix: leave --mode out \\(${algo} runs pull\\)`));
  const levelled = await modelSweep(graph, topo, 'bfs', { steps: 2, calibrate, mode: 'push', source: 0, userFlags: true });
  t.true((levelled.params.levelPageEdges?.length ?? 0) > 0);
  await t.notThrowsAsync(modelSweep(graph, topo, 'bfs', { steps: 2, calibrate, mode: 'pull', userFlags: true }));
  // run --alpha auto, the benchmark and model-replay pass the run's own: modelled as the run goes.
  const asRun = await modelSweep(graph, topo, 'tc', { steps: 2, calibrate, mode: 'push', source: 0 });
  t.is(asRun.mode, 'pull');
  t.is(asRun.params.levelPageEdges, undefined);
});

test('model: a GPU whose memoryLimit is below the calibration graph\'s needs says so, with the fix', async (t) => {
  if (!nativeAvailable().ok) return t.pass('no native GPU controller in this build');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-model-small-gpu-'));
  const text = 'sockets: [{threads: 1}]\ngpus: [{device: 0, emulated: true, streams: 2, memoryLimit: 1MiB}]\ninterconnect: {bandwidth: 10GB/s}\n';
  const { graph } = await loadGraph('rmat:8');
  const e = await t.throwsAsync(modelSweep(graph, parseTopology(text, 'g1.yaml'), 'bfs', { steps: 2, calibrate: { cacheFile: path.join(dir, 'c.json') } }));
  t.true(isTesseraError(e));
  t.regex(e!.message, /^g1\.yaml: calibrating GPU 0 runs bfs on rmat:14\S*, which needs more GPU memory than its memoryLimit \(1\.0 MiB\) \(at gpus\.0\.memoryLimit\)\. Fix: raise memoryLimit .*model: \{ rGpu: EDGES_PER_SECOND \}/);
  t.notRegex(e!.message, /superstep|--checkpoint|--resume/);
  const given = parseTopology(`${text}model: {rGpu: 100000000}\n`, 'g1.yaml');
  await t.notThrowsAsync(modelSweep(graph, given, 'bfs', { steps: 2, calibrate: { cacheFile: path.join(dir, 'c.json') } }));
});
