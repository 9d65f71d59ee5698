/**
 * Checks of the option objects the graph entry points take (loadGraph, generate, fromGraphology,
 * fromArrow, buildGraph): a library caller's typo or wrong type is a one-line TesseraError naming
 * the option, never a raw TypeError or an option silently ignored.
 */
import { TesseraError } from '../errors.js';

/** Levenshtein distance, for "did you mean" (here and programs/index.ts). */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The known name nearest to `key`, when near enough to be a typo of it. */
export function nearestName(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let d = Infinity;
  for (const k of known) {
    const x = distance(key.toLowerCase(), k.toLowerCase());
    if (x < d) (best = k), (d = x);
  }
  return best !== undefined && d <= Math.max(1, Math.ceil(key.length / 3)) ? best : undefined;
}

/** What a value is, for messages: `a string ('8GiB')`, `null`, `NaN`. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `a string ('${v.length > 40 ? v.slice(0, 40) + '...' : v}')`;
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return v.constructor?.name !== undefined && v.constructor.name !== 'Object' ? `a ${v.constructor.name}` : 'an object';
  return `${typeof v === 'undefined' ? '' : 'a '}${typeof v}${typeof v === 'boolean' ? ` (${String(v)})` : ''}`;
}

/**
 * `opts` as an options object (undefined: none), every key one of `known`: null, an array or a
 * primitive is refused, and so is an unknown key with a value (naming the nearest known one).
 * `what` names the call, e.g. "loadGraph options".
 */
export function checkOptions(opts: unknown, what: string, known: readonly string[]): Record<string, unknown> {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new TesseraError(`${what} must be an object, got ${describe(opts)}`, { fix: `pass { ${known.slice(0, 3).map((k) => `${k}: ...`).join(', ')} } or leave it out` });
  }
  const o = opts as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (o[k] === undefined || known.includes(k)) continue;
    const near = nearestName(k, known);
    throw new TesseraError(`${what}: unknown option '${k}'`, { key: k, fix: `${near !== undefined ? `did you mean '${near}'? ` : ''}the options are ${known.join(', ')}` });
  }
  return o;
}

/** Refuses o[key] unless undefined or a boolean. */
export function checkBoolean(o: Record<string, unknown>, key: string, what: string): void {
  const v = o[key];
  if (v !== undefined && typeof v !== 'boolean') throw new TesseraError(`${what}: ${key} must be true or false, got ${describe(v)}`, { key, fix: `pass ${key}: true, ${key}: false, or leave it out` });
}

/** Refuses o[key] unless undefined or one of `values`. */
export function checkOneOf(o: Record<string, unknown>, key: string, what: string, values: readonly unknown[]): void {
  const v = o[key];
  if (v !== undefined && !values.includes(v)) {
    const list = values.map((x) => (typeof x === 'string' ? `'${x}'` : String(x))).join(' or ');
    throw new TesseraError(`${what}: ${key} must be ${list}, got ${describe(v)}`, { key, fix: `pass ${key}: ${list}, or leave it out` });
  }
}

/** Refuses o[key] unless undefined or a non-empty string. */
export function checkString(o: Record<string, unknown>, key: string, what: string, fix: string): void {
  const v = o[key];
  if (v !== undefined && (typeof v !== 'string' || v === '')) throw new TesseraError(`${what}: ${key} must be a non-empty string, got ${describe(v)}`, { key, fix });
}

/** Refuses o[key] unless undefined or an integer in [min, max]. */
export function checkInteger(o: Record<string, unknown>, key: string, what: string, min: number, max: number, fix: string): void {
  const v = o[key];
  if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max)) {
    throw new TesseraError(`${what}: ${key} must be an integer from ${min} to ${max}, got ${describe(v)}`, { key, fix });
  }
}
