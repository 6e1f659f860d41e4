import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pc from 'picocolors';
import type { ApiClient, ApiSchemas } from '../../../server/api-client/api-client.ts';
import { ApiError } from '../../../server/api-client/api-error.ts';
import {
  DeliveryListener,
  retryDelay,
  type PlaceStore,
  type StartPoint,
} from '../../../server/cli/delivery-listener.ts';
import { listenJson, listenLine, pathWithQuery, type ListenReport } from '../../../server/cli/listen-output.ts';
import { ListenState } from '../../../server/cli/listen-state.ts';
import { escapeControls } from '../../../server/cli/terminal-safe.ts';
import type { SendInput, SendResult } from '../../../server/replay/http-sender.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

// Removed once the file's tests are done.
const tempDir = tempDirs('hookscope-listen-state-');

type LogSummary = ApiSchemas['LogSummary'];

describe('ListenState: listen-state.json', () => {
  test('0600 in a 0700 directory, no temp file left; places per engine and endpoint; mark fills only missing ones', async () => {
    const root = await tempDir();
    const dir = join(root, 'not-yet');
    const local = new ListenState(dir, 'local');
    assert.deepEqual(await local.load(), new Map());
    await local.mark(
      new Map([
        ['ep_a', ''],
        ['ep_b', 'log_01'],
      ]),
    );
    await local.save('ep_a', 'log_05');
    await local.mark(
      new Map([
        ['ep_a', 'log_99'],
        ['ep_c', 'log_07'],
      ]),
    );
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assert.equal((await stat(local.path)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(dir), ['listen-state.json']);
    assert.deepEqual(
      await local.load(),
      new Map([
        ['ep_a', 'log_05'],
        ['ep_b', 'log_01'],
        ['ep_c', 'log_07'],
      ]),
    );
    // Another listener (another process, another engine) keeps its own places in the same file.
    const team = new ListenState(dir, 'https://hooks.example.com');
    await team.save('ep_a', 'log_t1');
    await local.save('ep_b', 'log_02');
    assert.deepEqual(JSON.parse(await readFile(local.path, 'utf8')), {
      version: 1,
      engines: {
        local: { ep_a: 'log_05', ep_b: 'log_02', ep_c: 'log_07' },
        'https://hooks.example.com': { ep_a: 'log_t1' },
      },
    });
  });

  test('saves of one process are written in the order made', async () => {
    const root = await tempDir();
    const state = new ListenState(root, 'local');
    await Promise.all(Array.from({ length: 20 }, (_, i) => state.save('ep_a', `log_${String(i).padStart(2, '0')}`)));
    assert.equal((await state.load()).get('ep_a'), 'log_19');
  });

  test('a file Hookscope did not write is an error that says what to do', async () => {
    const root = await tempDir();
    const state = new ListenState(root, 'local');
    await writeFile(state.path, '{"engines": []}');
    await assert.rejects(state.load(), {
      message: `${state.path} is not a listen state file Hookscope wrote; delete it (the next \`hookscope listen\` then starts with live deliveries).`,
    });
  });
});

describe('retry delays', () => {
  test('retryDelay doubles from the first wait and stops at the longest', () => {
    const d = { initialMs: 1000, maxMs: 30_000 };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 100].map((n) => retryDelay(n, d)),
      [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000],
    );
  });
});

