import type { IncomingMessage } from 'node:http';
import type { BodyBudget } from './body-budget.ts';

/**
 * How reading ended. Anything but `complete` and `aborted` is answered (413, 408,
 * 503) and stored with the bytes received so far, so the user sees it happened.
 */
export type BodyOutcome = 'complete' | 'too_large' | 'idle_timeout' | 'request_timeout' | 'over_budget' | 'aborted';

export interface BodyRead {
  outcome: BodyOutcome;
  /** The whole body, or its first bytes (at most `previewBytes`) when reading stopped early. */
  body: Buffer;
  /** Bytes actually received when reading stopped: never a declared Content-Length. */
  size: number;
  /** The Content-Length the sender declared, if it was a valid number. */
  declaredSize: number | null;
  /** Gives back the memory budget this body reserved; call once it is stored. */
  release: () => void;
}

export interface BodyLimits {
  maxBytes: number;
  /** How much of a refused body to keep, so the user sees what was refused. */
  previewBytes: number;
  /** After refusing (413, 503), how much more to read and discard before closing the connection. */
  drainBytes: number;
  drainMs: number;
  /** Longest pause between two chunks of the body. */
  idleMs: number;
  /** The whole body must arrive within this of the headers. */
  requestMs: number;
}

/**
 * Reads a request body as raw bytes, never parsing it, within the size limit,
 * the memory budget and the timeouts. A declared Content-Length over the limit
 * or over the budget settles at once, before a byte is read; otherwise reading
 * stops at the first limit crossed, keeping the first bytes as a preview.
 * After a 413 or 503 the rest is read and discarded (bounded) so the sender,
 * usually still writing, receives the answer instead of a connection reset;
 * after a timeout nothing more is read (the sender is the slow party) and the
 * answer goes out with `Connection: close`.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits, budget: BodyBudget): Promise<BodyRead> {
  const declared = parseContentLength(req.headers['content-length']);
  let reserved = 0;
  const release = (): void => {
    budget.release(reserved);
    reserved = 0;
  };
  const refuse = (outcome: BodyOutcome): BodyRead => {
    drain(req, limits);
    return { outcome, body: Buffer.alloc(0), size: 0, declaredSize: declared, release };
  };

  if (declared !== null && declared > limits.maxBytes) return Promise.resolve(refuse('too_large'));
  if (declared !== null) {
    if (!budget.tryReserve(declared)) return Promise.resolve(refuse('over_budget'));
    reserved = declared;
  }

  return new Promise((resolve) => {
    const preview = Math.min(limits.previewBytes, limits.maxBytes);
    const chunks: Buffer[] = [];
    let kept = 0;
    let size = 0;
    let settled = false;

    const settle = (outcome: BodyOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      clearTimeout(deadline);
      req.off('data', onData);
      const complete = outcome === 'complete' || outcome === 'aborted';
      // A body that stopped early keeps only its first bytes.
      const body = Buffer.concat(chunks, complete ? kept : Math.min(kept, preview));
      chunks.length = 0;
      resolve({ outcome, body, size, declaredSize: declared, release });
      if (outcome === 'too_large' || outcome === 'over_budget') drain(req, limits);
      else if (outcome === 'idle_timeout' || outcome === 'request_timeout') req.pause();
    };

    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      idle.refresh();
      // Without a declared length the budget is taken as the bytes arrive.
      if (declared === null) {
        if (!budget.tryReserve(chunk.length)) {
          keep(chunk.subarray(0, Math.max(0, preview - kept)));
          return settle('over_budget');
        }
        reserved += chunk.length;
      }
      keep(chunk);
      if (size > limits.maxBytes) settle('too_large');
    };
    const keep = (chunk: Buffer): void => {
      chunks.push(chunk);
      kept += chunk.length;
    };

    const idle = setTimeout(() => settle('idle_timeout'), limits.idleMs);
    const deadline = setTimeout(() => settle('request_timeout'), limits.requestMs);
    req.on('data', onData);
    req.on('end', () => settle('complete'));
    req.on('close', () => settle(req.complete ? 'complete' : 'aborted'));
    req.on('error', () => settle('aborted'));
  });
}

/** Reads and discards what the sender still writes, up to the drain bounds, then closes. */
function drain(req: IncomingMessage, limits: BodyLimits): void {
  if (req.complete) return;
  let drained = 0;
  const stop = setTimeout(() => req.socket.destroy(), limits.drainMs);
  stop.unref();
  req.on('data', (c: Buffer) => {
    drained += c.length;
    if (drained > limits.drainBytes) req.socket.destroy();
  });
  req.on('close', () => clearTimeout(stop));
  req.resume();
}

function parseContentLength(v: string | undefined): number | null {
  if (v === undefined || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : null;
}
