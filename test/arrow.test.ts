/**
 * Apache Arrow in and out: the three SNAP graphs as Arrow IPC files give the edge-list graphs (and
 * wiki-Vote, with Uint32, Int64 and whole Float64 id columns, the same results vertex for vertex); string columns give
 * a graph read by name; results come back as tables (values, names, parents) and as IPC files from
 * RunResult.write and `tessera run --out FILE.arrow`; bad tables are one clean error.
 */
import test from 'ava';
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { tableFromArrays, tableFromIPC, tableToIPC, vectorFromArray, Utf8, Table } from 'apache-arrow';
import { fromArrow, loadGraph, run, TesseraError, type Topology } from '../src/index.js';
import { isKeyedGraph } from '../src/graphology.js';
import { tempDir, tessera } from './helpers/cli.js';
import { SNAP } from './helpers/paths.js';

const ONE: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };

const wikiColumns = (): Promise<{ src: number[]; dst: number[] }> => snapColumns('wiki-Vote');

async function snapColumns(name: string): Promise<{ src: number[]; dst: number[] }> {
  const src: number[] = [];
  const dst: number[] = [];
  const rl = createInterface({ input: createReadStream(path.join(SNAP, `${name}.txt.gz`)).pipe(createGunzip()) });
  for await (const line of rl) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [a, b] = line.trim().split(/\s+/).map(Number);
    src.push(a!);
    dst.push(b!);
  }
  return { src, dst };
}

test('the SNAP graphs as Arrow (Uint32 ids): the edge-list graphs, vertex for vertex', async (t) => {
  const dir = await tempDir('arrow-snap');
  for (const name of ['wiki-Vote', 'soc-Epinions1', 'facebook_combined']) {
    const undirected = name.startsWith('facebook');
    const { src, dst } = await snapColumns(name);
    const f = path.join(dir, `${name}.arrow`);
    await writeFile(f, tableToIPC(tableFromArrays({ source: Uint32Array.from(src), target: Uint32Array.from(dst) }), 'file'));
    const a = (await loadGraph(f, { undirected })).graph;
    const b = (await loadGraph(path.join(SNAP, `${name}.txt.gz`), { undirected })).graph;
    t.is(a.numVertices, b.numVertices, name);
    t.is(a.numEdges, b.numEdges, name);
    t.deepEqual([...a.ids.toOriginal], [...b.ids.toOriginal], `${name}: the same vertices in the same order`);
    t.deepEqual([...a.outDegree], [...b.outDegree], `${name}: the same degrees`);
    const wa = await run(a, 'wcc', { topology: ONE });
    const wb = await run(b, 'wcc', { topology: ONE });
    t.deepEqual([...wa.values], [...wb.values], `${name}: wcc`);
  }
});

test('wiki-Vote as Arrow (Uint32, Int64, whole Float64 ids): the edge-list graph and its results', async (t) => {
  const dir = await tempDir('arrow');
  const { src, dst } = await wikiColumns();
  const byList = (await loadGraph(path.join(SNAP, 'wiki-Vote.txt.gz'))).graph;
  const tables: Array<[string, Table]> = [
    ['u32', tableFromArrays({ source: Uint32Array.from(src), target: Uint32Array.from(dst) })],
    ['i64', tableFromArrays({ from: BigInt64Array.from(src, BigInt), to: BigInt64Array.from(dst, BigInt) })],
    ['f64', tableFromArrays({ a: Float64Array.from(src), b: Float64Array.from(dst) })],
  ];
  const bfs = await run(byList, 'bfs', { source: 30, topology: ONE });
  const pr = await run(byList, 'pr', { topology: ONE });
  for (const [label, table] of tables) {
    const f = path.join(dir, `wiki-${label}.arrow`);
    await writeFile(f, tableToIPC(table, 'file'));
    const g = (await loadGraph(f)).graph;
    t.false(isKeyedGraph(g));
    t.is(g.numEdges, byList.numEdges, label);
    t.is(g.numVertices, byList.numVertices, label);
    const b = await run(g, 'bfs', { source: 30, topology: ONE });
    const p = await run(g, 'pr', { topology: ONE });
    t.deepEqual([...b.entries()], [...bfs.entries()], `${label}: bfs`);
    // Ranks: the same to the last bits but for the order of additions (ties in the degree order).
    const want = new Map(pr.entries());
    t.true([...p.entries()].every(([v, x]) => Math.abs(x - want.get(v)!) <= 1e-12 * x), `${label}: pr`);
  }
});

