import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import fc from 'fast-check';
import { SseParser } from '../../../server/api-client/sse-parser.ts';

describe('SseParser', () => {
  test('parses events, skips comments, keeps the last id and the retry delay', () => {
    const p = new SseParser();
    const out = p.push(
      'retry: 2000\n\n: heartbeat\n\nid: 7\nevent: log.created\ndata: {"a":1}\n\ndata: line1\ndata:line2\n\n',
    );
    assert.deepEqual(out, [
      { id: '7', event: 'log.created', data: '{"a":1}' },
      { id: '7', event: 'message', data: 'line1\nline2' },
    ]);
    assert.equal(p.retryMs, 2000);
    assert.equal(p.lastEventId, '7');
  });

  test('CRLF and CR line endings; an event without data is not dispatched', () => {
    const p = new SseParser();
    assert.deepEqual(p.push('id: 1\r\nevent: x\r\n\r\nid: 2\revent: y\rdata: z\r\r\n'), [
      { id: '2', event: 'y', data: 'z' },
    ]);
  });

  test('any chunking gives the same events', () => {
    const text =
      'id: 1\r\nevent: log.created\r\ndata: {"id":"log_1"}\r\n\r\n: hb\n\nid: 2\nevent: tunnel.status\ndata: {}\n\n';
    const whole = new SseParser().push(text);
    assert.equal(whole.length, 2);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 10 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const p = new SseParser();
        const got = [];
        let from = 0;
        for (const at of [...points, text.length]) {
          got.push(...p.push(text.slice(from, at)));
          from = at;
        }
        assert.deepEqual(got, whole);
      }),
    );
  });
});
