/**
 * Plain / SNAP edge lists: one edge per line, `src dst [weight]`, fields separated by spaces,
 * tabs or commas; lines starting with `#` or `%` and blank lines are skipped; CRLF accepted.
 *
 * The parser works on the bytes of whole-line blocks (see lines.ts): integers are accumulated
 * digit by digit, decimals with at most 15 significant digits are computed exactly as
 * mantissa / 10^k (the same double Number() gives), and only exponents and other unusual
 * weights take the slow path through a string and Number(). Every malformed line becomes a
 * TesseraError with the file and the 1-based line number.
 *
 * The same parser reads the data lines of Matrix Market and Graphalytics files (EdgeParser).
 */
import { TesseraError } from '../../errors.js';
import { F32List, F64List, U32List, type WeightList } from '../chunked.js';
import { MAX_ORIGINAL_ID, type RawEdges, type WeightType } from '../types.js';
import { excerpt, NL, readLineBlocks, type ReadProgress } from './lines.js';
import { checkVertexList } from './vertex-list.js';

export interface EdgeListOptions {
  /** Whether the edges are directed (default true). Undirected: each line is one edge both ways. */
  directed?: boolean;
  /**
   * true: every line has a third column, the weight. false: no weights (a third column, such as
   * a SNAP timestamp, is ignored). 'auto' (default): weighted when the first data line has a
   * third column; then every line must have one.
   */
  weighted?: boolean | 'auto';
  /** Storage type of the weights (default float64). */
  weightType?: WeightType;
  /** Accept negative weights (default false: a negative weight is an error). */
  allowNegativeWeights?: boolean;
  /** Called as the file is read (bytes on disk). */
  onProgress?: ReadProgress;
}

const SP = 32;
const TAB = 9;
const CR = 13;
const COMMA = 44;
const HASH = 35;
const PERCENT = 37;

const POW10: number[] = [];
for (let k = 0, p = 1; k <= 22; k++, p *= 10) POW10.push(p);

/** A weight token that Number() may read: decimal, optional exponent, or inf/nan words (rejected later). */
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?(?:inf|infinity|nan)$/i;

const ID_FIX = `vertex ids must be integers 0 to ${MAX_ORIGINAL_ID}; fix or remove the line (comment lines start with # or %), or give names on every line (tessera run reads them with --names; a .tsr stores integer ids only)`;

export interface EdgeParserConfig {
  file: string;
  /** Extra columns after src and dst: exact count, or 'auto' (0 or 1, decided by the first data line). */
  extra: number | 'auto';
  /** Lines may carry up to this many extra columns; those beyond `extra` are ignored. */
  maxExtra?: number;
  /** Index among the extra columns of the weight (-1 or absent: none). With 'auto': 0. */
  weightCol?: number;
  weightType?: WeightType;
  allowNegativeWeights?: boolean;
  /** Accepted id range (default 0..MAX_ORIGINAL_ID). */
  idMin?: number;
  idMax?: number;
  /** Explains the id range in errors when it is not the default one. */
  idRangeWhy?: string;
  /** How a line looks, for error messages, e.g. "src dst [weight]". */
  layout: string;
}

function isSep(c: number): boolean {
  return c === SP || c === TAB || c === COMMA || c === CR;
}

/** Streaming parser of `src dst [extra...]` lines into chunked lists. */
export class EdgeParser {
  readonly src = new U32List();
  readonly dst = new U32List();
  weights: WeightList | undefined;
  /** Lines seen so far (the 1-based number of the last line parsed). */
  line = 0;
  /** Line of the first data line (0 until there is one). */
  firstDataLine = 0;
  private readonly file: string;
  private auto: boolean;
  private minExtra: number;
  private maxExtra: number;
  private weightCol: number;
  private readonly allowNeg: boolean;
  private readonly idMin: number;
  private readonly idMax: number;
  private readonly cfg: EdgeParserConfig;
  private pos = 0;

  constructor(cfg: EdgeParserConfig) {
    this.cfg = cfg;
    this.file = cfg.file;
    this.auto = cfg.extra === 'auto';
    this.minExtra = cfg.extra === 'auto' ? 0 : cfg.extra;
    this.maxExtra = cfg.extra === 'auto' ? 1 : Math.max(cfg.extra, cfg.maxExtra ?? 0);
    this.weightCol = cfg.weightCol ?? -1;
    if (!this.auto && this.weightCol >= 0) this.weights = cfg.weightType === 'float32' ? new F32List() : new F64List();
    this.allowNeg = cfg.allowNegativeWeights ?? false;
    this.idMin = cfg.idMin ?? 0;
    this.idMax = cfg.idMax ?? MAX_ORIGINAL_ID;
  }

