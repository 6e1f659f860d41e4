import { InvalidArgumentError } from 'commander';
import { isAbsoluteHttpUrl } from '../api-client/shared.ts';

// Parsers for commander's `.argParser()`: commander names the flag and the value
// in its error ("option '--limit <n>' argument 'abc' is invalid."), these add why;
// main.ts turns it into exit code 2. Fixed sets of values use `.choices()` instead.

/** A TCP port; 0 asks for a free one. */
export function portArg(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new InvalidArgumentError('It must be a port number from 0 to 65535 (0 picks a free port).');
  }
  return Number(value);
}

/** A whole number from `min` to `max`. */
export function intArg(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`It must be a whole number from ${min} to ${max}.`);
    }
    return Number(value);
  };
}

/** One of `choices`, compared after `normalize` (e.g. upper-casing an HTTP method). */
export function choiceArg<T extends string>(
  choices: readonly T[],
  normalize: (value: string) => string,
): (value: string) => T {
  return (value) => {
    const v = normalize(value);
    if (!(choices as readonly string[]).includes(v)) {
      throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    }
    return v as T;
  };
}

/** An absolute http:// or https:// URL, kept as written (the one rule of support/absolute-url.ts). */
export function httpUrlArg(value: string): string {
  if (isAbsoluteHttpUrl(value)) return value;
  throw new InvalidArgumentError('It must be an absolute http:// or https:// URL.');
}
