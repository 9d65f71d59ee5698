/** Option parsers that turn bad values into one-line commander errors. */
import { InvalidArgumentError } from 'commander';
import { parseSize } from '../topology/size.js';

export function intOption(name: string, min = 0) {
  return (v: string): number => {
    const x = Number(v);
    if (!/^\s*-?\d+\s*$/.test(v) || !Number.isSafeInteger(x) || x < min) {
      throw new InvalidArgumentError(`${name} must be an integer >= ${min}, got '${v}'.`);
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
