import { readSync } from 'node:fs';

/** Fills `into` from `fd` at `position`; a file that ends first is `short()`'s error. */
export function readExactly(fd: number, into: Uint8Array, position: number, short: () => Error): void {
  for (let got = 0; got < into.length;) {
    const n = readSync(fd, into, got, into.length - got, position + got);
    if (n === 0) throw short();
    got += n;
  }
}
