import test from 'ava';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TesseraError } from '../src/errors.js';
import type { U32List } from '../src/graph/chunked.js';
import {
  BLOCK,
  BitPermutation,
  Xoshiro128,
  createGenerator,
  forEachBlock,
  formatGeneratorSpec,
  generateEdges,
  generateToEdgeList,
  isGeneratorSpec,
  parseGeneratorSpec,
  rmatAliasTable,
} from '../src/graph/generate/index.js';

function toArray(l: U32List): Uint32Array {
  const a = new Uint32Array(l.length);
  l.forEachChunk((c, k, base) => a.set(c.subarray(0, k), base));
  return a;
}

function equal(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function degrees(ids: Uint32Array, n: number): Uint32Array {
  const d = new Uint32Array(n);
  for (const x of ids) d[x]!++;
  return d;
}

// ---------------------------------------------------------------------------------------------
// specs

test('parseGeneratorSpec: defaults and options', (t) => {
  t.deepEqual(parseGeneratorSpec('rmat:20'), { kind: 'rmat', scale: 20, edgeFactor: 16, seed: 1, weighted: false });
  t.deepEqual(parseGeneratorSpec('uniform:18'), { kind: 'uniform', scale: 18, edgeFactor: 16, seed: 1, weighted: false });
  t.deepEqual(parseGeneratorSpec('rmat:20:ef=8:seed=3'), { kind: 'rmat', scale: 20, edgeFactor: 8, seed: 3, weighted: false });
  t.like(parseGeneratorSpec('rmat:10:weighted:edge-factor=4'), { weighted: true, edgeFactor: 4 });
  t.like(parseGeneratorSpec('kron:10:w=false'), { kind: 'rmat', weighted: false });
  t.like(parseGeneratorSpec('rmat:10:a=0.45:b=0.15:c=0.15'), { a: 0.45, b: 0.15, c: 0.15 });
  t.is(formatGeneratorSpec(parseGeneratorSpec(' rmat:20:seed=3:ef=8 ')), 'rmat:20:ef=8:seed=3');
  t.true(isGeneratorSpec('rmat:20'));
  t.true(isGeneratorSpec('uniform:3'));
  t.false(isGeneratorSpec('graphs/rmat-20.el'));
  t.false(isGeneratorSpec('C:\\graphs\\g.el'));
});

test('parseGeneratorSpec: bad specs are TesseraErrors that name the spec', (t) => {
  const bad = [
    'rmat',
    'rmat:',
    'rmat:x',
    'rmat:0',
    'rmat:32',
    'rmat:20:ef=0',
    'rmat:20:ef=abc',
    'rmat:20:seed=-1',
    'rmat:20:bogus=1',
    'rmat:20:a=0.9:b=0.1:c=0.1',
    'uniform:10:a=0.5',
    'rmat:20::seed=1',
    'rmat:20:seed=1:seed=2',
    'smallworld:10',
  ];
  for (const s of bad) {
    const e = t.throws(() => parseGeneratorSpec(s), { instanceOf: TesseraError }, s);
    t.true(e!.message.includes(`'${s}'`), e!.message);
    t.true(e!.message.includes('Fix:'), e!.message);
  }
});

// ---------------------------------------------------------------------------------------------
// determinism and counts

for (const kind of ['rmat', 'uniform'] as const) {
  test(`${kind}: same seed gives identical edges, another seed differs`, (t) => {
    const a = generateEdges(`${kind}:12`);
    const b = generateEdges(`${kind}:12`);
    const c = generateEdges(`${kind}:12:seed=2`);
    t.true(equal(toArray(a.src), toArray(b.src)));
    t.true(equal(toArray(a.dst), toArray(b.dst)));
    t.false(equal(toArray(a.src), toArray(c.src)));
    t.false(equal(toArray(a.dst), toArray(c.dst)));
    t.true(a.directed);
    t.is(a.source, `${kind}:12:ef=16:seed=1`);
  });

  test(`${kind}: edge counts and id range`, (t) => {
    const r = generateEdges(`${kind}:12`);
    t.is(r.src.length, 4096 * 16);
    t.is(r.dst.length, 4096 * 16);
    t.is(r.weights, undefined);
    for (const scale of [1, 2, 3, 5, 7, 9, 12, 13]) {
      const g = generateEdges(`${kind}:${scale}:ef=5`);
      t.is(g.src.length, 5 * 2 ** scale);
      const lim = 2 ** scale;
      let max = 0;
      for (const l of [g.src, g.dst]) l.forEachChunk((ch, k) => { for (let i = 0; i < k; i++) max = Math.max(max, ch[i]!); });
      t.true(max < lim, `scale ${scale}: id ${max} >= ${lim}`);
      if (scale >= 5) t.true(max >= lim / 2, `scale ${scale}: ids do not reach the top half`);
    }
  });
}

test('blocks: the result does not depend on how the work is cut; lists stay appendable', (t) => {
  // 2^17 * 12 edges = 1.5 blocks: a full chunk then a partial one.
  const spec = 'rmat:17:ef=12:seed=9';
  const r = generateEdges(spec);
  t.is(r.src.length, 12 * 2 ** 17);
  t.is(r.src.chunks.length, 2);
  const src = toArray(r.src);
  const dst = toArray(r.dst);
  let at = 0;
  forEachBlock(spec, (s, d, _w, k, first) => {
    t.is(first, at);
    t.true(equal(s.subarray(0, k), src.subarray(at, at + k)));
    t.true(equal(d.subarray(0, k), dst.subarray(at, at + k)));
    at += k;
  });
  t.is(at, src.length);
  // One block alone equals the same slice of the whole.
  const g = createGenerator(spec);
  const s1 = new Uint32Array(BLOCK);
  const d1 = new Uint32Array(BLOCK);
  const k = g.fill(1, s1, d1);
  t.is(k, 12 * 2 ** 17 - BLOCK);
  t.true(equal(s1.subarray(0, k), src.subarray(BLOCK)));
  r.src.push(7);
  t.is(r.src.get(r.src.length - 1), 7);
  t.is(r.src.get(BLOCK + 5), src[BLOCK + 5]);
});

test('xoshiro128** gives the C reference implementation\'s outputs (published test vectors)', (t) => {
  // Seed state and the first four xoshiro128** outputs of prng.di.unimi.it/xoshiro128starstar.c,
  // as published with edorfaus/xoshiro-6502 (test-rom/testdata.asm, VerifyValuesXoshiro128, starstar).
  const x = Xoshiro128.fromState([0x964d4a0c, 0xd40ab895, 0xad7fdecb, 0x3006f0f0]);
  t.deepEqual([x.nextU32(), x.nextU32(), x.nextU32(), x.nextU32()], [0xf1391922, 0x6fe53806, 0xa5be2840, 0xf510ee70]);
});

test('uniform: matches the reference xoshiro128** stream (top bits of each draw)', (t) => {
  const r = generateEdges('uniform:10:ef=1:seed=42');
  const x = new Xoshiro128(42, 0);
  for (let i = 0; i < 1024; i++) {
    t.is(r.src.get(i), x.nextU32() >>> 22);
    t.is(r.dst.get(i), x.nextU32() >>> 22);
  }
});

// ---------------------------------------------------------------------------------------------
// distribution

test('rmat: degrees are skewed, uniform ones are not', (t) => {
  const n = 2 ** 14;
  const stats = (spec: string): { max: number; mean: number } => {
    const r = generateEdges(spec);
    const d = degrees(toArray(r.src), n);
    let max = 0;
    for (const x of d) max = Math.max(max, x);
    return { max, mean: r.src.length / n };
  };
  const rm = stats('rmat:14');
  const un = stats('uniform:14');
  t.true(rm.max > 50 * rm.mean, `rmat max ${rm.max} vs mean ${rm.mean}`);
  t.true(un.max < 3 * un.mean, `uniform max ${un.max} vs mean ${un.mean}`);
});

test('rmat: every level picks quadrants with probabilities a, b, c, d', (t) => {
  // No scramble, so bit (scale-1-l) of src/dst is level l's choice. Scale 13 = 5 + 5 + 3 levels:
  // both the main table and the tail table are exercised.
  const scale = 13;
  const r = generateEdges(`rmat:${scale}:ef=64:scramble=false`);
  const src = toArray(r.src);
  const dst = toArray(r.dst);
  const m = src.length;
  const p = [0.57, 0.19, 0.19, 0.05];
  for (let l = 0; l < scale; l++) {
    const bit = scale - 1 - l;
    const c = [0, 0, 0, 0];
    for (let i = 0; i < m; i++) c[(((src[i]! >>> bit) & 1) << 1) | ((dst[i]! >>> bit) & 1)]!++;
    for (let q = 0; q < 4; q++) {
      const sd = Math.sqrt((p[q]! * (1 - p[q]!)) / m);
      t.true(Math.abs(c[q]! / m - p[q]!) < 5 * sd, `level ${l} quadrant ${q}: ${c[q]! / m}`);
    }
  }
});

test('rmat alias tables: exact cell probabilities', (t) => {
  for (const k of [1, 2, 3, 5]) {
    const { threshold, value } = rmatAliasTable(k, 0.57, 0.19, 0.19);
    const K = 1 << (2 * k);
    const one = 2 ** (32 - 2 * k);
    const mass = new Map<number, number>();
    for (let i = 0; i < K; i++) {
      mass.set(value[i]!, (mass.get(value[i]!) ?? 0) + threshold[i]! / one / K);
      mass.set(value[i + K]!, (mass.get(value[i + K]!) ?? 0) + (one - threshold[i]!) / one / K);
    }
    t.is(mass.size, K);
    for (const [v, pr] of mass) {
      let expect = 1;
      for (let l = 0; l < k; l++) {
        const s = (v >>> l) & 1;
        const d = (v >>> (16 + l)) & 1;
        expect *= [0.57, 0.19, 0.19, 0.05][(s << 1) | d]!;
      }
      t.true(Math.abs(pr - expect) < 1e-8, `k=${k} value ${v}: ${pr} vs ${expect}`);
    }
  }
});

test('rmat: scrambled ids are the seeded permutation of the plain ones', (t) => {
  const plain = generateEdges('rmat:11:seed=5:scramble=false');
  const scr = generateEdges('rmat:11:seed=5');
  const perm = new BitPermutation(11, 5);
  for (let i = 0; i < plain.src.length; i += 97) {
    t.is(scr.src.get(i), perm.apply(plain.src.get(i)));
    t.is(scr.dst.get(i), perm.apply(plain.dst.get(i)));
  }
  // Degree 0 is the busiest vertex before scrambling, not after.
  const d = degrees(toArray(scr.src), 2 ** 11);
  let arg = 0;
  for (let v = 1; v < d.length; v++) if (d[v]! > d[arg]!) arg = v;
  t.not(arg, 0);
});

test('BitPermutation is a bijection of [0, 2^bits)', (t) => {
  for (const bits of [1, 2, 3, 8, 13, 16]) {
    for (const seed of [0, 1, 12345]) {
      const p = new BitPermutation(bits, seed);
      const seen = new Uint8Array(2 ** bits);
      for (let x = 0; x < 2 ** bits; x++) {
        const y = p.apply(x);
        t.true(y < 2 ** bits);
        seen[y] = 1;
      }
      t.is(seen.reduce((a, b) => a + b, 0), 2 ** bits, `bits ${bits} seed ${seed}`);
    }
  }
});

test('Xoshiro128: deterministic, floats in range, streams differ', (t) => {
  const a = new Xoshiro128(7);
  const b = new Xoshiro128(7);
  const c = new Xoshiro128(7, 1);
  const d = new Xoshiro128(2 ** 40 + 7);
  let same = 0;
  for (let i = 0; i < 1000; i++) {
    const x = a.nextU32();
    t.is(x, b.nextU32());
    if (x === c.nextU32()) same++;
    if (x === d.nextU32()) same++;
    const f = a.nextFloat();
    b.nextFloat();
    t.true(f >= 0 && f < 1);
    t.true(a.nextBelow(10) < 10);
    b.nextBelow(10);
  }
  t.true(same < 3);
});

// ---------------------------------------------------------------------------------------------
// weights

test('weights: float32 in (0, 1] on the 1e-6 grid; topology unchanged by weighting', (t) => {
  for (const kind of ['rmat', 'uniform']) {
    const w = generateEdges(`${kind}:12:weighted`);
    const u = generateEdges(`${kind}:12`);
    t.is(w.weightType, 'float32');
    t.true(equal(toArray(w.src), toArray(u.src)));
    t.true(equal(toArray(w.dst), toArray(u.dst)));
    t.is(w.weights!.length, w.src.length);
    let sum = 0;
    w.weights!.forEachChunk((c, k) => {
      for (let i = 0; i < k; i++) {
        const x = c[i]!;
        t.true(x > 0 && x <= 1);
        const q = Math.round(x * 1e6);
        if (Math.fround(q / 1e6) !== x) t.fail(`weight ${x} is not on the grid`);
        sum += x;
      }
    });
    const mean = sum / w.src.length;
    t.true(Math.abs(mean - 0.5) < 0.01, `mean weight ${mean}`);
  }
});

// ---------------------------------------------------------------------------------------------
// memory guard and edge-list streaming

test('generateEdges refuses a graph larger than memory with a TesseraError', (t) => {
  const e = t.throws(() => generateEdges('rmat:31:ef=64'), { instanceOf: TesseraError });
  t.regex(e!.message, /GiB/);
  t.regex(e!.message, /\.el/);
});

test('generateToEdgeList streams the same edges as text, atomically', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-gen-'));
  try {
    for (const spec of ['rmat:10:weighted', 'uniform:9:ef=3']) {
      const file = path.join(dir, 'g.el');
      const res = await generateToEdgeList(spec, file);
      const r = generateEdges(spec);
      t.is(res.edges, r.src.length);
      const text = await readFile(file, 'latin1');
      t.is(Buffer.byteLength(text, 'latin1'), res.bytes);
      const lines = text.split('\n');
      t.true(lines[0]!.startsWith('# tessera '));
      t.is(lines.at(-1), '');
      const body = lines.slice(1, -1);
      t.is(body.length, r.src.length);
      for (let i = 0; i < body.length; i++) {
        const f = body[i]!.split(' ');
        if (Number(f[0]) !== r.src.get(i) || Number(f[1]) !== r.dst.get(i)) t.fail(`line ${i + 2}: ${body[i]}`);
        if (r.weights) {
          if (Math.fround(Number(f[2])) !== r.weights.get(i) || f[2]!.length > 8 || /e/i.test(f[2]!)) t.fail(`line ${i + 2}: ${body[i]}`);
        } else if (f.length !== 2) t.fail(`line ${i + 2}: ${body[i]}`);
      }
      t.deepEqual(await readdir(dir), ['g.el']);
    }
    await t.throwsAsync(generateToEdgeList('rmat:4', path.join(dir, 'no/such/dir/g.el')), { instanceOf: TesseraError, message: /no\/such\/dir/ });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an .el written by the generator reads back into the same graph as the in-memory edges', async (t) => {
  const { readGraphFile } = await import('../src/graph/readers/index.js');
  const { buildGraph } = await import('../src/graph/build.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-gen-'));
  try {
    const spec = 'rmat:11:ef=8:weighted';
    const file = path.join(dir, 'g.el');
    await generateToEdgeList(spec, file);
    const { raw } = await readGraphFile(file, { weightType: 'float32' });
    const a = buildGraph(raw, { pageEdges: 500 });
    // An edge list has no place for isolated vertices; the in-memory graph has all 2^scale.
    const generated = generateEdges(spec);
    t.is(generated.vertices?.length, 2 ** 11);
    const b = buildGraph({ ...generated, vertices: undefined }, { pageEdges: 500 });
    t.true(buildGraph(generated).numVertices === 2 ** 11 && a.numVertices < 2 ** 11, 'isolated vertices exist only in memory');
    t.is(a.numVertices, b.numVertices);
    t.is(a.numEdges, b.numEdges);
    t.true(equal(a.ids.toOriginal, b.ids.toOriginal));
    t.is(a.in.pages.length, b.in.pages.length);
    a.in.pages.forEach((p, i) => {
      const q = b.in.pages[i]!;
      t.true(equal(p.offsets, q.offsets) && equal(p.nbrs, q.nbrs) && equal(p.weights!, q.weights!), `in page ${i}`);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