describe('listen lines', () => {
  const log = {
    id: 'log_1',
    endpointId: 'ep_1',
    eventType: 'invoice.paid',
    method: 'POST',
    path: '/orders/42',
    query: { x: ['1', '3'], y: '2' },
    receivedAt: '2026-11-27T09:00:05.000Z',
  };
  const plain = pc.createColors(false);
  const clock = new Date(log.receivedAt).toTimeString().slice(0, 8);

  test('a forwarded, a retried and a skipped delivery, each one line', () => {
    const forwarded: ListenReport = {
      type: 'forwarded',
      log,
      catchUp: false,
      url: 'http://localhost:3000/orders/42?x=1&x=3&y=2',
      status: 404,
      durationMs: 12,
      attempt: 1,
    };
    assert.equal(
      listenLine(forwarded, plain, (s) => s),
      `${clock}  invoice.paid  POST /orders/42?x=1&x=3&y=2  404  12 ms`,
    );
    assert.equal(
      listenLine({ ...forwarded, catchUp: true, log: { ...log, eventType: null, query: {} } }, plain, (s) => s),
      `${clock}  -  POST /orders/42  404  12 ms  (caught up)`,
    );
    const retry: ListenReport = {
      type: 'retry',
      log,
      catchUp: false,
      url: forwarded.url,
      status: null,
      durationMs: null,
      error: 'http://localhost:3000 could not be reached: the connection was refused.\nsecond line',
      attempt: 3,
      retryInMs: 4000,
    };
    assert.equal(
      listenLine(retry, plain, (s) => s),
      `${clock}  invoice.paid  POST /orders/42?x=1&x=3&y=2  http://localhost:3000 could not be reached: the connection was refused.  (attempt 3 failed; retrying in 4 s)`,
    );
    assert.equal(
      listenLine({ ...retry, status: 503, durationMs: 7, error: null, retryInMs: 250 }, plain, (s) => s),
      `${clock}  invoice.paid  POST /orders/42?x=1&x=3&y=2  503  7 ms  (attempt 3 failed; retrying in 250 ms)`,
    );
    assert.equal(
      listenLine(
        { type: 'skipped', log, catchUp: false, reason: 'it was refused when it arrived (missing_header).' },
        plain,
        (s) => s,
      ),
      `${clock}  invoice.paid  POST /orders/42?x=1&x=3&y=2  not forwarded: it was refused when it arrived (missing_header).`,
    );
  });

  test('colour by status on a terminal; sender text escaped there', () => {
    const c = pc.createColors(true);
    const line = (status: number) =>
      listenLine({ type: 'forwarded', log, catchUp: false, url: 'u', status, durationMs: 1, attempt: 1 }, c, (s) => s);
    assert.ok(line(200).includes(c.green('200')));
    assert.ok(line(404).includes(c.yellow('404')));
    assert.ok(
      listenLine(
        {
          type: 'forwarded',
          log: { ...log, path: '/a\x1b]0;x\x07' },
          catchUp: false,
          url: 'u',
          status: 200,
          durationMs: 1,
          attempt: 1,
        },
        plain,
        escapeControls,
      ).includes('/a\\x1b]0;x\\x07?x=1'),
    );
  });

  test('the start line names the engine, the endpoints and the target', () => {
    const start: ListenReport = {
      type: 'listening',
      engine: 'https://hooks.example.com',
      endpoints: ['ep_a', 'ep_b'],
      all: true,
      target: 'http://localhost:3000',
      resign: true,
    };
    assert.equal(
      listenLine(start, plain, (s) => s),
      "Forwarding deliveries of all of the account's endpoints (now ep_a, ep_b) from https://hooks.example.com to " +
        "http://localhost:3000, re-signed with each endpoint's secret; Ctrl+C to stop.",
    );
    assert.equal(
      listenLine({ ...start, all: false, endpoints: ['ep_a'], resign: false }, plain, (s) => s),
      'Forwarding deliveries of ep_a from https://hooks.example.com to http://localhost:3000; Ctrl+C to stop.',
    );
  });

  test('--json: one flat object, the delivery first', () => {
    const json = listenJson({ type: 'skipped', log, catchUp: true, reason: 'gone' });
    assert.equal(
      JSON.stringify(Object.keys(json)),
      '["type","logId","endpointId","eventType","method","path","query","receivedAt","catchUp","reason"]',
    );
    assert.deepEqual(json, {
      type: 'skipped',
      logId: 'log_1',
      endpointId: 'ep_1',
      eventType: 'invoice.paid',
      method: 'POST',
      path: '/orders/42',
      query: { x: ['1', '3'], y: '2' },
      receivedAt: '2026-11-27T09:00:05.000Z',
      catchUp: true,
      reason: 'gone',
    });
    assert.equal(pathWithQuery({ path: '/', query: { 'a b': 'c&d' } }), '/?a+b=c%26d');
  });
});

// ---- DeliveryListener against a stand-in engine and target (the real ones: tests/integration/cli-listen.test.ts)

const summary = (n: number, endpointId = 'ep_a', status: 'success' | 'failed' = 'success'): LogSummary =>
  ({
    id: `log_${String(n).padStart(3, '0')}`,
    endpointId,
    method: 'POST',
    path: `/${n}`,
    query: {},
    receivedAt: '2026-11-27T09:00:00.000Z',
    status,
    eventType: null,
    verification: {
      scheme: 'none',
      result: status === 'success' ? 'skipped' : 'invalid',
      reason: status === 'success' ? null : 'missing_header',
      detail: null,
      matchedSecret: null,
    },
  }) as unknown as LogSummary;

type PageQuery = { endpointId: string; limit: string; offset?: string; after?: string };

/**
 * The engine: its stored logs in arrival order (`logs`, which a test may change
 * between pages through `onPage`), listed newest first by offset or oldest first
 * after a cursor, as the API does, and the outgoing request it builds for each.
 */
