import assert from 'node:assert/strict';
import { failureNotice, NOTICE_INTERVAL_MS, type NoticeContext } from '../../../electron/failure-notice.ts';
import type { EngineEvent } from '../../../server/events/event-bus.ts';
import type { LogSummary } from '../../../server/logs/logs-schemas.ts';
import { describe, test } from '../../helpers/node-test.ts';

const log = (over: Partial<LogSummary> = {}): LogSummary => ({
  id: 'log_01',
  endpointId: 'ep_1',
  method: 'POST',
  path: '/',
  query: {},
  contentType: 'application/json',
  size: 10,
  declaredSize: 10,
  storedSize: 10,
  truncated: false,
  sourceIp: '127.0.0.1',
  receivedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  status: 'failed',
  verification: {
    scheme: 'stripe',
    result: 'invalid',
    reason: 'no_matching_signature',
    detail: 'No v1 signature matches the secret.',
    matchedSecret: null,
  },
  pinned: false,
  eventType: 'invoice.paid',
  ...over,
});
const created = (data: LogSummary): EngineEvent => ({ id: 1, accountId: 'acct_x', type: 'log.created', data, at: 0 });
const away: NoticeContext = { enabled: true, windowFocused: false, lastShownAt: null, now: 1_000_000 };

describe('the failed-delivery notification', () => {
  test('a failed delivery while the window is not in front: title, the request and why, and the log it opens', () => {
    assert.deepEqual(failureNotice(created(log()), away), {
      title: 'Webhook delivery failed',
      body: 'POST to ep_1: No v1 signature matches the secret.',
      logId: 'log_01',
    });
  });

  test('without a sentence, the reason code in words; with neither, just the request (a sub-path when there is one)', () => {
    const tooLarge = log({
      verification: {
        scheme: 'none',
        result: 'skipped',
        reason: 'payload_too_large',
        detail: null,
        matchedSecret: null,
      },
    });
    assert.equal(failureNotice(created(tooLarge), away)?.body, 'POST to ep_1: payload too large');
    const bare = log({
      verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
    });
    assert.equal(failureNotice(created(bare), away)?.body, 'POST to ep_1');
    assert.equal(failureNotice(created(log({ ...bare, path: '/orders/7' })), away)?.body, 'POST to ep_1/orders/7');
  });

  test('nothing for a successful delivery or another event', () => {
    assert.equal(failureNotice(created(log({ status: 'success' })), away), null);
    const deleted: EngineEvent = {
      id: 2,
      accountId: 'acct_x',
      type: 'log.deleted',
      data: { endpointId: 'ep_1', logIds: ['log_01'], cleared: false },
      at: 0,
    };
    assert.equal(failureNotice(deleted, away), null);
  });

  test('nothing with the setting off, or while the user looks at the window', () => {
    assert.equal(failureNotice(created(log()), { ...away, enabled: false }), null);
    assert.equal(failureNotice(created(log()), { ...away, windowFocused: true }), null);
  });

  test('one notice per interval: a burst of failures is one notification', () => {
    const last = away.now - NOTICE_INTERVAL_MS;
    assert.equal(failureNotice(created(log()), { ...away, lastShownAt: last + 1 }), null);
    assert.equal(failureNotice(created(log()), { ...away, lastShownAt: last })?.logId, 'log_01');
  });

  test('bidi controls in the path or the reason show as markers, so the text reads as it was sent', () => {
    const spoof = log({
      path: '/invoice_\u202Efdp.exe',
      verification: {
        scheme: 'hmac_sha256',
        result: 'invalid',
        reason: 'no_matching_signature',
        detail: 'The header X-Sig holds "\u2067abc\u2069".',
        matchedSecret: null,
      },
    });
    assert.equal(
      failureNotice(created(spoof), away)?.body,
      'POST to ep_1/invoice_⟨U+202E⟩fdp.exe: The header X-Sig holds "⟨U+2067⟩abc⟨U+2069⟩".',
    );
  });
});