  /** The BlockSink: parses buf[start, end), whole lines each ending with '\n'. */
  readonly block = (buf: Buffer, start: number, end: number): void => {
    let i = start;
    let line = this.line;
    const src = this.src;
    const dst = this.dst;
    const idMin = this.idMin;
    const idMax = this.idMax;
    while (i < end) {
      line++;
      let c = buf[i]!;
      while (c === SP || c === TAB || c === CR) c = buf[++i]!;
      if (c === NL) {
        i++;
        continue;
      }
      if (c === HASH || c === PERCENT) {
        i = buf.indexOf(NL, i) + 1;
        continue;
      }
      // source id
      let t = i;
      let d = c - 48;
      if (d >>> 0 > 9) this.badId(buf, t, line);
      let a = d;
      c = buf[++i]!;
      while ((d = c - 48) >>> 0 <= 9) {
        a = a * 10 + d;
        c = buf[++i]!;
      }
      if (!isSep(c)) {
        if (c === NL) this.missing(line, 'the destination column');
        this.badId(buf, t, line);
      }
      if (a > idMax || a < idMin) this.idRange(buf, t, line);
      do c = buf[++i]!;
      while (c === SP || c === TAB || c === COMMA || c === CR);
      if (c === NL) this.missing(line, 'the destination column');
      // destination id
      t = i;
      d = c - 48;
      if (d >>> 0 > 9) this.badId(buf, t, line);
      let b = d;
      c = buf[++i]!;
      while ((d = c - 48) >>> 0 <= 9) {
        b = b * 10 + d;
        c = buf[++i]!;
      }
      if (c !== NL && !isSep(c)) this.badId(buf, t, line);
      if (b > idMax || b < idMin) this.idRange(buf, t, line);
      src.push(a);
      dst.push(b);
      while (c === SP || c === TAB || c === COMMA || c === CR) c = buf[++i]!;
      if (this.auto) this.decide(c !== NL, line);
      if (c === NL && this.minExtra === 0) {
        i++;
        continue;
      }
      if (c !== NL && this.maxExtra === 1 && this.weightCol === 0) {
        // src dst weight: the common weighted case, without the general column loop.
        this.weights!.push(this.parseWeight(buf, i, line));
        i = this.pos;
        c = buf[i]!;
        while (c === SP || c === TAB || c === COMMA || c === CR) c = buf[++i]!;
        if (c !== NL) this.extraColumn(buf, i, line);
        i++;
        continue;
      }
      i = this.extras(buf, i, line);
    }
    this.line = line;
  };

  /** 'auto' weights: the first data line decides. */
  private decide(hasThird: boolean, line: number): void {
    this.auto = false;
    this.firstDataLine = line;
    if (hasThird) {
      this.minExtra = this.maxExtra = 1;
      this.weightCol = 0;
      this.weights = this.cfg.weightType === 'float32' ? new F32List() : new F64List();
    } else {
      this.minExtra = this.maxExtra = 0;
      this.weightCol = -1;
    }
  }

  /** Columns after src and dst, from buf[i] (not a separator); returns the start of the next line. */
  private extras(buf: Buffer, i: number, line: number): number {
    let c = buf[i]!;
    let col = 0;
    while (c !== NL) {
      if (col >= this.maxExtra) this.extraColumn(buf, i, line);
      if (col === this.weightCol) {
        const w = this.parseWeight(buf, i, line);
        this.weights!.push(w);
        i = this.pos;
      } else {
        while (c !== NL && !isSep(c)) c = buf[++i]!;
      }
      col++;
      c = buf[i]!;
      while (c === SP || c === TAB || c === COMMA || c === CR) c = buf[++i]!;
    }
    if (col < this.minExtra) {
      this.missing(line, this.weightCol >= 0 && col === this.weightCol ? 'the weight column' : `column ${col + 3}`);
    }
    return i + 1;
  }