test('string columns: a graph read by name; results as tables and IPC files', async (t) => {
  const table = new Table({
    src: vectorFromArray(['alice', 'bob', 'alice', 'New York'], new Utf8()),
    dst: vectorFromArray(['bob', 'carol', 'carol', 'alice'], new Utf8()),
    weight: vectorFromArray(Float64Array.from([2, 1, 5, 1.5])),
  });
  const g = fromArrow(table);
  t.true(isKeyedGraph(g));
  const sp = await run(g, 'sssp', { source: 'alice', topology: ONE });
  const out = await sp.toArrow({ parents: true });
  t.deepEqual(out.schema.fields.map((f) => f.name), ['name', 'value', 'parent']);
  t.deepEqual(out.getChild('name')!.toArray(), ['alice', 'bob', 'carol', 'New York']);
  t.deepEqual([...out.getChild('value')!.toArray()], [0, 2, 3, Infinity]);
  t.deepEqual([...out.getChild('parent')!].map((x) => x), ['alice', 'alice', 'bob', null]);
  const dir = await tempDir('arrow-out');
  const f = path.join(dir, 'sp.arrow');
  await sp.write(f);
  const back = tableFromIPC(await readFile(f));
  t.deepEqual([...back.getChild('value')!.toArray()], [0, 2, 3, Infinity]);
});

test('tessera run --out FILE.arrow; integer results carry ids and Int32 depths', async (t) => {
  const dir = await tempDir('arrow-cli');
  const f = path.join(dir, 'bfs.arrow');
  const r = await tessera(['run', '--algo', 'bfs', '--graph', 'rmat:8', '--source', '0', '--parents', '--out', f, '--topology', 'configs/1S.yaml', '-q']);
  t.is(r.code, 0, r.stderr);
  const table = tableFromIPC(await readFile(f));
  t.deepEqual(table.schema.fields.map((x) => x.name), ['id', 'value', 'parent']);
  t.is(String(table.getChild('value')!.type), 'Int32');
  const ids = table.getChild('id')!.toArray() as Uint32Array;
  const depth = table.getChild('value')!.toArray() as Int32Array;
  const parent = table.getChild('parent')!.toArray() as Float64Array;
  const at = new Map([...ids].map((v, i) => [v, i]));
  t.is(depth[at.get(0)!], 0);
  for (let i = 0; i < ids.length; i++) if (depth[i]! > 0) t.is(depth[at.get(parent[i]!)!]!, depth[i]! - 1);
});

test('bad tables: one error naming the column and row', async (t) => {
  const dir = await tempDir('arrow-bad');
  const cases: Array<[Table, RegExp]> = [
    [tableFromArrays({ only: Uint32Array.from([1, 2]) }), /needs a source and a target column/],
    [tableFromArrays({ source: Float64Array.from([1, 2.5]), target: Float64Array.from([2, 3]) }), /column 'source', row 1: id 2.5 is not an integer/],
    [tableFromArrays({ source: Float64Array.from([1, -2]), target: Float64Array.from([2, 3]) }), /row 1: id -2/],
    [new Table({ source: vectorFromArray(['a', 'b'], new Utf8()), target: vectorFromArray(Uint32Array.from([2, 3])) }), /mix strings and numbers/],
    [tableFromArrays({ source: Uint32Array.from([1, 2]), target: Uint32Array.from([2, 3]), weight: Float64Array.from([1, NaN]) }), /column 'weight', row 1: weight NaN/],
  ];
  for (const [table, re] of cases) {
    const f = path.join(dir, 'bad.arrow');
    await writeFile(f, tableToIPC(table, 'file'));
    const e = await t.throwsAsync(loadGraph(f), { instanceOf: TesseraError });
    t.regex(e!.message, re);
    t.regex(e!.message, /bad\.arrow/);
  }
  const notArrow = path.join(dir, 'text.arrow');
  await writeFile(notArrow, '1 2\n');
  const e = await t.throwsAsync(loadGraph(notArrow), { instanceOf: TesseraError });
  t.regex(e!.message, /not an Arrow IPC file/);
});

test('fromArrow takes a Table: anything else, and options of the wrong type or name, are one-line TesseraErrors', (t) => {
  const table = tableFromArrays({ source: Uint32Array.from([0, 1]), target: Uint32Array.from([1, 2]) });
  const cases: Array<[() => unknown, RegExp]> = [
    [() => fromArrow({} as never), /fromArrow takes an apache-arrow Table of edges, got an object/],
    [() => fromArrow(null as never), /fromArrow takes an apache-arrow Table of edges, got null/],
    [() => fromArrow(tableToIPC(table) as never), /got bytes \(Arrow IPC\?\).*Fix: decode them first: fromArrow\(tableFromIPC\(bytes\)\)/],
    [() => fromArrow(table, { sourc: 'source' } as never), /fromArrow options: unknown option 'sourc'.*did you mean 'source'\?/],
    [() => fromArrow(table, { directed: 'no' } as never), /directed must be true or false/],
    [() => fromArrow(table, { weight: 3 } as never), /weight must be a non-empty string/],
    [() => fromArrow(table, null as never), /fromArrow options must be an object, got null/],
  ];
  for (const [f, re] of cases) {
    const e = t.throws(f, { instanceOf: TesseraError });
    t.regex(e!.message, re);
    t.false(e!.message.includes('\n'));
  }
  t.is(fromArrow(tableFromIPC(tableToIPC(table)), { weight: null, directed: false, pageEdges: 4 }).numEdges, 4);
});
