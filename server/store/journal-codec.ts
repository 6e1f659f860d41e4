import { crc32 } from 'node:zlib';
import type { StatementCatalogue } from './statement-catalogue.ts';
import type { SqlValue, WriteOp } from './store-types.ts';

/** A journaled mutation: a sequence number and the statements applied atomically. */
export interface JournalRecord {
  seq: number;
  ops: WriteOp[];
}

// Frame: u32 payloadLength | u32 crc32(payload) | u32 jsonLength | payload
// (CRC-32/IEEE as zlib computes it, the same checksum the frames always carried).
// where payload = JSON (statements, blob references) followed by the blobs' raw bytes,
// so binary bodies are journaled byte-exact without base64.
const HEADER = 12;

type EncodedParam = string | number | null | { $b: [number, number] };
type BlobRef = { $b: [number, number] };
// The statement is its SQL text, or its number in the catalogue (statement-catalogue.ts).
// Flags: 1 = coalesce, 2 = wipe. The spilled blob, if any, is a fourth element (0
// when there is none but a guard follows); the guard (WriteOp.when) a fifth.
type EncodedOp = [
  sql: string | number,
  params: EncodedParam[],
  flags?: number,
  spill?: BlobRef | 0,
  when?: [sql: string | number, params: EncodedParam[]],
];
/** A record frame's JSON, or a definition frame's (statement numbers and their SQL). */
type FrameJson = { s: number; o: EncodedOp[] } | { d: [number, string][] };

/**
 * A record's frame. With a catalogue, statements are written by number (numbering
 * new ones); whoever writes or sends the frame puts their definitions ahead of it.
 */
export function encodeRecord(record: JournalRecord, catalogue?: StatementCatalogue): Buffer {
  const blobs: Uint8Array[] = [];
  let blobOffset = 0;
  const blobRef = (p: Uint8Array): BlobRef => {
    const ref: BlobRef = { $b: [blobOffset, p.length] };
    blobs.push(p);
    blobOffset += p.length;
    return ref;
  };
  const encode = (params: SqlValue[]): EncodedParam[] =>
    params.map((p): EncodedParam => (p instanceof Uint8Array ? blobRef(p) : p));
  const ops = record.ops.map((op): EncodedOp => {
    const params = encode(op.params);
    const flags = (op.coalesce ? 1 : 0) | (op.wipe ? 2 : 0);
    const sql = catalogue?.idOf(op.sql) ?? op.sql;
    const spill = op.spill ? blobRef(op.spill) : 0;
    // Extra elements only when needed, so a plain op is framed exactly as before they existed.
    if (op.when)
      return [sql, params, flags, spill, [catalogue?.idOf(op.when.sql) ?? op.when.sql, encode(op.when.params)]];
    if (spill) return [sql, params, flags, spill];
    return flags ? [sql, params, flags] : [sql, params];
  });
  return toFrame({ s: record.seq, o: ops }, blobs, blobOffset);
}

/** A frame that only defines statements (their numbers and SQL). */
export function encodeDefinitions(definitions: [id: number, sql: string][]): Buffer {
  return toFrame({ d: definitions }, [], 0);
}

function toFrame(body: FrameJson, blobs: Uint8Array[], blobBytes: number): Buffer {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  const payloadLength = json.length + blobBytes;
  const frame = Buffer.allocUnsafe(HEADER + payloadLength);
  json.copy(frame, HEADER);
  let at = HEADER + json.length;
  for (const b of blobs) {
    frame.set(b, at);
    at += b.length;
  }
  frame.writeUInt32LE(payloadLength, 0);
  frame.writeUInt32LE(crc32(frame.subarray(HEADER)), 4);
  frame.writeUInt32LE(json.length, 8);
  return frame;
}

export interface DecodeResult {
  records: JournalRecord[];
  /** Bytes that hold complete, intact frames; anything after is a torn tail. */
  goodLength: number;
}

/**
 * Decodes frames until the first incomplete or corrupt one (a torn tail from a crash).
 * `statements` holds the catalogue's definitions read so far: a fresh one per journal
 * segment at recovery (each segment defines what it uses), the worker's own for the
 * frames the main thread sends it. A record naming a statement no frame defined is
 * not a torn tail but a broken journal, and throws rather than drop what follows.
 */
export function decodeRecords(buf: Buffer, statements = new Map<number, string>()): DecodeResult {
  const records: JournalRecord[] = [];
  let at = 0;
  while (at + HEADER <= buf.length) {
    const payloadLength = buf.readUInt32LE(at);
    const crc = buf.readUInt32LE(at + 4);
    const jsonLength = buf.readUInt32LE(at + 8);
    const end = at + HEADER + payloadLength;
    if (jsonLength > payloadLength || end > buf.length) break;
    const payload = buf.subarray(at + HEADER, end);
    if (crc32(payload) !== crc) break;
    let parsed: FrameJson;
    try {
      parsed = JSON.parse(payload.subarray(0, jsonLength).toString('utf8')) as FrameJson;
    } catch {
      break;
    }
    if ('d' in parsed) {
      for (const [id, sql] of parsed.d) statements.set(id, sql);
      at = end;
      continue;
    }
    const seq = parsed.s;
    const blobBase = jsonLength;
    const blob = (ref: BlobRef): Uint8Array => {
      const [off, len] = ref.$b;
      return Uint8Array.prototype.slice.call(payload, blobBase + off, blobBase + off + len);
    };
    const param = (p: EncodedParam): SqlValue => (p !== null && typeof p === 'object' ? blob(p) : p);
    const statement = (sql: string | number): string => (typeof sql === 'number' ? defined(statements, sql, seq) : sql);
    records.push({
      seq,
      ops: parsed.o.map(([sql, params, flags, spill, when]): WriteOp => {
        const op: WriteOp = { sql: statement(sql), params: params.map(param) };
        if (flags !== undefined && (flags & 1) === 1) op.coalesce = true;
        if (flags !== undefined && (flags & 2) === 2) op.wipe = true;
        if (spill) op.spill = blob(spill);
        if (when) op.when = { sql: statement(when[0]), params: when[1].map(param) };
        return op;
      }),
    });
    at = end;
  }
  return { records, goodLength: at };
}

function defined(statements: Map<number, string>, id: number, seq: number): string {
  const sql = statements.get(id);
  if (sql === undefined)
    throw new Error(`journal record ${seq} names statement ${id}, which no frame before it defines`);
  return sql;
}