  /** Parses a number token at buf[i]; leaves this.pos at the byte after it. */
  private parseWeight(buf: Buffer, i: number, line: number): number {
    const t = i;
    let c = buf[i]!;
    let neg = false;
    if (c === 45) {
      neg = true;
      c = buf[++i]!;
    } else if (c === 43) c = buf[++i]!;
    let m = 0;
    let nd = 0;
    let k = 0;
    let d: number;
    while ((d = c - 48) >>> 0 <= 9) {
      m = m * 10 + d;
      nd++;
      c = buf[++i]!;
    }
    if (c === 46) {
      c = buf[++i]!;
      while ((d = c - 48) >>> 0 <= 9) {
        m = m * 10 + d;
        nd++;
        k++;
        c = buf[++i]!;
      }
    }
    let v: number;
    if (nd === 0 || nd > 15 || (c !== NL && !isSep(c))) {
      // Slow path: exponents, long mantissas, words, junk.
      let e = i;
      while (c !== NL && !isSep(c)) c = buf[++e]!;
      const tok = buf.toString('latin1', t, e);
      if (!NUMBER_RE.test(tok)) {
        throw new TesseraError(`'${excerpt(buf, t, e)}' is not a number (weight column)`, {
          file: this.file,
          line,
          fix: `weights must be decimal numbers such as 1, 0.5 or 2.5e-3; expected '${this.cfg.layout}'`,
        });
      }
      v = Number(tok);
      i = e;
    } else {
      v = k === 0 ? m : m / POW10[k]!;
      if (neg) v = -v;
    }
    if (!Number.isFinite(v)) {
      throw new TesseraError(`weight '${excerpt(buf, t, i)}' is not a finite number`, {
        file: this.file,
        line,
        fix: 'weights must be finite numbers (no NaN or infinity)',
      });
    }
    if (v < 0 && !this.allowNeg) {
      throw new TesseraError(`negative weight ${excerpt(buf, t, i)}`, {
        file: this.file,
        line,
        fix: 'fix the weight, or accept negative weights with --allow-negative-weights (library: allowNegativeWeights); SSSP still needs weights >= 0',
      });
    }
    this.pos = i;
    return v;
  }

  // -------------------------------------------------------------------------------------------
  // errors (never return)

  private tokenEnd(buf: Buffer, t: number): number {
    let e = t;
    let c = buf[e]!;
    while (c !== NL && c !== SP && c !== TAB && c !== COMMA && c !== CR) c = buf[++e]!;
    return e;
  }

  private badId(buf: Buffer, t: number, line: number): never {
    const e = this.tokenEnd(buf, t);
    const tok = excerpt(buf, t, e);
    if (/^-\d+$/.test(tok)) {
      throw new TesseraError(`'${tok}' is a negative vertex id`, { file: this.file, line, fix: ID_FIX });
    }
    throw new TesseraError(`'${tok}' is not a vertex id (expected a non-negative integer; a line is '${this.cfg.layout}')`, {
      file: this.file,
      line,
      fix: ID_FIX,
    });
  }

  private idRange(buf: Buffer, t: number, line: number): never {
    const tok = excerpt(buf, t, this.tokenEnd(buf, t));
    if (this.cfg.idRangeWhy !== undefined) {
      throw new TesseraError(`index ${tok} is outside ${this.idMin} to ${this.idMax} (${this.cfg.idRangeWhy})`, {
        file: this.file,
        line,
        fix: 'fix the entry or the size line',
      });
    }
    throw new TesseraError(`vertex id ${tok} is larger than ${MAX_ORIGINAL_ID} (ids are 32-bit)`, {
      file: this.file,
      line,
      fix: `renumber the vertex ids into 0 to ${MAX_ORIGINAL_ID}`,
    });
  }

  private missing(line: number, what: string): never {
    throw new TesseraError(`missing ${what} (a line is '${this.cfg.layout}')`, {
      file: this.file,
      line,
      fix: this.firstDataLine > 0 && this.weightCol >= 0 && this.cfg.extra === 'auto'
        ? `the first data line (line ${this.firstDataLine}) has a weight, so every line needs one; add it, or read the file unweighted (weighted: false)`
        : 'complete or remove the line',
    });
  }

  private extraColumn(buf: Buffer, t: number, line: number): never {
    const tok = excerpt(buf, t, this.tokenEnd(buf, t));
    const auto = this.cfg.extra === 'auto' && this.maxExtra === 0;
    throw new TesseraError(
      auto
        ? `unexpected third column '${tok}': the first data line (line ${this.firstDataLine}) has two columns, so the file is read as unweighted`
        : `unexpected extra column '${tok}' (a line is '${this.cfg.layout}')`,
      {
        file: this.file,
        line,
        fix: auto ? 'give every line the same columns, or pass weighted: false to ignore a third column' : 'remove the extra columns',
      },
    );
  }
}

// Where the vertex checks (vertex-list.ts) find it too, without importing this file.
export { lineOfRecord } from './lines.js';

/**
 * Reads a vertex list: one id per line (Graphalytics .v). Extra columns are allowed only when
 * `extraColumns` says so (vertex properties).
 */
