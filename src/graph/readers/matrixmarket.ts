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

export async function readMatrixMarket(file: string, opts: MatrixMarketOptions = {}): Promise<RawEdges> {
  let header: Partial<MatrixMarketHeader> | undefined;
  let parser: EdgeParser | undefined;
  const unsupported = (what: string, fix: string, line = 1): never => {
    throw new TesseraError(`unsupported Matrix Market ${what}`, { file, line, fix });
  };
  const prelude = (text: string, lineNo: number): boolean => {
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
      if (object !== 'matrix') unsupported(`object '${object ?? ''}' (only 'matrix')`, `convert it to '${BANNER}'`);
      if (format === 'array') unsupported(`'array' (dense) format`, 'convert the matrix to coordinate format');
      if (format !== 'coordinate') unsupported(`format '${format ?? ''}'`, `the header must read '${BANNER}'`);
      if (field === 'complex') unsupported(`'complex' values`, 'convert the values to real (or use pattern)');
      if (field !== 'pattern' && field !== 'real' && field !== 'integer') unsupported(`field '${field ?? ''}'`, `the header must read '${BANNER}'`);
      if (symmetry === 'hermitian' || symmetry === 'skew-symmetric') {
        unsupported(`'${symmetry}' symmetry`, 'convert the matrix to general or symmetric');
      }
      if (symmetry !== 'general' && symmetry !== 'symmetric') unsupported(`symmetry '${symmetry ?? ''}'`, `the header must read '${BANNER}'`);
      if (t.length > 5) unsupported(`header with extra words '${t.slice(5).join(' ')}'`, `the header must read '${BANNER}'`);
      header = { field: field as MatrixMarketHeader['field'], symmetry: symmetry as MatrixMarketHeader['symmetry'] };
      return true;
    }
    const s = text.trim();
    if (s === '' || s.startsWith('%')) return true;
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
    checkGraphFits(rows, header!.symmetry === 'symmetric' ? 2 * entries : entries, { file, line: lineNo, what: 'the size line' });
    Object.assign(header!, { rows, cols, entries, sizeLine: lineNo });
    const weighted = opts.weighted ?? 'auto';
    if (weighted === true && header!.field === 'pattern') {
      throw new TesseraError('weighted: true, but this is a pattern matrix (no values)', { file, line: 1, fix: 'read it unweighted' });
    }
    const hasValue = header!.field !== 'pattern';
    parser = new EdgeParser({
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
    return false;
  };

  // The header is read as text; then the same block parser takes over the data lines.
  let lines = 0;
  await readLineBlocks(
    file,
    (buf, start, end) => {
      let i = start;
      while (parser === undefined && i < end) {
        const j = buf.indexOf(10, i);
        let k = j;
        if (k > i && buf[k - 1] === 13) k--;
        lines++;
        prelude(buf.toString('utf8', i, k), lines);
        i = j + 1;
      }
      if (parser !== undefined && i < end) {
        if (parser.line === 0) parser.line = lines;
        parser.block(buf, i, end);
      }
    },
    { onProgress: opts.onProgress, currentLine: () => (parser !== undefined && parser.line > 0 ? parser.line : lines) },
  );
  if (header === undefined) {
    throw new TesseraError(`the file is empty: expected the header '${BANNER}'`, { file, fix: 'check that the file was fully written/downloaded' });
  }
  if (parser === undefined) {
    throw new TesseraError(`no size line after the header`, { file, line: lines, fix: 'add the line "rows cols entries" after the % comments' });
  }
  if (parser.line === 0) parser.line = lines;
  const h = header as MatrixMarketHeader;
  const found = parser.src.length;
  if (found !== h.entries) {
    if (found > h.entries) {
      const line = await lineOfRecord(file, h.entries, 1);
      throw new TesseraError(`more entries than the ${h.entries} the size line (line ${h.sizeLine}) announces: entry ${h.entries + 1} is here`, {
        file,
        line,
        fix: 'fix the entry count on the size line, or remove the extra entries',
      });
    }
    throw new TesseraError(`the size line (line ${h.sizeLine}) announces ${h.entries} entries but the file has ${found} (truncated?)`, {
      file,
      line: parser.line,
      fix: 're-download the file, or fix the entry count on the size line',
    });
  }
  const symmetric = h.symmetry === 'symmetric';
  if (opts.directed === true && symmetric) {
    throw new TesseraError('the matrix is symmetric (an undirected graph); reading it as directed would keep one direction of each edge', {
      file,
      line: 1,
      fix: 'drop the directed option, or rewrite the matrix as general with both entries',
    });
  }
  const vertices = new U32List();
  for (let v = 1; v <= h.rows; v++) vertices.push(v);
  if (found === 0 && h.rows === 0) {
    throw new TesseraError('the matrix is empty (0 rows, no entries)', { file, line: h.sizeLine, fix: 'check that this is the right file' });
  }
  const raw: RawEdges = {
    src: parser.src,
    dst: parser.dst,
    vertices,
    directed: symmetric ? false : (opts.directed ?? true),
    source: file,
  };
  if (parser.weights) {
    raw.weights = parser.weights;
    raw.weightType = opts.weightType ?? 'float64';
  }
  return raw;
}
