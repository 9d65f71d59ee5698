/**
 * Matrix Market coordinate files (`%%MatrixMarket matrix coordinate pattern|real|integer
 * general|symmetric`), read as a graph: entry (i, j) is the edge i -> j, the 1-based indices are
 * kept as original vertex ids (so ids are 1..n and every one of them exists), values are
 * weights, and a symmetric matrix is an undirected graph. Dense (`array`), complex, hermitian
 * and skew-symmetric matrices are refused with a clear error.
 */
import { checkGraphFits } from '../memory.js';
import { TesseraError } from '../../errors.js';
import { U32List } from '../chunked.js';
import { MAX_ORIGINAL_ID, type RawEdges } from '../types.js';
import { EdgeParser, lineOfRecord, type EdgeListOptions } from './edgelist.js';
import { readLineBlocks } from './lines.js';

export type MatrixMarketOptions = EdgeListOptions;

export interface MatrixMarketHeader {
  field: 'pattern' | 'real' | 'integer';
  symmetry: 'general' | 'symmetric';
  rows: number;
  cols: number;
  entries: number;
  /** Line of the size line. */
  sizeLine: number;
}

const BANNER = '%%MatrixMarket matrix coordinate pattern|real|integer general|symmetric';

/**
 * The scan of a Matrix Market file, block by block (readLineBlocks' sink): the banner and the size
 * line as text, then the data lines through the edge parser. readMatrixMarket keeps what it
 * parses; the bounded-memory stream (build/external-formats.ts) drains the parser's lists as it
 * goes. `checkFits`: refuse a size line the machine cannot hold in memory (not for the stream).
 */
export class MatrixMarketScan {
  header: Partial<MatrixMarketHeader> | undefined;
  parser: EdgeParser | undefined;
  /** Lines of the prelude read so far. */
  lines = 0;

  constructor(
    readonly file: string,
    private readonly opts: MatrixMarketOptions & { checkFits?: boolean } = {},
  ) {}

  /** The BlockSink: prelude lines as text, the rest to the parser. */
  readonly block = (buf: Buffer, start: number, end: number): void => {
    let i = start;
    while (this.parser === undefined && i < end) {
      const j = buf.indexOf(10, i);
      let k = j;
      if (k > i && buf[k - 1] === 13) k--;
      this.lines++;
      this.prelude(buf.toString('utf8', i, k), this.lines);
      i = j + 1;
    }
    if (this.parser !== undefined && i < end) {
      if (this.parser.line === 0) this.parser.line = this.lines;
      this.parser.block(buf, i, end);
    }
  };

  /** The line to quote when the data breaks off. */
  readonly currentLine = (): number => (this.parser !== undefined && this.parser.line > 0 ? this.parser.line : this.lines);

  /** After the last block: the header, or the error of a file that ends before its size line. */
  done(): { h: MatrixMarketHeader; parser: EdgeParser } {
    if (this.header === undefined) {
      throw new TesseraError(`the file is empty: expected the header '${BANNER}'`, { file: this.file, fix: 'check that the file was fully written/downloaded' });
    }
    if (this.parser === undefined) {
      throw new TesseraError(`no size line after the header`, { file: this.file, line: this.lines, fix: 'add the line "rows cols entries" after the % comments' });
    }
    if (this.parser.line === 0) this.parser.line = this.lines;
    return { h: this.header as MatrixMarketHeader, parser: this.parser };
  }

  private unsupported(what: string, fix: string, line = 1): never {
    throw new TesseraError(`unsupported Matrix Market ${what}`, { file: this.file, line, fix });
  }

  private prelude(text: string, lineNo: number): void {
    const file = this.file;
    const opts = this.opts;
    if (lineNo === 1) {
      const t = text.trim().split(/\s+/);
      if (t[0]?.toLowerCase() !== '%%matrixmarket') {
        throw new TesseraError(`not a Matrix Market file: the first line must be '${BANNER}'`, {
          file,
          line: 1,
          fix: 'give the file a different extension if it is an edge list, or fix the header',
        });
      }
      const [object, format, field, symmetry] = t.slice(1).map((s) => s.toLowerCase());
      if (object !== 'matrix') this.unsupported(`object '${object ?? ''}' (only 'matrix')`, `convert it to '${BANNER}'`);
      if (format === 'array') this.unsupported(`'array' (dense) format`, 'convert the matrix to coordinate format');
      if (format !== 'coordinate') this.unsupported(`format '${format ?? ''}'`, `the header must read '${BANNER}'`);
      if (field === 'complex') this.unsupported(`'complex' values`, 'convert the values to real (or use pattern)');
      if (field !== 'pattern' && field !== 'real' && field !== 'integer') this.unsupported(`field '${field ?? ''}'`, `the header must read '${BANNER}'`);
      if (symmetry === 'hermitian' || symmetry === 'skew-symmetric') {
        this.unsupported(`'${symmetry}' symmetry`, 'convert the matrix to general or symmetric');
      }
      if (symmetry !== 'general' && symmetry !== 'symmetric') this.unsupported(`symmetry '${symmetry ?? ''}'`, `the header must read '${BANNER}'`);
      if (t.length > 5) this.unsupported(`header with extra words '${t.slice(5).join(' ')}'`, `the header must read '${BANNER}'`);
      this.header = { field: field as MatrixMarketHeader['field'], symmetry: symmetry as MatrixMarketHeader['symmetry'] };
      return;
    }
    const s = text.trim();
    if (s === '' || s.startsWith('%')) return;
    const f = s.split(/[\s,]+/);
    const nums = f.map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
    if (f.length !== 3 || nums.some((x) => !Number.isSafeInteger(x))) {
      throw new TesseraError(`bad size line '${s.slice(0, 60)}': expected 'rows cols entries' (three non-negative integers)`, {
        file,
        line: lineNo,
        fix: 'the first line after the % comments must give the matrix size, e.g. "5 5 12"',
      });
    }
    const [rows, cols, entries] = nums as [number, number, number];
    if (rows !== cols) {
      throw new TesseraError(`the matrix is ${rows} x ${cols}, not square: an adjacency matrix must be square`, {
        file,
        line: lineNo,
        fix: 'use a square matrix (rows = columns = number of vertices)',
      });
    }
    if (rows > MAX_ORIGINAL_ID) {
      throw new TesseraError(`${rows} rows is more than ${MAX_ORIGINAL_ID} vertices`, { file, line: lineNo, fix: 'split the matrix' });
    }
    // Every row is a vertex (listed below): refuse a size line the machine cannot hold before that.
    Object.assign(this.header!, { rows, cols, entries, sizeLine: lineNo });
    if (opts.checkFits !== false) checkMatrixFits(file, this.header as MatrixMarketHeader);
    const weighted = opts.weighted ?? 'auto';
    if (weighted === true && this.header!.field === 'pattern') {
      throw new TesseraError('weighted: true, but this is a pattern matrix (no values)', { file, line: 1, fix: 'read it unweighted' });
    }
    const hasValue = this.header!.field !== 'pattern';
    this.parser = new EdgeParser({
      file,
      extra: hasValue ? 1 : 0,
      weightCol: hasValue && weighted !== false ? 0 : -1,
      weightType: opts.weightType,
      allowNegativeWeights: opts.allowNegativeWeights,
      idMin: 1,
      idMax: rows,
      idRangeWhy: `the size line, line ${lineNo}, says ${rows} rows`,
      layout: hasValue ? 'row col value' : 'row col',
    });
  }
}

