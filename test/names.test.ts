/**
 * Edge lists with names (readers/named.ts): CSV / TSV / whitespace files with string ids, quoted
 * fields and a header, read into a graph used by name (sources, results, output files); headers
 * over integer ids; detection and its --names / --header overrides; one-line errors naming the
 * file and line; and wiki-Vote written with names giving, vertex for vertex, the values of the
 * integer edge list.
 */
import test from 'ava';
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { loadGraph, run, TesseraError, type Topology } from '../src/index.js';
import { isKeyedGraph } from '../src/graphology.js';
import { sniffEdgeList, splitFields } from '../src/graph/readers/named.js';
import { tempDir, tessera } from './helpers/cli.js';
import { SNAP } from './helpers/paths.js';

const ONE: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const PEOPLE = ['source,target,weight', 'alice,bob,2', 'bob,carol,1', 'alice,carol,5', '"New York",alice,1.5', 'carol,"say ""hi""",1', ''].join('\n');

async function file(name: string, text: string): Promise<string> {
  const f = path.join(await tempDir('names'), name);
  await writeFile(f, text);
  return f;
}

test('fields: quotes, doubled quotes, spaces, tabs', (t) => {
  t.deepEqual(splitFields('a, "b c" ,"d ""e"""', ','), ['a', 'b c', 'd "e"']);
  t.deepEqual(splitFields('x\ty z\t1', '\t'), ['x', 'y z', '1']);
  t.deepEqual(splitFields('  p   q 3 ', ' '), ['p', 'q', '3']);
  t.is(splitFields('"open,b', ','), undefined);
});

test('detection: names or integers, header or not', async (t) => {
  t.deepEqual(await sniffEdgeList(await file('a.csv', PEOPLE)), { delimiter: ',', header: true, names: true });
  t.deepEqual(await sniffEdgeList(await file('b.txt', 'ann bob\nbob cy\n')), { delimiter: ' ', header: false, names: true });
  t.deepEqual(await sniffEdgeList(await file('c.tsv', 'src\tdst\n1\t2\n')), { delimiter: '\t', header: true, names: false });
  t.deepEqual(await sniffEdgeList(await file('d.txt', '# c\n1 2\n2 3\n')), { delimiter: ' ', header: false, names: false });
  // A typo on the first line of an integer list is an error there, not a header or names.
  t.deepEqual(await sniffEdgeList(await file('t.txt', '1 2x\n2 3\n')), { delimiter: ' ', header: false, names: false });
  await t.throwsAsync(loadGraph(await file('t.txt', '1 2x\n2 3\n')), { message: /t\.txt:1: '2x' is not a vertex id/ });
  t.deepEqual(await sniffEdgeList(await file('e.txt', 'ann,bob,x\ncy,dee,1\n')), { delimiter: ',', header: true, names: true });
  t.deepEqual(await sniffEdgeList(await file('f.csv', 'ann,bob,1\ncy,dee,1\n')), { delimiter: ',', header: false, names: true });
  t.deepEqual(await sniffEdgeList(await file('g.txt', 'ann,bob\ncy,dee\n')), { delimiter: ',', header: false, names: true });
  t.deepEqual(await sniffEdgeList(await file('h.csv', 'voter,candidate\nv1,v2\n')), { delimiter: ',', header: true, names: true });
});

test('a CSV with names: read, run and written by name (library)', async (t) => {
  const f = await file('people.csv', PEOPLE);
  const { graph } = await loadGraph(f);
  t.true(isKeyedGraph(graph));
  if (!isKeyedGraph(graph)) return;
  t.deepEqual([...graph.keys], ['alice', 'bob', 'carol', 'New York', 'say "hi"']);
  t.is(graph.numEdges, 5);
  const sp = await run(graph, 'sssp', { source: 'alice', topology: ONE });
  t.is(sp.get('carol'), 3);
  t.deepEqual(sp.pathTo('say "hi"'), ['alice', 'bob', 'carol', 'say "hi"']);
  t.is(sp.get('New York'), Infinity);
  const out = path.join(path.dirname(f), 'sp.txt');
  await sp.write(out);
  t.is(await readFile(out, 'utf8'), 'alice 0\nbob 2\ncarol 3\n"New York" infinity\n"say ""hi""" 4\n');
  const c = await run(graph, 'scc', { topology: ONE });
  t.is(c.kind, 'label');
});

test('tessera run on names: --source by name, labels and parents by name', async (t) => {
  const f = await file('people.csv', PEOPLE);
  const r = await tessera(['run', '--algo', 'bfs', '--graph', f, '--source', 'New York', '--parents', '--out', '-', '--topology', 'configs/1S.yaml', '-q']);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, 'alice 1 "New York"\nbob 2 alice\ncarol 2 alice\n"New York" 0 "New York"\n"say ""hi""" 3 carol\n');
  const w = await file('w.txt', 'a b\nb c\nc a\nd e\n');
  const s = await tessera(['run', '--algo', 'wcc', '--graph', w, '--out', '-', '--topology', 'configs/1S.yaml', '-q']);
  t.is(s.stdout, 'a a\nb a\nc a\nd d\ne d\n');
  const missing = await tessera(['run', '--algo', 'bfs', '--graph', f, '--source', 'zed', '--out', '-', '--topology', 'configs/1S.yaml']);
  t.is(missing.code, 1);
  t.regex(missing.stderr, /'zed' is not/);
});