export async function readVertexFile(
  file: string,
  opts: { extraColumns?: boolean; onProgress?: ReadProgress; layout?: string } = {},
): Promise<U32List> {
  const out = new U32List();
  const layout = opts.layout ?? 'id';
  let line = 0;
  const bad = (buf: Buffer, t: number, ln: number): never => {
    let e = t;
    while (buf[e] !== NL && !isSep(buf[e]!)) e++;
    const tok = excerpt(buf, t, e);
    throw new TesseraError(/^-\d+$/.test(tok) ? `'${tok}' is a negative vertex id` : `'${tok}' is not a vertex id (a line is '${layout}')`, {
      file,
      line: ln,
      fix: ID_FIX,
    });
  };
  await readLineBlocks(
    file,
    (buf, start, end) => {
      let i = start;
      let ln = line;
      while (i < end) {
        ln++;
        let c = buf[i]!;
        while (c === SP || c === TAB || c === CR) c = buf[++i]!;
        if (c === NL) {
          i++;
          continue;
        }
        if (c === HASH || c === PERCENT) {
          i = buf.indexOf(NL, i) + 1;
          continue;
        }
        const t = i;
        let d = c - 48;
        if (d >>> 0 > 9) bad(buf, t, ln);
        let a = d;
        c = buf[++i]!;
        while ((d = c - 48) >>> 0 <= 9) {
          a = a * 10 + d;
          c = buf[++i]!;
        }
        if (c !== NL && !isSep(c)) bad(buf, t, ln);
        if (a > MAX_ORIGINAL_ID) {
          let e = t;
          while (buf[e] !== NL && !isSep(buf[e]!)) e++;
          throw new TesseraError(`vertex id ${excerpt(buf, t, e)} is larger than ${MAX_ORIGINAL_ID} (ids are 32-bit)`, {
            file,
            line: ln,
            fix: `renumber the vertex ids into 0 to ${MAX_ORIGINAL_ID}`,
          });
        }
        out.push(a);
        while (c === SP || c === TAB || c === COMMA || c === CR) c = buf[++i]!;
        if (c !== NL) {
          if (!opts.extraColumns) {
            let e = i;
            while (buf[e] !== NL && !isSep(buf[e]!)) e++;
            throw new TesseraError(`unexpected extra column '${excerpt(buf, i, e)}' (a line is '${layout}')`, {
              file,
              line: ln,
              fix: 'remove the extra columns',
            });
          }
          i = buf.indexOf(NL, i);
        }
        i++;
      }
      line = ln;
    },
    { onProgress: opts.onProgress },
  );
  return out;
}

export function emptyError(file: string): TesseraError {
  return new TesseraError('no edges found: the file is empty or holds only comments and blank lines', {
    file,
    fix: 'check that this is the right file and that it was fully written/downloaded',
  });
}

/** The parser of a plain / SNAP edge list's lines (readEdgeList; the bounded builder drains it as it goes). */
export function edgeListParser(file: string, opts: EdgeListOptions): EdgeParser {
  const weighted = opts.weighted ?? 'auto';
  return new EdgeParser({
    file,
    extra: weighted === 'auto' ? 'auto' : weighted ? 1 : 0,
    maxExtra: weighted === false ? 1 : undefined,
    weightCol: weighted === true ? 0 : -1,
    weightType: opts.weightType,
    allowNegativeWeights: opts.allowNegativeWeights,
    layout: weighted === true ? 'src dst weight' : weighted === false ? 'src dst' : 'src dst [weight]',
  });
}

/** Reads a plain / SNAP edge list (see EdgeListOptions). */
export async function readEdgeList(file: string, opts: EdgeListOptions & { vertices?: string } = {}): Promise<RawEdges> {
  const p = edgeListParser(file, opts);
  await readLineBlocks(file, p.block, { onProgress: opts.onProgress, currentLine: () => p.line });
  const vertices = opts.vertices !== undefined ? await readVertexFile(opts.vertices) : undefined;
  if (p.src.length === 0 && (vertices === undefined || vertices.length === 0)) throw emptyError(file);
  // A vertex list lists every vertex (Graphalytics .v semantics), as for a .v/.e pair.
  if (vertices !== undefined) await checkVertexList({ vertexFile: opts.vertices!, edgeFile: file }, vertices, p.src, p.dst);
  const raw: RawEdges = { src: p.src, dst: p.dst, directed: opts.directed ?? true, source: file };
  if (p.weights) {
    raw.weights = p.weights;
    raw.weightType = opts.weightType ?? 'float64';
  }
  if (vertices) raw.vertices = vertices;
  return raw;
}
