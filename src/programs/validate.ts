/**
 * Graphalytics output validation (LDBC Graphalytics spec, "Output Validation"; the rules of
 * ldbc_graphalytics' VertexValidator / validation rules), as a library:
 *
 *   - Outputs are `vertex-id value` lines (space, tab or comma separated; blank lines skipped).
 *     Values may be integers, decimals, scientific notation (`%.15e`) or infinity spelt
 *     `infinity`, `Infinity`, `+Infinity`, `inf` (any case, optional sign).
 *   - Before values are compared, the two outputs must hold the same set of vertex ids.
 *   - exact (BFS, CDLP): every value equal.
 *   - equivalence (WCC): a one-to-one correspondence between expected and actual labels.
 *   - epsilon (PR, LCC, SSSP): |r - s| <= 1e-4 * |r| with r the expected value; so r = 0 needs
 *     s = 0 exactly, and infinity matches only the same infinity.
 *
 * Ids are original vertex ids. Integers above 2^53 lose precision as numbers; BFS's
 * "unreachable" 9223372036854775807 parses to 2^63 (BFS_UNREACHABLE) on both sides, so exact
 * matching still works.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TesseraError } from '../errors.js';

export type GraphalyticsAlgorithm = 'BFS' | 'CDLP' | 'WCC' | 'PR' | 'LCC' | 'SSSP';
export type MatchRule = 'exact' | 'equivalence' | 'epsilon';

/** Relative tolerance of the epsilon rule. */
export const EPSILON = 1e-4;
/** BFS depth of an unreachable vertex as Graphalytics writes it (Long.MAX_VALUE)... */
export const BFS_UNREACHABLE_TEXT = '9223372036854775807';
/** ...and as it parses to a number (2^63). */
export const BFS_UNREACHABLE = 2 ** 63;

export interface Mismatch {
  id: number;
  /** Expected value; undefined when the id is missing from the expected output. */
  expected: number | undefined;
  /** Actual value; undefined when the id is missing from the actual output. */
  actual: number | undefined;
}

export interface MatchResult {
  ok: boolean;
  /** The offending vertices, ascending by id, at most `limit` of them (see MatchOptions). */
  mismatches: Mismatch[];
  /** Total number of offending vertices (may exceed mismatches.length). */
  mismatchCount: number;
  /** One-line explanation when !ok. */
  reason?: string;
}

export interface MatchOptions {
  /** Most mismatches to list (default 1000); mismatchCount still counts them all. */
  limit?: number;
}

export type Output = Map<number, number>;

const RULES: Record<GraphalyticsAlgorithm, MatchRule> = {
  BFS: 'exact',
  CDLP: 'exact',
  WCC: 'equivalence',
  PR: 'epsilon',
  LCC: 'epsilon',
  SSSP: 'epsilon',
};

export function ruleFor(algo: GraphalyticsAlgorithm): MatchRule {
  const r = RULES[algo];
  if (r === undefined) throw new TesseraError(`unknown Graphalytics algorithm "${String(algo)}"`, { fix: 'use one of BFS, CDLP, WCC, PR, LCC, SSSP' });
  return r;
}

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INF_RE = /^([+-]?)inf(inity)?$/i;
const ID_RE = /^\d+$/;

/** Parses one value token; NaN when it is not a number. */
export function parseValue(token: string): number {
  if (NUMBER_RE.test(token)) return Number(token);
  const m = INF_RE.exec(token);
  if (m !== null) return m[1] === '-' ? -Infinity : Infinity;
  return NaN;
}

/** Parses output text into id -> value. Throws TesseraError (with file:line) on a bad line or a repeated id. */
export function parseOutput(text: string, file?: string, into: Output = new Map()): Output {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const parts = line.split(/[\s,]+/);
    const where = { file, line: i + 1 };
    if (parts.length !== 2) {
      throw new TesseraError(`expected "vertex-id value", found ${parts.length} field(s) in "${clip(line)}"`, { ...where, fix: 'write one "id value" pair per line' });
    }
    const [idTok, valTok] = parts as [string, string];
    if (!ID_RE.test(idTok)) throw new TesseraError(`"${clip(idTok)}" is not a vertex id (non-negative integer)`, where);
    const value = parseValue(valTok);
    if (Number.isNaN(value)) throw new TesseraError(`"${clip(valTok)}" is not a number`, { ...where, fix: 'write integers, decimals, scientific notation or infinity' });
    const id = Number(idTok);
    if (into.has(id)) throw new TesseraError(`vertex ${idTok} appears twice`, where);
    into.set(id, value);
  }
  return into;
}

/**
 * Reads an output file, or a directory whose files (sorted by name, hidden files skipped) are
 * concatenated, as the Graphalytics validator does.
 */
export function readOutput(p: string): Output {
  let st;
  try {
    st = statSync(p);
  } catch {
    throw new TesseraError('no such output file or directory', { file: p });
  }
  if (!st.isDirectory()) return parseOutput(readFileSync(p, 'utf8'), p);
  const out: Output = new Map();
  for (const name of readdirSync(p).sort()) {
    if (name.startsWith('.')) continue;
    const f = path.join(p, name);
    if (statSync(f).isFile()) parseOutput(readFileSync(f, 'utf8'), f, out);
  }
  return out;
}

