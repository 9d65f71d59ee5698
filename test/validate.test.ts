import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isTesseraError } from '../src/errors.js';
import {
  BFS_UNREACHABLE,
  formatOutput,
  matchEpsilon,
  matchEquivalence,
  matchExact,
  matchFor,
  parseOutput,
  parseValue,
  readOutput,
  ruleFor,
  type Output,
} from '../src/programs/validate.js';
import { GRAPHALYTICS } from './helpers/paths.js';

const EX = path.join(GRAPHALYTICS, 'matching-examples');
const m = (pairs: Array<[number, number]>): Output => new Map(pairs);

for (const [rule, match] of [
  ['exact', matchExact],
  ['equivalence', matchEquivalence],
  ['epsilon', matchEpsilon],
] as const) {
  test(`matching example ${rule}: actual1 passes, actual2 fails`, (t) => {
    const expected = readOutput(path.join(EX, `${rule}_expected.csv`));
    t.true(expected.size >= 5);
    const r1 = match(expected, readOutput(path.join(EX, `${rule}_actual1.csv`)));
    t.true(r1.ok, r1.reason);
    t.deepEqual(r1.mismatches, []);
    const r2 = match(expected, readOutput(path.join(EX, `${rule}_actual2.csv`)));
    t.false(r2.ok);
    t.true(r2.mismatchCount > 0);
    t.regex(r2.reason ?? '', new RegExp(rule));
  });
}

test('epsilon example: each vertex of actual2 is judged as the spec says', (t) => {
  const r = matchEpsilon(readOutput(path.join(EX, 'epsilon_expected.csv')), readOutput(path.join(EX, 'epsilon_actual2.csv')));
  // 1: 0 vs 1e-6 fails; 2: 0.3 vs 0.3 ok; 3: 0.45 vs 0.46 fails; 4: 0.23 vs 0.22 fails;
  // 5: +Infinity vs 1.79769e+308 fails; 6: 0.001 vs 0 fails.
  t.deepEqual(r.mismatches.map((x) => x.id), [1, 3, 4, 5, 6]);
  t.deepEqual(r.mismatches[0], { id: 1, expected: 0, actual: 0.000001 });
});

test('exact example: the differing vertices are listed', (t) => {
  const r = matchExact(readOutput(path.join(EX, 'exact_expected.csv')), readOutput(path.join(EX, 'exact_actual2.csv')));
  t.deepEqual(r.mismatches, [
    { id: 1, expected: 3, actual: 4 },
    { id: 4, expected: 0, actual: 5 },
  ]);
});

test('parseValue: ints, decimals, %.15e, infinity spellings', (t) => {
  t.is(parseValue('42'), 42);
  t.is(parseValue('0.01230514588446495'), 0.01230514588446495);
  t.is(parseValue('1.477629166666667e-01'), 0.1477629166666667);
  t.is(parseValue('1.79769e+308'), 1.79769e308);
  t.is(parseValue('.5'), 0.5);
  t.is(parseValue('24.'), 24);
  for (const s of ['infinity', 'Infinity', '+Infinity', 'INFINITY', 'inf', '+inf']) t.is(parseValue(s), Infinity, s);
  t.is(parseValue('-Infinity'), -Infinity);
  t.is(parseValue('9223372036854775807'), BFS_UNREACHABLE);
  for (const s of ['', 'abc', '0x10', '1e', 'nan', '1,5']) t.true(Number.isNaN(parseValue(s)), s);
});

test('parseOutput: separators, blank lines, errors with file:line', (t) => {
  const o = parseOutput('1 0.5\n\n2\t3\r\n3,infinity\n  4   7  \n');
  t.deepEqual([...o], [
    [1, 0.5],
    [2, 3],
    [3, Infinity],
    [4, 7],
  ]);
  const bad = (text: string, re: RegExp): void => {
    const e = t.throws(() => parseOutput(text, 'out.txt'));
    t.true(isTesseraError(e));
    t.regex(e!.message, re);
  };
  bad('1 2\n2 x\n', /^out\.txt:2: .*not a number/);
  bad('1 2 3\n', /^out\.txt:1: .*3 field/);
  bad('id value\n1 2\n', /^out\.txt:1: .*not a vertex id/);
  bad('-1 2\n', /not a vertex id/);
  bad('1 2\n1 3\n', /^out\.txt:2: vertex 1 appears twice/);
});

