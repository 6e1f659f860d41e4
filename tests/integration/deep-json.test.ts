import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/** `[[[...x...]]]` n levels deep: valid JSON that JSON.parse reads but a recursive walk or JSON.stringify cannot. */
const nestedArrays = (n: number, inner: string) => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;
const nestedObjects = (n: number, inner: string) => `${'{"a":'.repeat(n)}${inner}${'}'.repeat(n)}`;

/** The line diff of two one-line texts: one removed run, one added. */
const oneLineChange = (a: string, b: string) => [
  { value: a, added: false, removed: true, count: 1 },
  { value: b, added: true, removed: false, count: 1 },
];

// Deep JSON from a sender or a replay target is compared as text: never a 500, never megabytes of indentation.
describe('deeply nested JSON in diffs', () => {
  let t: TestEngine;
  let ep: string;
  before(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'deep', validationType: 'none' });
  });
  after(() => t.stop());

  const deliver = async (body: string): Promise<string> => {
    const r = await t.deliver(`/webhook/${ep}`, { body, headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.id as string;
  };

  // 30,000 levels fit the 64 KiB kept of a replay answer and overflow JSON.stringify's recursion.
  for (const [depth, nest] of [
    [3_000, nestedArrays],
    [30_000, nestedArrays],
    [3_000, nestedObjects],
  ] as const) {
    test(`replay diff of two answers ${depth} levels deep (${nest === nestedArrays ? 'arrays' : 'objects'}) is a text diff`, async () => {
      const answers = [nest(depth, '1'), nest(depth, '2')];
      const target = await TargetServer.start((_req, i) => ({
        headers: { 'content-type': 'application/json' },
        body: answers[i]!,
      }));
      try {
        const logId = await deliver('{"event":"deep"}');
        const ids: string[] = [];
        for (let i = 0; i < 2; i++) {
          const r = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: target.url } });
          assert.equal(r.status, 200, JSON.stringify(r.body));
          ids.push(r.body.data.id as string);
        }
        const d = await t.api('GET', `/api/replay/${logId}/diff?a=${ids[0]}&b=${ids[1]}`);
        assert.equal(d.status, 200, JSON.stringify(d.body).slice(0, 500));
        const body = d.body.data.body;
        assert.deepEqual([body.format, body.changed], ['text', true]);
        assert.deepEqual(body.sizes, { a: answers[0]!.length, b: answers[1]!.length });
        assert.deepEqual(body.changes, oneLineChange(answers[0]!, answers[1]!));
        assert.ok(body.patch.includes(`\n-${answers[0]}\n`) && body.patch.includes(`\n+${answers[1]}\n`));
        assert.equal(d.body.data.identical, false);
      } finally {
        await target.close();
      }
    });
  }

  test('replay diff of a 100,000-deep answer (cut at 64 KiB when kept) is a text diff', async () => {
    const answers = [nestedArrays(100_000, '1'), nestedArrays(100_000, '2')];
    const target = await TargetServer.start((_req, i) => ({ body: answers[i]! }));
    try {
      const logId = await deliver('{"event":"deeper"}');
      const a = (await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: target.url } })).body.data.id;
      const b = (await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: target.url } })).body.data.id;
      const d = await t.api('GET', `/api/replay/${logId}/diff?a=${a}&b=${b}`);
      assert.equal(d.status, 200);
      // Both kept prefixes are the same 64 KiB of `[`: unchanged, and said so as text.
      assert.deepEqual(d.body.data.body, {
        changed: false,
        format: 'text',
        patch: '',
        changes: [],
        sizes: { a: 64 * 1024, b: 64 * 1024 },
      });
    } finally {
      await target.close();
    }
  });

  for (const depth of [3_000, 100_000]) {
    test(`comparing two deliveries ${depth} levels deep is a text diff`, async () => {
      const bodies = [nestedArrays(depth, '1'), nestedArrays(depth, '2')];
      const a = await deliver(bodies[0]!);
      const b = await deliver(bodies[1]!);
      const r = await t.api('GET', `/api/webhooks/compare?a=${a}&b=${b}`);
      assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
      const body = r.body.data.body;
      assert.deepEqual([body.format, body.changed, body.limited, body.json], ['text', true, null, []]);
      assert.deepEqual(body.changes, oneLineChange(bodies[0]!, bodies[1]!));
    });
  }

  test('comparing deliveries just past the JSON depth limit is a text diff; at the limit, a structural one', async () => {
    const atLimit = [nestedObjects(256, '1'), nestedObjects(256, '2')];
    const structural = await t.api(
      'GET',
      `/api/webhooks/compare?a=${await deliver(atLimit[0]!)}&b=${await deliver(atLimit[1]!)}`,
    );
    assert.equal(structural.body.data.body.format, 'json');
    assert.deepEqual(structural.body.data.body.json, [
      { path: `$${'.a'.repeat(256)}`, kind: 'changed', a: '1', b: '2' },
    ]);

    const past = [nestedObjects(257, '1'), nestedObjects(257, '2')];
    const text = await t.api('GET', `/api/webhooks/compare?a=${await deliver(past[0]!)}&b=${await deliver(past[1]!)}`);
    assert.deepEqual([text.body.data.body.format, text.body.data.body.json], ['text', []]);
    assert.deepEqual(text.body.data.body.changes, oneLineChange(past[0]!, past[1]!));
  });
});
