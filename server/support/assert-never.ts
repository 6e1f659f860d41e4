/** Exhaustiveness check: the compiler proves every case of a union was handled. */
export function assertNever(x: never, what = 'value'): never {
  throw new Error(`unexpected ${what} ${String(x)}`);
}
