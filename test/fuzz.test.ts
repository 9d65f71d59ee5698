/**
 * Bad input never gives a stack trace or a wrong graph (fast-check): random and mutated text fed
 * to the edge-list readers (integer ids, names, CSV quoting), Matrix Market, Graphalytics datasets
 * (.properties, .v, .e), topology and bench-config YAML, and mutated bytes of a .tsr, either load or fail with a TesseraError naming the file (and, for text,
 * its line) and a fix. Integer edge lists that load hold exactly the edges an independent parse
 * of the same text finds.
 */
import test from 'ava';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate, loadGraph, parseTopology, TesseraError } from '../src/index.js';
import { writeTsr } from '../src/graph/tsr.js';
import { parseBenchConfig } from '../src/bench/config.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-fuzz-'));
let seq = 0;
const fileWith = (ext: string, data: string | Uint8Array): string => {
  const f = path.join(dir, `in${seq++}${ext}`);
  writeFileSync(f, data);
  return f;
};

/** The error is ours, one line, names the file and has a fix. */
function clean(t: { true(c: boolean, m?: string): void }, e: unknown, file: string): void {
  t.true(e instanceof TesseraError, `not a TesseraError: ${String((e as Error)?.stack ?? e)}`);
  const m = (e as Error).message;
  t.true(m.includes(path.basename(file)) && m.includes('Fix:') && !m.includes('\n'), m);
}

const token = fc.oneof(
  fc.constantFrom('1', '0', '42', '4294967295', '-3', '1.5', 'nan', 'inf', 'alice', '"bob"', '"a,b"', '"', '""', '#x', '%', ',', '\t', ' ', '1e3', '', 'é'),
  fc.string({ maxLength: 6 }),
);
const line = fc.array(token, { maxLength: 5 }).map((ts) => ts.join(fc.sample(fc.constantFrom(' ', ',', '\t'), 1)[0]!));
const text = fc.array(line, { minLength: 1, maxLength: 12 }).map((ls) => ls.join('\n') + '\n');

test('edge lists (integers, names, CSV): load, or one clean error', async (t) => {
  await fc.assert(
    fc.asyncProperty(text, fc.constantFrom('.txt', '.csv', '.tsv'), async (s, ext) => {
      const f = fileWith(ext, s);
      try {
        const { graph } = await loadGraph(f);
        t.true(graph.numVertices >= 0);
      } catch (e) {
        clean(t, e, f);
      }
    }),
    { numRuns: 300 },
  );
});

test('integer edge lists that load hold exactly the edges the lines say', async (t) => {
  const edge = fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }));
  await fc.assert(
    fc.asyncProperty(fc.array(edge, { minLength: 1, maxLength: 40 }), fc.constantFrom(' ', '\t', ','), async (es, sep) => {
      const f = fileWith('.txt', '# comment\n' + es.map(([a, b]) => `${a}${sep}${b}`).join('\n') + '\n');
      const { graph } = await loadGraph(f);
      const want = new Set(es.filter(([a, b]) => a !== b).map(([a, b]) => `${a} ${b}`));
      const got = new Set<string>();
      const o = graph.ids.toOriginal;
      for (const p of graph.out.pages)
        for (let v = p.vBegin; v < p.vEnd; v++) {
          const [lo, hi] = p.split ? [0, p.edges] : [p.offsets[v - p.vBegin]!, p.offsets[v - p.vBegin + 1]!];
          for (let e = lo; e < hi; e++) got.add(`${o[v]} ${o[p.nbrs[e]!]}`);
        }
      t.deepEqual([...got].sort(), [...want].sort());
    }),
    { numRuns: 100 },
  );
});

test('Matrix Market: load, or one clean error', async (t) => {
  const header = fc.constantFrom('%%MatrixMarket matrix coordinate real general\n', '%%MatrixMarket matrix coordinate pattern symmetric\n', '%%MatrixMarket matrix array real general\n', '');
  const size = fc.constantFrom('3 3 2\n', '3 3\n', 'x y z\n', '2 2 99999999999\n', '');
  await fc.assert(
    fc.asyncProperty(header, size, text, async (h, sz, body) => {
      const f = fileWith('.mtx', h + sz + body);
      try {
        await loadGraph(f);
      } catch (e) {
        clean(t, e, f);
      }
    }),
    { numRuns: 150 },
  );
});

test('topology YAML: parses, or one clean error', (t) => {
  const yamlLine = fc.oneof(
    fc.constantFrom('name: t', 'sockets:', '  - id: 0', '    threads: 2', '    threads: -1', '    threads: auto', 'gpus:', '  - device: 0', '    emulated: true', '    memoryLimit: 1GiB', '    memoryLimit: lots', 'interconnect:', '  bandwidth: 25GB/s', 'a: &x [*x]', '- - -', ':', '{'),
    fc.string({ maxLength: 10 }),
  );
  fc.assert(
    fc.property(fc.array(yamlLine, { maxLength: 10 }), (ls) => {
      try {
        parseTopology(ls.join('\n'), 'fuzz.yaml');
      } catch (e) {
        clean(t, e, 'fuzz.yaml');
      }
    }),
    { numRuns: 300 },
  );
});

