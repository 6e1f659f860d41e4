import type { WordBits } from './store-types.ts';

/**
 * Whether some record of `recordBytes` bytes in `bytes` has, in each given little-endian
 * 32-bit word, every given bit. The store's SQL function `blob_has_bits(location, length,
 * record_bytes, words_json)` asks it of a spilled value, in the worker that reads it: the
 * value is neither copied to the asking thread nor kept (a search's probe of the large
 * bodies' signatures, server/storage/sqljs/log-search-sqljs.ts).
 */
export function someRecordHasBits(bytes: Uint8Array, recordBytes: number, words: readonly WordBits[]): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  records: for (let r = 0; r + recordBytes <= bytes.byteLength; r += recordBytes) {
    for (const [index, bits] of words) if ((view.getInt32(r + 4 * index, true) & bits) !== bits) continue records;
    return true;
  }
  return false;
}
