/**
 * Edge lists with names: CSV, TSV or whitespace-separated `source target [weight]` lines whose
 * vertex ids are strings (people, URLs), optionally under a header line. Names become original ids
 * 0..k-1 in order of first appearance and the graph keeps them (a KeyedGraph, as fromGraphology
 * makes): programs take names for vertex parameters and results are read and written by name.
 *
 * Fields: separated by a tab when the first line has one, else by a comma when it has one, else
 * by runs of spaces; a comma- or tab-separated field may be quoted ("New York", "a ""b"" c", RFC
 * 4180 without line breaks inside quotes); leading and trailing spaces of a field are dropped.
 * Lines starting with # or % and blank lines are skipped. The weight column, when the first data
 * line has a third field, must be a number on every line (as for integer edge lists).
 *
 * sniffEdgeList decides from the first data lines whether a file needs this reader (an id that
 * is not an integer) and whether its first line is a header; readNamedEdgeList reads it.
 */
import { TesseraError } from '../../errors.js';
import { checkTextFits } from '../memory.js';
import { F64List, U32List } from '../chunked.js';
import { MAX_ORIGINAL_ID, type RawEdges } from '../types.js';
import { readLines } from './lines.js';

export type Delimiter = ',' | '\t' | ' ';

export interface NamedEdgeListOptions {
  delimiter?: Delimiter;
  /** The first data line is a header (skipped). */
  header?: boolean;
  /** Ids are names (default); false: integers (a header over integer ids). */
  names?: boolean;
  directed?: boolean;
  allowNegativeWeights?: boolean;
}

export interface NamedEdgeList {
  raw: RawEdges;
  /** Names by original id (names mode). */
  keys?: string[];
  /** The header's fields, when a header was skipped. */
  header?: string[];
}

export interface Sniffed {
  delimiter: Delimiter;
  header: boolean;
  names: boolean;
}

const HEAD_SRC = /^(source|src|from|start|u|node_?1|id_?1|head|sender|caller|follower|user)$/i;
const HEAD_DST = /^(target|dst|to|end|v|node_?2|id_?2|tail|receiver|callee|followee|friend)$/i;
const INT = /^\d+$/;
const isId = (s: string | undefined): boolean => s !== undefined && INT.test(s) && Number(s) <= MAX_ORIGINAL_ID;
// For the sniff, any integer literal is an integer id: a negative or too large one then reaches
// the integer reader and its one-line error, instead of turning the file into names.
const INT_LITERAL = /^[+-]?\d+$/;
const isIntToken = (s: string | undefined): boolean => s !== undefined && INT_LITERAL.test(s);
const isNumber = (s: string | undefined): boolean => s !== undefined && s !== '' && Number.isFinite(Number(s));
const skip = (line: string): boolean => line.trim() === '' || line.startsWith('#') || line.startsWith('%');

/** Splits one line into trimmed fields (quotes honoured for , and tab); undefined: an unclosed quote. */
export function splitFields(line: string, d: Delimiter): string[] | undefined {
  if (d === ' ') return line.trim().split(/\s+/);
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ') i++;
    let f = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return undefined;
        f += line.slice(i, q);
        if (line[q + 1] === '"') (f += '"'), (i = q + 2);
        else {
          i = q + 1;
          break;
        }
      }
      const next = line.indexOf(d, i);
      if (line.slice(i, next < 0 ? undefined : next).trim() !== '') return undefined;
      out.push(f);
      if (next < 0) return out;
      i = next + 1;
    } else {
      const next = line.indexOf(d, i);
      out.push(line.slice(i, next < 0 ? undefined : next).trim());
      if (next < 0) return out;
      i = next + 1;
    }
  }
}

/**
 * From the first data lines: the delimiter, whether the ids are names (the first line's ids are
 * not integer literals and neither are the second's; -5 or 4294967296 is an integer, refused
 * later by the integer reader with its line), and whether the first line is a header (over
 * integer ids: any first line whose ids are not integers; over names: a third field that is not a
 * number, or with two fields column names such as source/target or a .csv / .tsv file).
 * loadGraph returns the header it skipped (LoadedGraph.header); the CLI says so.
 */
