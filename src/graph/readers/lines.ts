/**
 * Streaming line reader for graph text files.
 *
 * The file is read with large chunks (and gunzipped when its name ends in `.gz` or it starts
 * with the gzip magic bytes); the reader hands the parser *blocks of complete lines*: a buffer
 * and a byte range [start, end) in which every line, including the last one, ends with '\n'.
 * A line that straddles two chunks is stitched into a small buffer of its own; the rest of each
 * chunk is handed over in place, so no line is copied or turned into a string on the hot path.
 * Parsers count '\n' bytes to track 1-based line numbers and treat '\r' as white space (CRLF).
 * A final line without a newline gets one.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { TesseraError } from '../../errors.js';

/** Bytes per read from disk (and per gunzip output chunk). */
const READ_CHUNK = 4 << 20;
const GUNZIP_CHUNK = 2 << 20;
/** Longer lines are refused: a graph text file never has them, a binary file may. */
export const MAX_LINE_BYTES = 64 << 20;

export const NL = 10;

/**
 * Receives blocks of complete lines: buf[start, end) holds whole lines, each ending with '\n'
 * (buf[end - 1] === 10). The buffer may be reused once the call returns.
 */
export type BlockSink = (buf: Buffer, start: number, end: number) => void;

export interface ReadProgress {
  /** Bytes of the file read so far (compressed bytes for .gz). */
  (bytesRead: number, totalBytes: number): void;
}

export interface LineReadOptions {
  onProgress?: ReadProgress;
  /** The parser's count of lines parsed so far, quoted when the data breaks off. */
  currentLine?: () => number;
}

export interface LineReadResult {
  /** Size of the file on disk. */
  fileBytes: number;
  /** Bytes of text handed to the sink (decompressed), not counting an added final newline. */
  textBytes: number;
  /** Whether the input was gunzipped. */
  gzip: boolean;
}

export function isGzipName(file: string): boolean {
  return file.toLowerCase().endsWith('.gz');
}

/** Opens a file for reading, turning the usual failures into TesseraErrors naming the file. */
export async function openInput(file: string, what = 'graph file'): Promise<{ fh: FileHandle; size: number }> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    throw fsError(e, file, what);
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) {
      throw new TesseraError(`is a directory, not a ${what}`, { file, fix: 'give the path of the file itself' });
    }
    return { fh, size: st.size };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e instanceof TesseraError ? e : fsError(e, file, what);
  }
}

export function fsError(e: unknown, file: string, what = 'graph file'): TesseraError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new TesseraError(`${what} not found`, { file, fix: 'check the path (and that the file was downloaded and unpacked)' });
  if (code === 'EACCES' || code === 'EPERM') return new TesseraError(`${what} cannot be read: permission denied`, { file, fix: 'check the file permissions' });
  if (code === 'EISDIR') return new TesseraError(`is a directory, not a ${what}`, { file, fix: 'give the path of the file itself' });
  return new TesseraError(`${what} cannot be read (${(e as Error).message})`, { file, fix: 'check that the file exists and is readable' });
}

function isZlibError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/**
 * Streams `file` and calls `sink` with blocks of complete lines (see BlockSink). Errors thrown
 * by the sink propagate unchanged; I/O and gzip failures become TesseraErrors naming the file.
 */
