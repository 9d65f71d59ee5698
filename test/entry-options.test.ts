/**
 * The graph entry points' arguments (loadGraph, generate, fromGraphology, fromArrow, buildGraph):
 * a wrong type, an unknown key or an option that cannot apply is one TesseraError naming it, never
 * a raw TypeError or an option silently ignored; what the types and docs say is accepted.
 */
import test, { type ExecutionContext } from 'ava';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadGraph, TesseraError } from '../src/index.js';
import { writeTsr } from '../src/graph/tsr.js';
import { tempDir } from './helpers/cli.js';

/** The call fails with one TesseraError line matching `re`. */
async function refused(t: ExecutionContext, f: () => unknown, re: RegExp): Promise<void> {
  const e = await t.throwsAsync(async () => f(), { instanceOf: TesseraError });
  t.regex(e!.message, re);
  t.false(e!.message.includes('\n'));
}

test('loadGraph: a .tsr refuses renumber, names: true and header: true instead of ignoring them', async (t) => {
  const dir = await tempDir('entry');
  const tsr = path.join(dir, 'g.tsr');
  await writeTsr((await loadGraph('rmat:4')).graph, tsr);
  await refused(t, () => loadGraph(tsr, { renumber: 'none' }), /g\.tsr: renumber does not apply here: the vertices of a \.tsr were numbered when it was converted.*Fix: /);
  await refused(t, () => loadGraph(tsr, { renumber: 'degree' }), /renumber does not apply here/);
  await refused(t, () => loadGraph(tsr, { names: true }), /g\.tsr: --names does not apply here: a \.tsr stores integer ids only/);
  await refused(t, () => loadGraph(tsr, { header: true }), /--header does not apply here/);
  t.is((await loadGraph(tsr, { names: false, header: false })).graph.numVertices, 16);
  // The other sources that have no names or header refuse them too.
  await refused(t, () => loadGraph('rmat:4', { names: true }), /rmat:4: --names does not apply here: a generated graph/);
  const mtx = path.join(dir, 'g.mtx');
  await writeFile(mtx, '%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n');
  await refused(t, () => loadGraph(mtx, { header: true }), /g\.mtx: --header does not apply here: a Matrix Market graph/);
});

test('loadGraph: option types, unknown keys and the arguments themselves are checked', async (t) => {
  await refused(t, () => loadGraph('rmat:4', { hostMemoryLimit: '8GiB' as unknown as number }), /hostMemoryLimit must be a number of bytes > 0, got a string \('8GiB'\).*Fix: give bytes, e\.g\. 8 \* 2 \*\* 30/);
  await refused(t, () => loadGraph('rmat:4', { hostMemoryLimit: NaN }), /hostMemoryLimit must be a number of bytes > 0, got NaN/);
  await refused(t, () => loadGraph('rmat:4', { hostMemoryLimit: -1 }), /hostMemoryLimit must be/);
  await refused(t, () => loadGraph('rmat:4', { undirectd: true } as never), /unknown option 'undirectd'.*did you mean 'undirected'\?/);
  await refused(t, () => loadGraph('rmat:4', { renumber: 'bogus' as never }), /renumber must be 'degree' or 'none', got a string \('bogus'\)/);
  await refused(t, () => loadGraph('rmat:4', { undirected: 'yes' as never }), /undirected must be true or false/);
  await refused(t, () => loadGraph('rmat:4', { pageEdges: 0 }), /pageEdges must be an integer from 1/);
  await refused(t, () => loadGraph(null as never), /loadGraph needs a graph: a file path or a generator spec, got null/);
  await refused(t, () => loadGraph('rmat:4', null as never), /loadGraph options must be an object, got null/);
  // What the types say is taken.
  const { graph } = await loadGraph('rmat:4', { undirected: true, renumber: 'none', pageEdges: 8, hostMemoryLimit: 8 * 2 ** 30, allowNegativeWeights: false, names: false, header: false, vertices: undefined });
  t.false(graph.directed);
  t.is(graph.pageEdges, 8);
});