/** Formats an output map back into sorted `id value` lines (infinity as `infinity`). */
export function formatOutput(out: Output): string {
  const ids = [...out.keys()].sort((a, b) => a - b);
  let s = '';
  for (const id of ids) {
    const v = out.get(id)!;
    s += `${id} ${v === Infinity ? 'infinity' : v === -Infinity ? '-infinity' : v === BFS_UNREACHABLE ? BFS_UNREACHABLE_TEXT : String(v)}\n`;
  }
  return s;
}

export function matchExact(expected: Output, actual: Output, opts: MatchOptions = {}): MatchResult {
  return compare(expected, actual, opts, 'exact', (r, s) => r === s);
}

export function matchEpsilon(expected: Output, actual: Output, opts: MatchOptions & { epsilon?: number } = {}): MatchResult {
  const eps = opts.epsilon ?? EPSILON;
  return compare(expected, actual, opts, 'epsilon', (r, s) => {
    if (!Number.isFinite(r) || !Number.isFinite(s)) return r === s; // ±Infinity only matches itself; NaN never
    return Math.abs(r - s) <= eps * Math.abs(r);
  });
}

export function matchEquivalence(expected: Output, actual: Output, opts: MatchOptions = {}): MatchResult {
  const ids = checkIds(expected, actual, opts);
  if (ids !== undefined) return ids;
  // The first vertex seen with an expected label fixes its partner actual label, and vice versa;
  // any vertex that contradicts a fixed pairing is a mismatch.
  const e2a = new Map<number, number>();
  const a2e = new Map<number, number>();
  const bad: number[] = [];
  for (const id of sortedIds(expected)) {
    const r = expected.get(id)!;
    const s = actual.get(id)!;
    const pa = e2a.get(r);
    const pe = a2e.get(s);
    if (pa === undefined && pe === undefined) {
      e2a.set(r, s);
      a2e.set(s, r);
    } else if (pa !== s || pe !== r) bad.push(id);
  }
  return finish(bad, expected, actual, opts, 'equivalence', 'labels do not correspond one-to-one');
}

/** Matches with the rule Graphalytics uses for `algo`. */
export function matchFor(algo: GraphalyticsAlgorithm, expected: Output, actual: Output, opts: MatchOptions = {}): MatchResult {
  switch (ruleFor(algo)) {
    case 'exact':
      return matchExact(expected, actual, opts);
    case 'equivalence':
      return matchEquivalence(expected, actual, opts);
    case 'epsilon':
      return matchEpsilon(expected, actual, opts);
  }
}

/**
 * Builds an output map (original id -> value) from per-internal-id values of a graph: e.g. a
 * reference result. `map` may convert values (BFS: -1 -> BFS_UNREACHABLE, see bfsDepthToOutput).
 */
export function outputFromInternal(
  toOriginal: ArrayLike<number>,
  values: ArrayLike<number>,
  map: (x: number) => number = (x) => x,
): Output {
  const out: Output = new Map();
  for (let v = 0; v < toOriginal.length; v++) out.set(toOriginal[v]!, map(values[v]!));
  return out;
}

/** BFS depth with -1 = unreachable -> the Graphalytics value. */
export const bfsDepthToOutput = (d: number): number => (d < 0 ? BFS_UNREACHABLE : d);

function compare(
  expected: Output,
  actual: Output,
  opts: MatchOptions,
  rule: MatchRule,
  eq: (r: number, s: number) => boolean,
): MatchResult {
  const ids = checkIds(expected, actual, opts);
  if (ids !== undefined) return ids;
  const bad: number[] = [];
  for (const id of sortedIds(expected)) if (!eq(expected.get(id)!, actual.get(id)!)) bad.push(id);
  return finish(bad, expected, actual, opts, rule, rule === 'exact' ? 'values differ' : `values differ by more than the relative tolerance`);
}

/** Fails (returns a result) when the id sets differ, else undefined. */
function checkIds(expected: Output, actual: Output, opts: MatchOptions): MatchResult | undefined {
  const bad: number[] = [];
  let missing = 0;
  let extra = 0;
  for (const id of expected.keys()) if (!actual.has(id)) (bad.push(id), missing++);
  for (const id of actual.keys()) if (!expected.has(id)) (bad.push(id), extra++);
  if (bad.length === 0) return undefined;
  bad.sort((a, b) => a - b);
  const r = finish(bad, expected, actual, opts, 'ids', '');
  r.reason =
    `vertex id sets differ (expected ${expected.size} vertices, got ${actual.size}: ` +
    `${missing} missing, ${extra} unexpected; first: ${bad[0]})`;
  return r;
}

function finish(bad: number[], expected: Output, actual: Output, opts: MatchOptions, rule: string, what: string): MatchResult {
  const limit = opts.limit ?? 1000;
  const mismatches = bad.slice(0, limit).map((id) => ({ id, expected: expected.get(id), actual: actual.get(id) }));
  if (bad.length === 0) return { ok: true, mismatches, mismatchCount: 0 };
  const first = mismatches[0]!;
  return {
    ok: false,
    mismatches,
    mismatchCount: bad.length,
    reason: `${rule} match failed: ${what} at ${bad.length} of ${expected.size} vertices (first: vertex ${first.id}, expected ${first.expected}, got ${first.actual})`,
  };
}

function sortedIds(m: Output): number[] {
  return [...m.keys()].sort((a, b) => a - b);
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