test('integer literals are integer ids whichever line is bad: negative or too large ids are errors, never names', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['n1.txt', '-5 0\n1 2\n', /n1\.txt:1: '-5' is a negative vertex id/],
    ['n2.txt', '-5 0\n-1 2\n', /n2\.txt:1: '-5' is a negative vertex id/],
    ['n3.txt', '0 1\n-1 2\n', /n3\.txt:2: '-1' is a negative vertex id/],
    ['l1.txt', '0 1\n4294967296 2\n', /l1\.txt:2: vertex id 4294967296 is larger than 4294967294/],
    ['l2.txt', '4294967296 1\n4294967297 2\n', /l2\.txt:1: vertex id 4294967296 is larger than 4294967294/],
    ['h.txt', 'src dst\n-1 2\n', /h\.txt:2: vertex id '-1' is not an integer/],
  ];
  for (const [name, text, re] of cases) {
    const f = await file(name, text);
    t.false((await sniffEdgeList(f)).names, name);
    const e = await t.throwsAsync(loadGraph(f), { instanceOf: TesseraError });
    t.regex(e!.message, re);
  }
  // A token that is not an integer still means names.
  t.true((await sniffEdgeList(await file('m.txt', '-5x 0\n-1y 2\n'))).names);
});

test('a header over integer ids; --names and --no-names, --header and --no-header', async (t) => {
  const tsv = await file('h.tsv', 'src\tdst\n1\t2\n2\t3\n');
  const { graph } = await loadGraph(tsv);
  t.false(isKeyedGraph(graph));
  t.is(graph.numEdges, 2);
  // Integers read as names: "1", "2", "3" in order of appearance.
  const named = (await loadGraph(tsv, { names: true })).graph;
  t.true(isKeyedGraph(named) && named.keys.join() === '1,2,3');
  // No header: the first line is an edge between the names src and dst.
  const noHeader = (await loadGraph(tsv, { names: true, header: false })).graph;
  t.true(isKeyedGraph(noHeader) && noHeader.keys.join() === 'src,dst,1,2,3');
  const e = await t.throwsAsync(loadGraph(await file('n.csv', 'ann,bob\ncy,dee\n'), { names: false, header: false }), { instanceOf: TesseraError });
  t.regex(e!.message, /n\.csv:1/);
});

test('bad lines: one error naming the file and line', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['a,b,1\nc,"d,2\n', /:2.*quoted field is not closed/],
    ['a,b,1\nc\n', /:2.*needs a source and a target/],
    ['a,b,1\nc,d,x\n', /:2.*weight 'x' is not a finite number/],
    ['a,b,1\nc,d,-2\n', /:2.*negative weight/],
  ];
  for (const [text, re] of cases) {
    const f = await file('bad.csv', text);
    const e = await t.throwsAsync(loadGraph(f), { instanceOf: TesseraError });
    t.regex(e!.message, re);
    const r = await tessera(['run', '--algo', 'bfs', '--graph', f, '--source', 'a', '--topology', 'configs/1S.yaml']);
    t.is(r.code, 1);
    t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('wiki-Vote with names ("v<id>", a header, commas) gives the integer edge list values, vertex for vertex', async (t) => {
  const lines = ['voter,candidate'];
  const rl = createInterface({ input: createReadStream(path.join(SNAP, 'wiki-Vote.txt.gz')).pipe(createGunzip()) });
  for await (const line of rl) if (!line.startsWith('#') && line.trim() !== '') lines.push(line.trim().split(/\s+/).map((x) => `v${x}`).join(','));
  const csv = await file('wiki.csv', lines.join('\n') + '\n');
  const byId = (await loadGraph(path.join(SNAP, 'wiki-Vote.txt.gz'))).graph;
  const byName = (await loadGraph(csv)).graph;
  t.is(byName.numEdges, byId.numEdges);
  t.is(byName.numVertices, byId.numVertices);
  const src = 30;
  for (const algo of ['bfs', 'pr', 'wcc'] as const) {
    const a = await run(byId, algo, { topology: ONE, ...(algo === 'bfs' ? { source: src } : {}) });
    const b = await run(byName as never, algo as never, { topology: ONE, ...(algo === 'bfs' ? { source: `v${src}` } : {}) } as never);
    let bad = 0;
    for (const [v, x] of a.entries()) {
      const y = (b as unknown as { get(k: string): number }).get(`v${v}`);
      const same = algo === 'pr' ? Math.abs(x - y) <= 1e-12 * Math.max(x, 1e-300) : algo === 'wcc' ? (byName as unknown as { keys: string[] }).keys[y] !== undefined : x === y;
      if (!same) bad++;
    }
    t.is(bad, 0, algo);
  }
});
