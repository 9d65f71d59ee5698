/**
 * Counts for people: 31400 -> "31.4K", 1.53e9 -> "1.53B" (Intl.NumberFormat's compact notation,
 * three significant digits), for the run summary, `tessera model` and results.md. The formats are
 * made on first use (ICU's set-up), not when a command's modules load.
 */
let COMPACT: Intl.NumberFormat | undefined;

export function compact(x: number): string {
  return (COMPACT ??= new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 })).format(x);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
let BYTES: Intl.NumberFormat[] | undefined;

/** Byte counts for people, in decimal units: 462000 -> "462kB", 1.2e9 -> "1.2GB". */
export function compactBytes(x: number): string {
  BYTES ??= BYTE_UNITS.map((unit) => new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'narrow', maximumSignificantDigits: 3 }));
  let i = 0;
  while (i < BYTES.length - 1 && Math.abs(x) >= 1000 ** (i + 1)) i++;
  return BYTES[i]!.format(x / 1000 ** i);
}