function standInEngine(
  logs: LogSummary[],
  gone: Set<string> = new Set(),
  onPage: (q: PageQuery, page: ReturnType<typeof pageOf>) => void = () => undefined,
): ApiClient {
  return {
    baseUrl: 'http://engine',
    instance: undefined,
    get: async (_path: string, init: { params: { query: PageQuery } }) => {
      const q = init.params.query;
      const page = pageOf(logs, q);
      onPage(q, page);
      return page;
    },
    post: async (_path: string, init: { params: { path: { webhookLogId: string } } }) => {
      const id = init.params.path.webhookLogId;
      if (gone.has(id)) throw new ApiError(404, 'LOG_NOT_FOUND', `Log ${id} was not found.`);
      return { method: 'POST', url: `http://target/${id}`, headers: [], body: id, bodyEncoding: 'utf8' };
    },
  } as unknown as ApiClient;
}

function pageOf(logs: LogSummary[], q: PageQuery) {
  const limit = Number(q.limit);
  const endpoint = logs.filter((l) => l.endpointId === q.endpointId);
  if (q.after !== undefined) {
    const at = logs.findIndex((l) => l.id === q.after);
    if (at < 0) throw new ApiError(404, 'CURSOR_NOT_FOUND', `Log ${q.after} (after) was not found.`);
    const later = endpoint.filter((l) => logs.indexOf(l) > at);
    return { logs: later.slice(0, limit), total: later.length, hasMore: limit < later.length };
  }
  const newestFirst = [...endpoint].reverse();
  const offset = Number(q.offset ?? 0);
  const page = newestFirst.slice(offset, offset + limit);
  return { logs: page, total: newestFirst.length, hasMore: offset + page.length < newestFirst.length };
}

function memoryPlaces(initial: Record<string, string> = {}): PlaceStore & { places: Map<string, string> } {
  const places = new Map(Object.entries(initial));
  return {
    places,
    load: async () => new Map(places),
    save: async (ep, id) => void places.set(ep, id),
    mark: async (m) => {
      for (const [ep, id] of m) if (!places.has(ep)) places.set(ep, id);
    },
  };
}

const answer = (status: number | null, error: string | null = null): SendResult => ({
  status,
  responseHeaders: [],
  responseBody: Buffer.alloc(0),
  responseTruncated: false,
  responseTime: 3,
  error: error === null ? null : { code: 'TARGET_UNREACHABLE', message: error },
});

function harness(opts: {
  places: ReturnType<typeof memoryPlaces>;
  target: (input: SendInput) => SendResult;
  catchUp?: boolean;
  since?: StartPoint;
  /** The client a reconnect gets. */
  renewed?: ApiClient;
}) {
  const stop = new AbortController();
  const reports: ListenReport[] = [];
  const sent: string[] = [];
  const waits: number[] = [];
  let fatal: unknown;
  const listener = new DeliveryListener({
    targetUrl: 'http://target',
    resign: false,
    catchUp: opts.catchUp ?? true,
    since: opts.since,
    timeoutMs: 1000,
    retry: { initialMs: 10, maxMs: 40 },
    engineRetry: { initialMs: 1, maxMs: 1 },
    places: opts.places,
    report: (r) => reports.push(r),
    signal: stop.signal,
    isEngineDown: () => false,
    reconnect: async () => opts.renewed ?? assert.fail('no reconnect expected'),
    onFatal: (e) => (fatal = e),
    send: async (input) => {
      sent.push(input.body.toString());
      return opts.target(input);
    },
    // Records the wait and yields a turn instead of waiting it (a retry loop must not starve the test).
    sleep: (ms) => {
      waits.push(ms);
      return new Promise((resolve) => setImmediate(resolve));
    },
    pageSize: 2,
  });
  return { listener, stop, reports, sent, waits, fatal: () => fatal };
}