/** Refuses a size line whose graph the machine cannot hold in memory (the in-memory build's estimate). */
export function checkMatrixFits(file: string, h: MatrixMarketHeader): void {
  checkGraphFits(h.rows, h.symmetry === 'symmetric' ? 2 * h.entries : h.entries, { file, line: h.sizeLine, what: 'the size line' });
}

/** The error of a file holding `found` entries where its size line announces another count. */
export async function entryCountError(file: string, h: MatrixMarketHeader, found: number, line: number): Promise<TesseraError> {
  if (found > h.entries) {
    return new TesseraError(`more entries than the ${h.entries} the size line (line ${h.sizeLine}) announces: entry ${h.entries + 1} is here`, {
      file,
      line: await lineOfRecord(file, h.entries, 1),
      fix: 'fix the entry count on the size line, or remove the extra entries',
    });
  }
  return new TesseraError(`the size line (line ${h.sizeLine}) announces ${h.entries} entries but the file has ${found} (truncated?)`, {
    file,
    line,
    fix: 're-download the file, or fix the entry count on the size line',
  });
}

/** The graph's directedness (a symmetric matrix is undirected); refuses reading one as directed. */
export function matrixMarketDirected(file: string, h: Pick<MatrixMarketHeader, 'symmetry'>, directed: boolean | undefined): boolean {
  const symmetric = h.symmetry === 'symmetric';
  if (directed === true && symmetric) {
    throw new TesseraError('the matrix is symmetric (an undirected graph); reading it as directed would keep one direction of each edge', {
      file,
      line: 1,
      fix: 'drop the directed option, or rewrite the matrix as general with both entries',
    });
  }
  return symmetric ? false : (directed ?? true);
}

/** Refuses a matrix with no rows and no entries (nothing to build). */
export function checkNotEmpty(file: string, h: MatrixMarketHeader, found: number): void {
  if (found === 0 && h.rows === 0) {
    throw new TesseraError('the matrix is empty (0 rows, no entries)', { file, line: h.sizeLine, fix: 'check that this is the right file' });
  }
}

/** The vertices of an n-row matrix: its 1-based indices, all of them. */
export function matrixVertices(rows: number): U32List {
  const vertices = new U32List();
  for (let v = 1; v <= rows; v++) vertices.push(v);
  return vertices;
}

/** The banner and size line alone (the scan stops there): what a matrix declares before its entries. */
export async function readMatrixMarketHeader(file: string, opts: MatrixMarketOptions = {}): Promise<MatrixMarketHeader> {
  const scan = new MatrixMarketScan(file, { ...opts, checkFits: false });
  const STOP = new Error('size line read');
  try {
    await readLineBlocks(file, (buf, start, end) => {
      // Only the prelude: once the parser exists, the size line is behind.
      let i = start;
      while (scan.parser === undefined && i < end) {
        const j = buf.indexOf(10, i) + 1;
        scan.block(buf, i, j);
        i = j;
      }
      if (scan.parser !== undefined) throw STOP;
    });
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return scan.done().h;
}

export async function readMatrixMarket(file: string, opts: MatrixMarketOptions = {}): Promise<RawEdges> {
  const scan = new MatrixMarketScan(file, opts);
  await readLineBlocks(file, scan.block, { onProgress: opts.onProgress, currentLine: scan.currentLine });
  const { h, parser } = scan.done();
  const found = parser.src.length;
  if (found !== h.entries) throw await entryCountError(file, h, found, parser.line);
  const directed = matrixMarketDirected(file, h, opts.directed);
  checkNotEmpty(file, h, found);
  const raw: RawEdges = {
    src: parser.src,
    dst: parser.dst,
    vertices: matrixVertices(h.rows),
    directed,
    source: file,
  };
  if (parser.weights) {
    raw.weights = parser.weights;
    raw.weightType = opts.weightType ?? 'float64';
  }
  return raw;
}
