/** Option parsers that turn bad values into one-line commander errors. */
import { InvalidArgumentError, type Command } from 'commander';
import { TesseraError } from '../errors.js';
import { parseSize } from '../topology/size.js';

export function intOption(name: string, min = 0, max?: number) {
  return (v: string): number => {
    const x = Number(v);
    if (!/^\s*-?\d+\s*$/.test(v) || !Number.isSafeInteger(x) || x < min || (max !== undefined && x > max)) {
      throw new InvalidArgumentError(`${name} must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}, got '${v}'.`);
    }
    return x;
  };
}

export function floatOption(name: string, allowInfinity = false) {
  return (v: string): number => {
    const x = /^\s*\+?inf(inity)?\s*$/i.test(v) && allowInfinity ? Infinity : Number(v);
    if (v.trim() === '' || Number.isNaN(x) || (!allowInfinity && !Number.isFinite(x))) throw new InvalidArgumentError(`${name} must be a number, got '${v}'.`);
    return x;
  };
}

export function choiceOption<T extends string>(name: string, choices: readonly T[]) {
  return (v: string): T => {
    if (!(choices as readonly string[]).includes(v)) throw new InvalidArgumentError(`${name} must be one of ${choices.join(', ')}, got '${v}'.`);
    return v as T;
  };
}

export function positiveOption(name: string) {
  return (v: string): number => {
    const x = Number(v);
    if (v.trim() === '' || !(x > 0) || !Number.isFinite(x)) throw new InvalidArgumentError(`${name} must be a number > 0, got '${v}'.`);
    return x;
  };
}

/** A byte size such as 8GiB or 512MiB (GB = 10^9, GiB = 2^30, as in topology files). */
export function sizeOption(name: string) {
  return (v: string): number => {
    const x = /^\s*\d+(\.\d+)?\s*(B|KB|KiB|MB|MiB|GB|GiB|TB|TiB)?\s*$/i.test(v) ? parseSize(v) : NaN;
    if (!(x > 0)) throw new InvalidArgumentError(`${name} must be a size such as 8GiB or 512MiB, got '${v}'.`);
    return x;
  };
}

/**
 * Refuses a single-value option given twice on any command of PROGRAM (`--source 1 --source 3`:
 * commander keeps the last silently), a --x and its --no-x too. REPEATABLE options collect their
 * values (their parsers refuse a key given twice).
 */
export function refuseRepeats(program: Command, repeatable: ReadonlySet<string> = new Set(['--param', '--peer'])): void {
  const walk = (cmd: Command): void => {
    const given = new Map<string, string>();
    for (const opt of cmd.options) {
      if (opt.long === undefined || repeatable.has(opt.long) || opt.variadic) continue;
      const flag = opt.long;
      cmd.on(`option:${opt.name()}`, (value: string | undefined) => {
        const seen = given.get(opt.attributeName());
        const said = value === undefined ? flag : `${flag} ${value}`;
        // A switch given twice says the same thing; --x with --no-x, or a value twice, does not.
        if (seen !== undefined && (value !== undefined || seen !== said)) throw new TesseraError(`${seen} and ${said} are both given, and only one can apply`, { key: flag, fix: value === undefined ? 'give one of them' : `give ${flag} once` });
        given.set(opt.attributeName(), said);
      });
    }
    for (const sub of cmd.commands) walk(sub);
  };
  walk(program);
}
