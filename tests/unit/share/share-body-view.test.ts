import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import type { LogDetail } from '../../../server/logs/logs-schemas.ts';
import { renderSharePage } from '../../../server/share/share-html.ts';

const log = (body: string): LogDetail => ({
  id: 'log_1',
  endpointId: 'ep_1',
  method: 'POST',
  path: '/',
  query: {},
  contentType: 'application/json',
  size: Buffer.byteLength(body),
  declaredSize: Buffer.byteLength(body),
  storedSize: Buffer.byteLength(body),
  truncated: false,
  sourceIp: '127.0.0.1',
  receivedAt: '2026-11-23T10:00:00.000Z',
  durationMs: 1,
  status: 'success',
  verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
  pinned: false,
  eventType: null,
  headers: {},
  rawHeaders: [],
  body,
  bodyEncoding: 'utf8',
});
const bodyOf = (html: string): string => /<h2>Body[^]*?<pre>([^]*?)<\/pre>/.exec(html)![1]!;
const render = (body: string): string =>
  bodyOf(
    renderSharePage({ log: log(body), expiresAt: '2026-11-24T10:00:00.000Z', redacted: true, pathRedacted: false }),
  );

describe('share page body view under the size cap', () => {
  test('ordinary JSON is pretty-printed', () => {
    assert.equal(render('{"a":{"b":[1,2]}}'), '{\n  "a": {\n    "b": [\n      1,\n      2\n    ]\n  }\n}');
  });

  test('JSON nested deeper than 256 levels is shown as received (JSON.stringify would recurse that deep)', () => {
    const at = '['.repeat(256) + ']'.repeat(256);
    assert.equal(render(at).startsWith('[\n'), true);
    const deeper = '['.repeat(257) + ']'.repeat(257);
    assert.equal(render(deeper), deeper);
    const veryDeep = '['.repeat(100_000) + ']'.repeat(100_000);
    assert.equal(render(veryDeep), veryDeep);
  });

  test('a body whose indentation would blow up (200 levels around 50,000 items) is shown as received', () => {
    const wide = `${'['.repeat(200)}${Array(50_000).fill('1').join(',')}${']'.repeat(200)}`;
    assert.ok(wide.length < 256 * 1024);
    // Pretty-printed, each of the 50,000 items would carry 400 spaces: about 20 MB of HTML.
    assert.equal(render(wide), wide);
  });
});