export async function readLineBlocks(file: string, sink: BlockSink, opts: LineReadOptions = {}): Promise<LineReadResult> {
  const { fh, size } = await openInput(file);
  let gzip = isGzipName(file);
  if (!gzip && size >= 2) {
    // Sniff the gzip magic: a compressed file without the .gz suffix is still read correctly.
    const head = Buffer.alloc(2);
    try {
      await fh.read(head, 0, 2, 0);
    } catch (e) {
      await fh.close().catch(() => undefined);
      throw fsError(e, file);
    }
    gzip = head[0] === 0x1f && head[1] === 0x8b;
  }
  const raw = fh.createReadStream({ highWaterMark: READ_CHUNK, start: 0 });
  const onProgress = opts.onProgress;
  let stream: Readable = raw;
  if (gzip) {
    const gz = createGunzip({ chunkSize: GUNZIP_CHUNK });
    raw.on('error', (e) => gz.destroy(e));
    stream = raw.pipe(gz);
  }
  let textBytes = 0;
  // Pieces of a line that is not finished yet.
  let carry: Buffer[] = [];
  let carryBytes = 0;
  try {
    for await (const c0 of stream as AsyncIterable<Buffer>) {
      if (c0.length === 0) continue;
      let chunk = c0;
      if (textBytes === 0) {
        if (gzip && c0.length >= 2 && c0[0] === 0x1f && c0[1] === 0x8b) {
          throw new TesseraError('the file is gzip-compressed twice', { file, fix: 'decompress it once (gunzip) and read the resulting .gz file' });
        }
        // A UTF-8 byte order mark is not part of the first line.
        if (c0.length >= 3 && c0[0] === 0xef && c0[1] === 0xbb && c0[2] === 0xbf) chunk = c0.subarray(3);
      }
      textBytes += c0.length;
      const n = chunk.length;
      if (onProgress) onProgress(raw.bytesRead, size);
      const first = chunk.indexOf(NL);
      if (first < 0) {
        carry.push(chunk);
        carryBytes += n;
        if (carryBytes > MAX_LINE_BYTES) throw longLine(file);
        continue;
      }
      let from = 0;
      if (carryBytes > 0) {
        carry.push(chunk.subarray(0, first + 1));
        const joined = Buffer.concat(carry, carryBytes + first + 1);
        carry = [];
        carryBytes = 0;
        sink(joined, 0, joined.length);
        from = first + 1;
      }
      const last = chunk.lastIndexOf(NL);
      if (last + 1 > from) sink(chunk, from, last + 1);
      if (last + 1 < n) {
        // Streams hand out a fresh buffer per chunk, so keeping a view of its tail is safe.
        carry.push(chunk.subarray(last + 1));
        carryBytes += n - last - 1;
      }
    }
    if (carryBytes > 0) {
      const joined = Buffer.allocUnsafe(carryBytes + 1);
      let o = 0;
      for (const c of carry) {
        c.copy(joined, o);
        o += c.length;
      }
      joined[o] = NL;
      carry = [];
      sink(joined, 0, joined.length);
    }
  } catch (e) {
    if (e instanceof TesseraError) throw e;
    if (gzip && isZlibError(e)) {
      const why = (e as Error).message;
      const at = opts.currentLine ? `line ${opts.currentLine()}` : `${textBytes} decompressed bytes`;
      throw new TesseraError(`truncated or corrupt gzip data: the text breaks off after ${at} (zlib: ${why})`, {
        file,
        fix: 're-download the file, or re-compress it with gzip (gzip -t FILE tests it)',
      });
    }
    if ((e as NodeJS.ErrnoException).code !== undefined) throw fsError(e, file);
    throw e;
  } finally {
    raw.destroy();
    if (stream !== raw) stream.destroy();
    await fh.close().catch(() => undefined);
  }
  return { fileBytes: size, textBytes, gzip };
}

function longLine(file: string): TesseraError {
  return new TesseraError(`a line is longer than ${MAX_LINE_BYTES >> 20} MiB: this does not look like a graph text file`, {
    file,
    fix: 'check that the file is a text edge list (binary .tsr graphs are read by their .tsr extension)',
  });
}

/**
 * Slow but convenient: calls onLine(text, lineNo) for every line (1-based, '\r' stripped),
 * for small files (properties, headers) and for error paths.
 */
export async function readLines(file: string, onLine: (line: string, lineNo: number) => void | boolean): Promise<LineReadResult> {
  let lineNo = 0;
  let stop = false;
  const STOP = Symbol('stop');
  try {
    return await readLineBlocks(file, (buf, start, end) => {
      if (stop) return;
      let i = start;
      while (i < end) {
        const j = buf.indexOf(NL, i);
        let k = j;
        if (k > i && buf[k - 1] === 13) k--;
        lineNo++;
        if (onLine(buf.toString('utf8', i, k), lineNo) === false) {
          stop = true;
          throw STOP;
        }
        i = j + 1;
      }
    });
  } catch (e) {
    if (e === STOP) return { fileBytes: 0, textBytes: 0, gzip: false };
    throw e;
  }
}

/**
 * The line of data record k (0-based, after skipRecords), found by scanning again (error paths
 * only): blank lines and lines starting with # or % are not records.
 */
export async function lineOfRecord(file: string, k: number, skipRecords = 0): Promise<number> {
  let line = 0;
  let seen = 0;
  const target = k + skipRecords;
  let found = 0;
  const STOP = Symbol('stop');
  try {
    await readLineBlocks(file, (buf, start, end) => {
      let i = start;
      while (i < end) {
        line++;
        let c = buf[i]!;
        while (c === 32 || c === 9 || c === 13) c = buf[++i]!; // space, tab, CR
        const j = buf.indexOf(NL, i);
        if (c !== NL && c !== 35 && c !== 37) { // not # or %
          if (seen === target) {
            found = line;
            throw STOP;
          }
          seen++;
        }
        i = j + 1;
      }
    });
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return found;
}

/** A short printable excerpt of buf[s, e) for error messages. */
export function excerpt(buf: Buffer, s: number, e: number, max = 40): string {
  const long = e - s > max;
  const t = buf.toString('utf8', s, long ? s + max : e).replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return long ? `${t}…` : t;
}
