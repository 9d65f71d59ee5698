/**
 * Errors a user can act on. The CLI prints `message` alone (never a stack trace) and exits 1;
 * library callers can read the structured fields.
 */
export interface InputErrorDetails {
  /** File the problem is in, when there is one. */
  file?: string;
  /** 1-based line number in that file. */
  line?: number;
  /** YAML key / option name, for configuration errors. */
  key?: string;
  /** How to fix it, in one sentence. */
  fix?: string;
}

export class TesseraError extends Error {
  readonly details: InputErrorDetails;
  constructor(problem: string, details: InputErrorDetails = {}) {
    super(formatMessage(problem, details));
    this.name = 'TesseraError';
    this.details = details;
  }
}

/** "file:line: problem (key: k). Fix: ..." — the one-line form every user-facing error takes. */
function formatMessage(problem: string, d: InputErrorDetails): string {
  let where = '';
  if (d.file !== undefined) where = d.line !== undefined ? `${d.file}:${d.line}: ` : `${d.file}: `;
  const key = d.key !== undefined ? ` (at ${d.key})` : '';
  const fix = d.fix !== undefined ? ` Fix: ${d.fix}` : '';
  // A problem that already ends in a period gets no second one.
  const body = /[.!?]$/.test(problem) && key === '' ? problem : `${problem}${key}.`;
  return oneLine(`${where}${body}${fix}`);
}

/**
 * Control characters escaped (a line break quoted from a file, e.g. a properties value with `\n`,
 * would split the one line): \n, \r, else \uXXXX; tabs stay.
 */
function oneLine(s: string): string {
  return s.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

export function isTesseraError(e: unknown): e is TesseraError {
  return e instanceof TesseraError;
}

/**
 * A TesseraError thrown on a worker thread crosses to its actor as a plain message (piscina and
 * the gang pass messages): marked, so the run still ends with its one line (the file and fix it
 * names) instead of being reported as a failure of the engine.
 */
const INPUT_MARK = '\u0000tessera-input\u0000';

export function markInputError(e: unknown): unknown {
  return isTesseraError(e) ? new Error(INPUT_MARK + e.message) : e;
}

/** The message of an error an actor reports, and whether it is a user's (a marked or direct TesseraError). */
export function actorErrorMessage(e: unknown): { message: string; input: boolean } {
  const m = e instanceof Error ? e.message : String(e);
  if (m.startsWith(INPUT_MARK)) return { message: m.slice(INPUT_MARK.length), input: true };
  return { message: m, input: isTesseraError(e) };
}