export async function sniffEdgeList(file: string): Promise<Sniffed> {
  const lines: string[] = [];
  await readLines(file, (line) => {
    if (!skip(line)) lines.push(line);
    return lines.length < 2;
  });
  if (lines.length === 0) return { delimiter: ' ', header: false, names: false };
  const first = lines[0]!;
  const delimiter: Delimiter = first.includes('\t') ? '\t' : first.includes(',') ? ',' : ' ';
  const a = splitFields(first, delimiter) ?? [];
  const b = lines[1] === undefined ? undefined : splitFields(lines[1], delimiter);
  if (isIntToken(a[0]) && isIntToken(a[1])) return { delimiter, header: false, names: false };
  // Integers below a first line of two words: a header; a first line like "1 2x" stays an error.
  const word = (x: string | undefined): boolean => x !== undefined && x !== '' && !isNumber(x);
  if (b !== undefined && isIntToken(b[0]) && isIntToken(b[1])) return { delimiter, header: word(a[0]) && word(a[1]), names: false };
  // Names: a third field settles it (a weight is a number, a column name is not); with two
  // fields, column names such as source/target do, and so does the CSV/TSV habit of a header row.
  const header = a.length >= 3 ? !isNumber(a[2]) : (HEAD_SRC.test(a[0] ?? '') && HEAD_DST.test(a[1] ?? '')) || /\.(csv|tsv)(\.gz)?$/i.test(file);
  return { delimiter, header, names: true };
}

/** Reads a delimited edge list (names, or integers under a header). */
export async function readNamedEdgeList(file: string, opts: NamedEdgeListOptions = {}): Promise<NamedEdgeList> {
  await checkTextFits(file);
  const d = opts.delimiter ?? ',';
  const names = opts.names ?? true;
  const keyIndex = new Map<string, number>();
  const keys: string[] = [];
  const src = new U32List();
  const dst = new U32List();
  let weights: F64List | undefined;
  let columns = -1;
  let header: string[] | undefined;
  let wantHeader = opts.header === true;
  const fail = (lineNo: number, what: string, fix: string): never => {
    throw new TesseraError(what, { file, line: lineNo, fix });
  };
  const id = (f: string, lineNo: number): number => {
    if (f === '') fail(lineNo, 'a vertex name is empty', 'give every edge a source and a target');
    if (!names) {
      if (!isId(f)) fail(lineNo, `vertex id '${f.slice(0, 40)}' is not an integer 0 to ${MAX_ORIGINAL_ID}`, 'use integer ids on every line, or names on every line (--names)');
      return Number(f);
    }
    let v = keyIndex.get(f);
    if (v === undefined) {
      if (keys.length > MAX_ORIGINAL_ID) fail(lineNo, `more than ${MAX_ORIGINAL_ID + 1} distinct names`, 'split the graph');
      v = keys.length;
      keyIndex.set(f, v);
      keys.push(f);
    }
    return v;
  };
  await readLines(file, (line, lineNo) => {
    if (skip(line)) return;
    const fields = splitFields(line, d);
    if (fields === undefined) return fail(lineNo, 'a quoted field is not closed on its line', 'close the quote ("..."; a quote inside one is written "")');
    if (wantHeader) {
      wantHeader = false;
      header = fields;
      return;
    }
    if (fields.length < 2) return fail(lineNo, `an edge needs a source and a target, this line has ${fields.length} field`, `write "source${d === '\t' ? '<tab>' : d}target" on each line`);
    if (columns < 0) {
      columns = fields.length >= 3 && fields[2] !== '' ? 3 : 2;
      if (columns === 3) weights = new F64List();
    }
    src.push(id(fields[0]!, lineNo));
    dst.push(id(fields[1]!, lineNo));
    if (weights !== undefined) {
      const w = Number(fields[2]);
      if (fields[2] === undefined || fields[2] === '' || !Number.isFinite(w)) fail(lineNo, `weight '${(fields[2] ?? '').slice(0, 40)}' is not a finite number`, 'give every line a numeric third column (the first data line has one), or none');
      if (w < 0 && opts.allowNegativeWeights !== true) fail(lineNo, `negative weight ${w}`, 'use weights >= 0, or --allow-negative-weights');
      weights.push(w);
    }
  });
  let vertices: U32List | undefined;
  if (names) {
    vertices = new U32List();
    for (let i = 0; i < keys.length; i++) vertices.push(i);
  }
  const raw: RawEdges = { src, dst, weights, vertices, directed: opts.directed ?? true, weightType: weights ? 'float64' : undefined, source: file };
  return { raw, ...(names ? { keys } : {}), ...(header !== undefined ? { header } : {}) };
}
