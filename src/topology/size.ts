/**
 * Sizes in topology files and flags, apart from the schema (zod is ~95 modules, loaded only where a
 * topology is checked: every command's flags use this).
 */
import bytes from 'bytes-iec';

/**
 * '8GiB' -> bytes; '25GB/s' -> bytes per second. bytes-iec in its metric mode: GB = 10^9 and
 * GiB = 2^30, as everywhere in tessera (the `bytes` package reads GB as 2^30).
 */
export function parseSize(v: string | number): number {
  return typeof v === 'number' ? v : Math.round(exactSize(v));
}

/** parseSize before its rounding (the schema refuses a size that is not a whole number of bytes). */
export function exactSize(v: string): number {
  return bytes.parse(v.replace(/\/s\s*$/i, ''), { mode: 'metric' }) ?? NaN;
}
