/**
 * Counts for people: 31400 -> "31.4K", 1.53e9 -> "1.53B", for the run summary, `tessera model`
 * and results.md. compact and compactBytes write what Intl.NumberFormat's compact notation and
 * byte units ('en', three significant digits) write, without it: ICU's set-up for the first
 * compact format took ~23 ms of a `tessera run` on the 2-core box. grouped and short (the demo's)
 * keep Intl, made on first use.
 */

/** |x|'s shortest decimal (what String(x) writes) as digits without leading zeros and the digits before the point (value = 0.DIGITS x 10^point). */
function decimal(x: number): { digits: string; point: number } {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x))!;
  const all = m[1]! + (m[2] ?? '');
  const lead = all.length - all.replace(/^0+/, '').length;
  return { digits: all.slice(lead).replace(/0+$/, ''), point: m[1]!.length + Number(m[3] ?? 0) - lead };
}

/** The digits rounded half away from zero to three significant ones (ICU rounds the shortest decimal so: 1.005 -> 1.01). */
function round3(d: { digits: string; point: number }): { digits: string; point: number } {
  if (d.digits.length <= 3) return d;
  let head = Number(d.digits.slice(0, 3)) + (d.digits[3]! >= '5' ? 1 : 0);
  let point = d.point;
  if (head === 1000) (head = 100), point++;
  return { digits: String(head).replace(/0+$/, ''), point };
}

/** Digits with `point` digits before the point, the integer part grouped by thousands from `group` digits (compact notation: 5, "1000T", "12,300T"). */
function place(digits: string, point: number, group = 4): string {
  if (digits === '') return '0';
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  const whole = digits.length > point ? digits.slice(0, point) : digits + '0'.repeat(point - digits.length);
  const frac = digits.slice(point);
  return (whole.length >= group ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole) + (frac === '' ? '' : `.${frac}`);
}

/** Intl's three significant digits of a finite x, the sign aside. */
function three(x: number): string {
  const r = round3(decimal(Math.abs(x)));
  return place(r.digits, r.point);
}

function special(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  return undefined;
}

const COMPACT_UNITS = ['', 'K', 'M', 'B', 'T'];

export function compact(x: number): string {
  const s = special(x);
  if (s !== undefined) return s;
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const r = round3(decimal(Math.abs(x)));
  // The unit of the rounded value (999.5 -> 1K), at most T (then the thousands are grouped).
  const k = r.digits === '' ? 0 : Math.max(0, Math.min(COMPACT_UNITS.length - 1, Math.floor((r.point - 1) / 3)));
  return sign + place(r.digits, r.point - 3 * k, 5) + COMPACT_UNITS[k]!;
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** Byte counts for people, in decimal units: 462000 -> "462kB", 1.2e9 -> "1.2GB". */
export function compactBytes(x: number): string {
  let i = 0;
  while (i < BYTE_UNITS.length - 1 && Math.abs(x) >= 1000 ** (i + 1)) i++;
  const y = x / 1000 ** i;
  const s = special(y);
  if (s !== undefined) return s + BYTE_UNITS[i]!;
  return (y < 0 || Object.is(y, -0) ? '-' : '') + three(y) + BYTE_UNITS[i]!;
}

let GROUPED: Intl.NumberFormat | undefined;
let SHORT: Intl.NumberFormat | undefined;

/** 1234567 -> "1,234,567" (the demo's counts). */
export function grouped(x: number): string {
  return (GROUPED ??= new Intl.NumberFormat('en-US')).format(x);
}

/** Three significant digits: 0.0123456 -> "0.0123" (the demo's values). */
export function short(x: number): string {
  return (SHORT ??= new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 })).format(x);
}
