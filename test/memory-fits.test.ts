/**
 * Inputs whose size would not fit this machine are refused from what they declare (a header, a
 * spec, a .properties count) or what their size implies (a text edge list), before the work,
 * with the estimate, never ending in a heap crash.
 */
import test from 'ava';
import os from 'node:os';
import path from 'node:path';
import { cpSync, mkdtempSync, readFileSync, writeFileSync, openSync, ftruncateSync, closeSync } from 'node:fs';
import { loadGraph } from '../src/graph/load.js';
import { isTesseraError } from '../src/errors.js';
import { REPO_ROOT } from './helpers/paths.js';

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), 'tessera-fits-'));
// The cases declare far more than any machine these tests run on (tens of TiB).
const smallMachine = os.totalmem() < 2 ** 40 ? test : test.skip;

smallMachine('a generator spec whose graph would not fit is refused with its estimate before generating', async (t) => {
  const e = await t.throwsAsync(loadGraph('rmat:31:ef=64'));
  t.true(isTesseraError(e));
  t.regex(e!.message, /generator spec rmat:31:ef=64 makes 2147483648 vertices and 137438953472 edges: about [\d.]+ GiB, more than this machine's [\d.]+ GiB of memory/);
});

test('a Graphalytics .properties declaring counts beyond memory is refused naming its line, before the files are read', async (t) => {
  const dir = path.join(tmp(), 'huge');
  cpSync(path.join(REPO_ROOT, 'test/data/graphalytics/example-directed'), dir, { recursive: true });
  const props = path.join(dir, 'example-directed.properties');
  const text = readFileSync(props, 'utf8')
    .replace(/meta\.vertices = \d+/, 'meta.vertices = 4000000000')
    .replace(/meta\.edges = \d+/, 'meta.edges = 90000000000');
  writeFileSync(props, text);
  const e = await t.throwsAsync(loadGraph(dir));
  t.true(isTesseraError(e));
  t.regex(e!.message, /graph\.example-directed\.meta\.vertices\/meta\.edges declares 4000000000 vertices and 90000000000 edges: about [\d.]+ GiB/);
  t.regex(e!.message, /example-directed\.properties:\d+/, 'names the file and line');
});

// A sparse 128 GiB file is about 12 G edges: beyond any machine under 256 GiB.
const underQuarterTiB = os.totalmem() < 2 ** 38 ? test : test.skip;

underQuarterTiB("a text edge list's size, at its lines' mean length, is checked before reading it", async (t) => {
  const file = path.join(tmp(), 'huge.el');
  const lines: string[] = ['# comment lines are left out of the mean'];
  for (let i = 0; i < 20000; i++) lines.push(`${i} ${i + 1}`);
  writeFileSync(file, lines.join('\n') + '\n');
  // A sparse file of 128 GiB whose first 64 KiB are those lines: ~12 G edges at ~11 bytes a line.
  const fd = openSync(file, 'r+');
  ftruncateSync(fd, 2 ** 37);
  closeSync(fd);
  const e = await t.throwsAsync(loadGraph(file));
  t.true(isTesseraError(e));
  t.regex(e!.message, /at [\d.]+ bytes a line, this 128\.0 GiB edge list holds about \d+ edges \(and at most as many vertices\): about [\d.]+ GiB, more than this machine's/);
  t.true(e!.message.includes(file), 'names the file');
  // The same lines in a file of their own size load.
  const small = path.join(tmp(), 'small.el');
  writeFileSync(small, lines.join('\n') + '\n');
  const { graph } = await loadGraph(small);
  t.is(graph.numEdges, 20000);
});
