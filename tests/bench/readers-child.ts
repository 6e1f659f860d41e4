// Reads under load, in a process of their own: while the ingest benchmark's
// autocannon (in the parent) keeps the receiver at full speed, this process lists
// logs one call at a time and keeps an `/api/events` subscriber open, and sends
// marked deliveries on its own connection to time each one's `log.created` event.
// It runs apart from autocannon so the load generator's busy event loop does not
// add its own queueing to these latencies; both clocks here are this process's.
import { setTimeout as sleep } from 'node:timers/promises';
import { answerParent, childInput } from './bench-child.ts';
import { webhookBody } from './load.ts';
import { summarize, type Timings } from './timing.ts';

export interface ReadersInput {
  apiUrl: string;
  receiverUrl: string;
  token: string;
  endpointId: string;
  /** One marked delivery is sent this often (after the previous one was answered). */
  markEveryMs: number;
  /** How long `finish` waits for the events of marked deliveries still missing. */
  graceMs: number;
}

export interface ReadersResult {
  /** Sequential `GET /api/webhooks/logs?limit=50`, each from sending to the whole body read. */
  list: Timings;
  /** List calls that failed (not 200, or no answer within 10 s); not in `list`. */
  listFailures: number;
  /** From a marked delivery's 2xx to its `log.created` on the stream (0 when the event came first). */
  events: Timings;
  marked: { sent: number; acknowledged: number; notAcknowledged: number };
  /** Acknowledged marked deliveries whose event had not come `graceMs` after the last one. */
  missed: number;
  /** Events that reached the subscriber before the delivery's 2xx reached the sender. */
  beforeAck: number;
  /** Times the stream ended while listening (the engine drops a client 1 MB behind); it resumes with Last-Event-ID. */
  reconnects: number;
  /** Why listening stopped early (a reconnect failed); null when it lasted to the end. */
  streamError: string | null;
  /** Every `log.created` the subscriber received. */
  eventsReceived: number;
}

const MARK = 'bench-mark-';
const MARKED = new RegExp(`"path":"[^"]*${MARK}(\\d+)`);

/** The three readers over one engine; all their state lives in this closure. */
function readers(input: ReadersInput) {
  for (const url of [input.apiUrl, input.receiverUrl]) {
    if (!url.startsWith('http://127.0.0.1:')) throw new Error(`benchmarks talk to loopback only, not ${url}`);
  }
  const auth = { authorization: `Bearer ${input.token}` };
  const listTimes: number[] = [];
  let listFailures = 0;
  const ackedAt = new Map<number, number>();
  const eventAt = new Map<number, number>();
  const marked = { sent: 0, acknowledged: 0, notAcknowledged: 0 };
  let reconnects = 0;
  let eventsReceived = 0;
  let streamError: string | null = null;
  let running = false;
  let stream: Promise<void> = Promise.resolve();
  let senders: Promise<void>[] = [];
  const streamAbort = new AbortController();

  /** Reads the stream's `log.created` events, noting when each marked one arrives. */
  const readEvents = async (res: Response, onId: (id: string) => void): Promise<void> => {
    const decoder = new TextDecoder();
    let pending = '';
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      const at = performance.now();
      pending += decoder.decode(chunk, { stream: true });
      let from = 0;
      let end: number;
      while ((end = pending.indexOf('\n\n', from)) !== -1) {
        const block = pending.slice(from, end);
        from = end + 2;
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        if (id !== undefined) onId(id);
        if (!block.includes('\nevent: log.created\n')) continue;
        eventsReceived += 1;
        const m = MARKED.exec(block);
        if (m && !eventAt.has(Number(m[1]))) eventAt.set(Number(m[1]), at);
      }
      pending = pending.slice(from);
    }
  };

  const connect = async (lastEventId: string | null): Promise<Response> => {
    const res = await fetch(`${input.apiUrl}/api/events`, {
      headers: { ...auth, ...(lastEventId === null ? {} : { 'last-event-id': lastEventId }) },
      signal: streamAbort.signal,
    });
    if (res.status !== 200) throw new Error(`GET /api/events: ${res.status} ${await res.text()}`);
    return res;
  };

  /** Listens until stopped, resuming after the last id seen whenever the engine ends the stream. */
  const subscribe = async (first: Response): Promise<void> => {
    let lastId: string | null = null;
    let res = first;
    for (;;) {
      await readEvents(res, (id) => (lastId = id)).catch(() => undefined);
      if (!running) return;
      reconnects += 1;
      res = await connect(lastId ?? '0');
    }
  };

  const listLoop = async (): Promise<void> => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${input.apiUrl}/api/webhooks/logs?limit=50`, {
          headers: auth,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        if (res.status === 200) listTimes.push(performance.now() - t0);
        else listFailures += 1;
      } catch {
        listFailures += 1;
      }
    }
  };

  const markLoop = async (): Promise<void> => {
    const body = webhookBody(1024);
    for (let i = 0; running; i++) {
      const t0 = performance.now();
      marked.sent += 1;
      try {
        const res = await fetch(`${input.receiverUrl}/webhook/${input.endpointId}/${MARK}${i}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        // The answer's headers are in: that is the sender's acknowledgement.
        const at = performance.now();
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) {
          ackedAt.set(i, at);
          marked.acknowledged += 1;
        } else marked.notAcknowledged += 1;
      } catch {
        marked.notAcknowledged += 1;
      }
      await sleep(Math.max(0, input.markEveryMs - (performance.now() - t0)));
    }
  };

  return {
    /** Opens the subscriber (answers once the stream's headers are in), then starts the senders. */
    start: async (): Promise<null> => {
      const res = await connect(null);
      running = true;
      stream = subscribe(res).catch((e: unknown) => {
        streamError = e instanceof Error ? e.message : String(e);
      });
      senders = [listLoop(), markLoop()];
      return null;
    },
    /** Stops listing and sending, waits a bounded time for missing events, and reports. */
    finish: async (): Promise<ReadersResult> => {
      running = false;
      await Promise.all(senders);
      const waitUntil = performance.now() + input.graceMs;
      while ([...ackedAt.keys()].some((i) => !eventAt.has(i)) && performance.now() < waitUntil) await sleep(20);
      streamAbort.abort();
      await stream;
      const latencies: number[] = [];
      let beforeAck = 0;
      for (const [i, acked] of ackedAt) {
        const seen = eventAt.get(i);
        if (seen === undefined) continue;
        if (seen < acked) beforeAck += 1;
        latencies.push(Math.max(0, seen - acked));
      }
      return {
        list: summarize(listTimes),
        listFailures,
        events: summarize(latencies),
        marked,
        missed: [...ackedAt.keys()].filter((i) => !eventAt.has(i)).length,
        beforeAck,
        reconnects,
        streamError,
        eventsReceived,
      };
    },
    stop: async (): Promise<void> => {
      running = false;
      streamAbort.abort();
    },
  };
}

const r = readers(childInput<ReadersInput>());
answerParent(null, { start: r.start, finish: r.finish, stop: r.stop });