describe('DeliveryListener', () => {
  test('catch-up from the stored place, oldest first across pages, then live ones; none twice', async () => {
    const logs = [1, 2, 3, 4, 5, 6].map((n) => summary(n));
    const places = memoryPlaces({ ep_a: 'log_002' });
    const h = harness({ places, target: () => answer(200) });
    const api = standInEngine(logs);
    await h.listener.prepare(api, ['ep_a']);
    h.listener.connected(api, ['ep_a']);
    // Live events of deliveries the catch-up also finds, and a new one.
    h.listener.delivered(logs[4]!);
    h.listener.delivered(logs[5]!);
    h.listener.delivered(summary(7));
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_003', 'log_004', 'log_005', 'log_006', 'log_007']);
    assert.deepEqual(
      h.reports.map((r) => (r.type === 'forwarded' ? [r.log.id, r.catchUp] : r.type)),
      [
        ['log_003', true],
        ['log_004', true],
        ['log_005', false],
        ['log_006', false],
        ['log_007', false],
      ],
    );
    assert.equal(places.places.get('ep_a'), 'log_007');
    assert.equal(h.fatal(), undefined);
  });

  test('a log deleted between two catch-up pages: every other one is sent once, in arrival order', async () => {
    const logs = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => summary(n));
    const gone = new Set<string>();
    const places = memoryPlaces({ ep_a: 'log_001' });
    const h = harness({ places, target: () => answer(200) });
    let pages = 0;
    // Once the first page is read, its last log goes (deleted, or evicted): it is also the next page's cursor.
    const api = standInEngine(logs, gone, (_q, page) => {
      if (++pages > 1 || page.logs.length === 0) return;
      const last = page.logs.at(-1)!.id;
      gone.add(last);
      logs.splice(
        logs.findIndex((l) => l.id === last),
        1,
      );
    });
    h.listener.connected(api, ['ep_a']);
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_002', 'log_004', 'log_005', 'log_006', 'log_007', 'log_008']);
    assert.deepEqual(
      h.reports.map((r) => `${r.type} ${'log' in r ? r.log.id : ''}`),
      [
        'forwarded log_002',
        'skipped log_003',
        'forwarded log_004',
        'forwarded log_005',
        'forwarded log_006',
        'forwarded log_007',
        'forwarded log_008',
      ],
    );
    assert.equal(places.places.get('ep_a'), 'log_008');
  });

  test('sent in the order the engine stored them, not by id', async () => {
    const logs = [3, 1, 4, 2].map((n) => summary(n));
    const places = memoryPlaces({ ep_a: 'log_003' });
    const h = harness({ places, target: () => answer(200) });
    h.listener.connected(standInEngine(logs), ['ep_a']);
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_001', 'log_004', 'log_002']);
    assert.equal(places.places.get('ep_a'), 'log_002');
  });

  test('the place no longer stored: said on one line, then from the oldest stored; an empty place: all of them', async () => {
    const logs = [4, 5, 6, 7, 8].map((n) => summary(n));
    const places = memoryPlaces({ ep_a: 'log_002', ep_b: '' });
    logs.push(summary(9, 'ep_b'), summary(10, 'ep_b'));
    const h = harness({ places, target: () => answer(200) });
    h.listener.connected(standInEngine(logs), ['ep_a', 'ep_b']);
    await h.listener.settled();
    assert.deepEqual(h.sent.sort(), ['log_004', 'log_005', 'log_006', 'log_007', 'log_008', 'log_009', 'log_010']);
    assert.deepEqual(
      h.reports.filter((r) => r.type !== 'forwarded'),
      [
        {
          type: 'notice',
          endpointId: 'ep_a',
          message:
            'ep_a: log_002, where the catch-up starts, is no longer stored (deleted, or evicted by retention); ' +
            "catching up from the endpoint's oldest stored delivery.",
        },
      ],
    );
    const sentA = h.reports.flatMap((r) => (r.type === 'forwarded' && r.log.endpointId === 'ep_a' ? [r.log.id] : []));
    assert.deepEqual(sentA, ['log_004', 'log_005', 'log_006', 'log_007', 'log_008']);
    assert.equal(places.places.get('ep_b'), 'log_010');
  });

  test('--since a time: the stored deliveries received since then, in arrival order', async () => {
    const at = (n: number, minute: number): LogSummary => ({
      ...summary(n),
      receivedAt: `2026-11-27T09:${String(minute).padStart(2, '0')}:00.000Z`,
    });
    const logs = [at(1, 1), at(2, 5), at(3, 4), at(4, 6), at(5, 2)];
    const h = harness({
      places: memoryPlaces({ ep_a: 'log_004' }),
      target: () => answer(200),
      since: { sinceMs: Date.parse('2026-11-27T09:04:00.000Z') },
    });
    h.listener.connected(standInEngine(logs), ['ep_a']);
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_002', 'log_003', 'log_004']);
  });

  test('an endpoint seen for the first time starts at its newest delivery; --no-catch-up sends live ones only', async () => {
    const logs = [1, 2].map((n) => summary(n));
    const places = memoryPlaces();
    const h = harness({ places, target: () => answer(200), catchUp: false });
    const api = standInEngine(logs);
    await h.listener.prepare(api, ['ep_a', 'ep_empty']);
    assert.deepEqual(
      [...places.places],
      [
        ['ep_a', 'log_002'],
        ['ep_empty', ''],
      ],
    );
    places.places.set('ep_a', 'log_001');
    h.listener.connected(api, ['ep_a']);
    h.listener.delivered(summary(3));
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_003']);
  });

  test('no answer or a 5xx is retried with doubling waits while later ones wait; a 4xx is an answer', async () => {
    const answers = [
      answer(null, 'refused'),
      answer(503),
      answer(null, 'refused'),
      answer(null, 'refused'),
      answer(200),
      answer(404),
    ];
    const places = memoryPlaces({ ep_a: 'log_000' });
    const h = harness({ places, target: () => answers.shift()! });
    const api = standInEngine([]);
    h.listener.connected(api, []);
    h.listener.delivered(summary(1));
    h.listener.delivered(summary(2));
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_001', 'log_001', 'log_001', 'log_001', 'log_001', 'log_002']);
    assert.deepEqual(h.waits, [10, 20, 40, 40]);
    assert.deepEqual(
      h.reports.map(
        (r) =>
          `${r.type} ${r.type === 'retry' ? `${r.attempt} ${r.status ?? r.error}` : r.type === 'forwarded' ? r.status : ''}`,
      ),
      ['retry 1 refused', 'retry 2 503', 'retry 3 refused', 'retry 4 refused', 'forwarded 200', 'forwarded 404'],
    );
    assert.equal(places.places.get('ep_a'), 'log_002');
  });

  test('stopped while retrying: the place stays at the last delivery sent, so the next run tries again', async () => {
    const places = memoryPlaces({ ep_a: 'log_000' });
    const h = harness({
      places,
      target: (input) => (input.body.toString() === 'log_001' ? answer(200) : answer(null, 'refused')),
    });
    h.listener.connected(standInEngine([]), []);
    h.listener.delivered(summary(1));
    h.listener.delivered(summary(2));
    await new Promise<void>((resolve) => {
      const check = () => (h.reports.length >= 3 ? resolve() : setImmediate(check));
      check();
    });
    h.stop.abort();
    await h.listener.settled();
    assert.equal(places.places.get('ep_a'), 'log_001');
    assert.ok(h.reports.every((r) => r.type !== 'forwarded' || r.log.id === 'log_001'));
  });

  test('a failed signature check and a log the engine no longer has are reported, not sent, and passed', async () => {
    const places = memoryPlaces({ ep_a: 'log_000' });
    const h = harness({ places, target: () => answer(200) });
    h.listener.connected(standInEngine([], new Set(['log_002'])), []);
    h.listener.delivered(summary(1, 'ep_a', 'failed'));
    h.listener.delivered(summary(2));
    h.listener.delivered(summary(3));
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_003']);
    assert.deepEqual(
      h.reports.map((r) => (r.type === 'skipped' ? r.reason : r.type)),
      [
        'it was refused when it arrived (missing_header).',
        'the engine no longer has it (deleted, or evicted by retention).',
        'forwarded',
      ],
    );
    assert.equal(places.places.get('ep_a'), 'log_003');
  });

  test('a 401 (the minted token expired): connects again once for a fresh client and goes on', async () => {
    const places = memoryPlaces({ ep_a: 'log_000' });
    const fresh = standInEngine([]);
    const expired = {
      ...fresh,
      post: async () => {
        throw new ApiError(401, 'TOKEN_EXPIRED', 'The token has expired.');
      },
    } as unknown as ApiClient;
    const h = harness({ places, target: () => answer(200), renewed: fresh });
    h.listener.connected(expired, []);
    h.listener.delivered(summary(1));
    await h.listener.settled();
    assert.deepEqual(h.sent, ['log_001']);
    assert.equal(h.fatal(), undefined);

    // Refused again by the fresh client: the listener stops with that error.
    const h2 = harness({ places: memoryPlaces({ ep_a: 'log_000' }), target: () => answer(200), renewed: expired });
    h2.listener.connected(expired, []);
    h2.listener.delivered(summary(1));
    await h2.listener.settled();
    assert.deepEqual(h2.sent, []);
    assert.equal((h2.fatal() as ApiError).code, 'TOKEN_EXPIRED');
  });

  test('stopped while the engine does not answer: settles at once, the place unchanged', async () => {
    const places = memoryPlaces({ ep_a: 'log_000' });
    const silent = { ...standInEngine([]), post: () => new Promise(() => undefined) } as unknown as ApiClient;
    const h = harness({ places, target: () => answer(200) });
    h.listener.connected(silent, []);
    h.listener.delivered(summary(1));
    await new Promise((resolve) => setImmediate(resolve));
    h.stop.abort();
    await h.listener.settled();
    assert.deepEqual(h.sent, []);
    assert.equal(places.places.get('ep_a'), 'log_000');
  });
});