test('readOutput concatenates the files of a directory; formatOutput round-trips', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-validate-'));
  try {
    mkdirSync(path.join(dir, 'out'));
    writeFileSync(path.join(dir, 'out', 'part-0'), '3 1\n1 2\n');
    writeFileSync(path.join(dir, 'out', 'part-1'), '2 infinity\n');
    writeFileSync(path.join(dir, 'out', '.hidden'), 'garbage\n');
    const o = readOutput(path.join(dir, 'out'));
    t.deepEqual([...o].sort((a, b) => a[0] - b[0]), [
      [1, 2],
      [2, Infinity],
      [3, 1],
    ]);
    t.is(formatOutput(o), '1 2\n2 infinity\n3 1\n');
    t.is(formatOutput(m([[5, BFS_UNREACHABLE]])), '5 9223372036854775807\n');
    t.throws(() => readOutput(path.join(dir, 'nope')), { message: /no such output/ });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every rule fails when the vertex id sets differ', (t) => {
  const e = m([
    [1, 1],
    [2, 2],
  ]);
  for (const match of [matchExact, matchEquivalence, matchEpsilon]) {
    const missing = match(e, m([[1, 1]]));
    t.false(missing.ok);
    t.regex(missing.reason!, /vertex id sets differ.*1 missing, 0 unexpected/);
    t.deepEqual(missing.mismatches, [{ id: 2, expected: 2, actual: undefined }]);
    const extra = match(e, m([[1, 1], [2, 2], [3, 3]]));
    t.false(extra.ok);
    t.regex(extra.reason!, /0 missing, 1 unexpected/);
    const swapped = match(e, m([[1, 1], [3, 2]]));
    t.false(swapped.ok);
    t.is(swapped.mismatchCount, 2);
  }
});

test('epsilon rule: bound is relative to the expected value; infinity only matches infinity', (t) => {
  const one = (r: number, s: number): boolean => matchEpsilon(m([[1, r]]), m([[1, s]])).ok;
  t.true(one(1, 1.00009));
  t.false(one(1, 1.00011));
  t.true(one(1000, 999.91));
  t.false(one(1000, 999.8));
  t.true(one(0, 0));
  t.false(one(0, 1e-300));
  t.true(one(Infinity, Infinity));
  t.false(one(Infinity, Number.MAX_VALUE));
  t.false(one(5, Infinity));
  t.false(one(Infinity, -Infinity));
  t.false(one(1, NaN));
  t.true(matchEpsilon(m([[1, 1]]), m([[1, 1.01]]), { epsilon: 0.02 }).ok);
});

test('equivalence rule is a bijection between labels', (t) => {
  const e = m([[1, 1], [2, 1], [3, 2], [4, 3]]);
  t.true(matchEquivalence(e, m([[1, 9], [2, 9], [3, 0], [4, 5]])).ok);
  // Merging two expected components fails, as does splitting one.
  t.false(matchEquivalence(e, m([[1, 9], [2, 9], [3, 9], [4, 5]])).ok);
  t.false(matchEquivalence(e, m([[1, 9], [2, 8], [3, 0], [4, 5]])).ok);
  t.true(matchEquivalence(new Map(), new Map()).ok);
});

test('mismatch list is capped by limit, count is not', (t) => {
  const e: Output = new Map();
  const a: Output = new Map();
  for (let i = 0; i < 50; i++) (e.set(i, i), a.set(i, i + 1));
  const r = matchExact(e, a, { limit: 3 });
  t.false(r.ok);
  t.is(r.mismatches.length, 3);
  t.is(r.mismatchCount, 50);
  t.regex(r.reason!, /50 of 50 vertices.*first: vertex 0, expected 0, got 1/);
});

test('ruleFor / matchFor follow the Graphalytics table', (t) => {
  t.is(ruleFor('BFS'), 'exact');
  t.is(ruleFor('CDLP'), 'exact');
  t.is(ruleFor('WCC'), 'equivalence');
  t.is(ruleFor('PR'), 'epsilon');
  t.is(ruleFor('LCC'), 'epsilon');
  t.is(ruleFor('SSSP'), 'epsilon');
  t.throws(() => ruleFor('XYZ' as never), { message: /unknown Graphalytics algorithm/ });
  const e = m([[1, 1], [2, 2]]);
  const a = m([[1, 7], [2, 8]]);
  t.true(matchFor('WCC', e, a).ok);
  t.false(matchFor('CDLP', e, a).ok);
  t.true(matchFor('PR', e, m([[1, 1.00001], [2, 2]])).ok);
  t.false(matchFor('BFS', e, m([[1, 1.00001], [2, 2]])).ok);
});