test('a .tsr with bytes changed, cut or appended: loads the same graph, or one clean error', async (t) => {
  const good = path.join(dir, 'good.tsr');
  await writeTsr(generate('rmat:8:ef=4:weighted', { pageEdges: 128 }), good);
  const bytes = new Uint8Array(readFileSync(good));
  const orig = (await loadGraph(good)).graph;
  const digest = (g: typeof orig): string => {
    let w = 0;
    let e = 0;
    for (const p of g.out.pages) for (let i = 0; i < p.edges; i++) (e += g.ids.toOriginal[p.nbrs[i]!]! * (i + 1)), (w += p.weights?.[i] ?? 0);
    return `${g.numVertices} ${g.numEdges} ${e} ${w}`;
  };
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }), fc.nat(bytes.length), async (flips, cut) => {
      const b = bytes.slice(0, Math.max(1, cut));
      for (const [i, x] of flips) if (i < b.length) b[i] = x;
      const f = fileWith('.tsr', b);
      try {
        const { graph } = await loadGraph(f);
        t.is(digest(graph), digest(orig), 'a .tsr that loads is the graph written');
      } catch (e) {
        clean(t, e, f);
      }
    }),
    { numRuns: 150 },
  );
});

test('a properties value with an escaped line break is quoted on the error\'s one line (a case fast-check found)', async (t) => {
  const d = path.join(dir, 'ga-escaped');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(d);
  writeFileSync(path.join(d, 'g.properties'), 'graph.g.meta.vertices = F\\n"UYm,\n');
  writeFileSync(path.join(d, 'g.v'), '1\n');
  writeFileSync(path.join(d, 'g.e'), '');
  const err = await t.throwsAsync(loadGraph(d));
  t.true(err instanceof TesseraError);
  t.is(err!.message.split('\n').length, 1, err!.message);
  t.regex(err!.message, /g\.properties:1: 'F\\n"UYm,' is not a non-negative integer .*Fix: set graph\.g\.meta\.vertices/);
});

test('Graphalytics datasets (.properties, .v, .e mutated): load, or one clean error', async (t) => {
  const propLine = fc.oneof(
    fc.constantFrom(
      'graph.g.vertex-file = g.v',
      'graph.g.edge-file = g.e',
      'graph.g.edge-file = ../../etc/passwd',
      'graph.g.meta.vertices = 3',
      'graph.g.meta.vertices = 4000000000',
      'graph.g.meta.edges = 2',
      'graph.g.meta.edges = x',
      'graph.g.directed = true',
      'graph.g.directed = maybe',
      'graph.g.edge-properties.names = weight',
      'graph.g.edge-properties.types = real',
      'graph.g.edge-properties.types = real, int',
      'graph.g.bfs.source-vertex = 1',
      'graph.g.bfs.source-vertex = 99',
      'graph.g.pr.num-iterations = -1',
      'graph.other.meta.vertices = 3',
      '# comment',
      'graph.g.meta.vertices \\',
      '=',
    ),
    fc.string({ maxLength: 12 }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(propLine, { maxLength: 8 }), text, text, async (props, v, e) => {
      const d = path.join(dir, `ga${seq++}`);
      const { mkdirSync } = await import('node:fs');
      mkdirSync(d);
      writeFileSync(path.join(d, 'g.properties'), props.join('\n') + '\n');
      writeFileSync(path.join(d, 'g.v'), v);
      writeFileSync(path.join(d, 'g.e'), e);
      try {
        const { graph } = await loadGraph(d);
        t.true(graph.numVertices >= 0);
      } catch (err) {
        t.true(err instanceof TesseraError, `not a TesseraError: ${String((err as Error)?.stack ?? err)}`);
        const m = (err as Error).message;
        t.true(m.includes('Fix:') && !m.includes('\n') && !m.includes('root:'), m);
      }
    }),
    { numRuns: 150 },
  );
});

test('bench config YAML: parses, or one clean error', (t) => {
  const yamlLine = fc.oneof(
    fc.constantFrom(
      'name: x',
      'repetitions: 3',
      'repetitions: -2',
      'warmup: 1',
      'cellTimeout: 0',
      'graphs:',
      '  - rmat: [8, 10]',
      '  - rmat: 99',
      '    weighted: true',
      '  - file: g.el',
      'topologies:',
      '  - ../configs/1S.yaml',
      'programs:',
      '  - bfs',
      '  - pr: { iterations: 10 }',
      '  - nope',
      'alphas: [0.5, 2]',
      'peers:',
      '  graphology:',
      'a: &x [*x]',
      '- - -',
      '{',
    ),
    fc.string({ maxLength: 10 }),
  );
  fc.assert(
    fc.property(fc.array(yamlLine, { maxLength: 12 }), (ls) => {
      try {
        parseBenchConfig(ls.join('\n'), path.join(dir, 'bench.yaml'));
      } catch (e) {
        clean(t, e, 'bench.yaml');
      }
    }),
    { numRuns: 300 },
  );
});
