import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, test } from '../../helpers/node-test.ts';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { verify } from '../../../server/signatures/registry.ts';
import type { SchemeId } from '../../../server/signatures/scheme-ids.ts';
import { acceptsAt } from '../../helpers/pinned-date.ts';

/*
 * The replay window of the timestamped schemes, at its exact edges, with the clock
 * injected (nowMs). What each provider does, and so what Hookscope does:
 * - stripe: the SDK refuses age > tolerance (now floored to seconds) and never looks at
 *   the future: a timestamp ahead of the clock by any amount is accepted.
 * - standard_webhooks: the reference library refuses now - t > 300 and t > now + 300
 *   (now floored): both directions, each edge itself accepted.
 * - slack: Slack documents |now - timestamp| > 5 minutes as the refusal: both
 *   directions. Hookscope reads now in whole seconds like the other two (Bolt for JS
 *   floors too); Slack's Python sample uses the fractional clock, so only in the last
 *   second of the past edge could the two differ, and that row is not compared with it.
 * A per-endpoint toleranceSeconds replaces the 300 s default in both directions.
 */

const T = 1_700_000_000; // the signed timestamp, unix seconds
const BODY = '{"id":"evt_window","type":"test.event"}';
const stripe = new Stripe('sk_test_unused');

interface WindowCase {
  scheme: SchemeId;
  secret: string;
  checksFuture: boolean;
  headers(): Record<string, string>;
  /** The provider's own verdict at `nowMs`, or undefined where it cannot be asked for this tolerance. */
  provider(headers: Record<string, string>, nowMs: number, tolerance: number): boolean | undefined;
}

const CASES: WindowCase[] = [
  {
    scheme: 'stripe',
    secret: 'whsec_window_secret',
    checksFuture: false,
    headers() {
      return {
        'stripe-signature': stripe.webhooks.generateTestHeaderString({
          payload: BODY,
          secret: this.secret,
          timestamp: T,
        }),
      };
    },
    provider(h, nowMs, tolerance) {
      try {
        stripe.webhooks.constructEvent(BODY, h['stripe-signature']!, this.secret, tolerance, undefined, nowMs);
        return true;
      } catch {
        return false;
      }
    },
  },
  {
    scheme: 'standard_webhooks',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    checksFuture: true,
    headers() {
      const id = 'msg_window';
      return {
        'webhook-id': id,
        'webhook-timestamp': String(T),
        'webhook-signature': new Webhook(this.secret).sign(id, new Date(T * 1000), BODY),
      };
    },
    provider(h, nowMs, tolerance) {
      // The library's tolerance is a constant 300 s and its clock is Date.now().
      if (tolerance !== 300) return undefined;
      return acceptsAt(nowMs, () => new Webhook(this.secret).verify(BODY, h));
    },
  },
  {
    scheme: 'slack',
    secret: '8f742231b10e8888abcd99yyyzzz85a5',
    checksFuture: true,
    headers() {
      return {
        'x-slack-request-timestamp': String(T),
        'x-slack-signature': 'v0=' + createHmac('sha256', this.secret).update(`v0:${T}:${BODY}`).digest('hex'),
      };
    },
    provider(h, nowMs, tolerance) {
      // Slack's documented check, with the endpoint's tolerance in place of its 5 minutes.
      if (nowMs % 1000 !== 0) return undefined;
      const ts = Number(h['x-slack-request-timestamp']);
      if (Math.abs(nowMs / 1000 - ts) > tolerance) return false;
      const expected = Buffer.from('v0=' + createHmac('sha256', this.secret).update(`v0:${ts}:${BODY}`).digest('hex'));
      const got = Buffer.from(h['x-slack-signature']!);
      return expected.length === got.length && timingSafeEqual(expected, got);
    },
  },
];

interface Row {
  name: string;
  /** nowMs for a given tolerance. */
  now(tol: number): number;
  /** The expected verdict: valid, or the detail's "<n> s old|in the future" when refused. */
  expect(c: WindowCase, tol: number): 'valid' | RegExp;
}

const ROWS: Row[] = [
  { name: 'signed this second', now: () => T * 1000, expect: () => 'valid' },
  { name: 'exactly the tolerance old', now: (tol) => (T + tol) * 1000, expect: () => 'valid' },
  {
    name: 'the tolerance old plus 999 ms (whole seconds count)',
    now: (tol) => (T + tol) * 1000 + 999,
    expect: () => 'valid',
  },
  {
    name: 'one second past the tolerance',
    now: (tol) => (T + tol + 1) * 1000,
    expect: (_c, tol) => new RegExp(`^The timestamp is ${tol + 1} s old; the tolerance is ${tol} s\\.$`),
  },
  { name: 'exactly the tolerance in the future', now: (tol) => (T - tol) * 1000, expect: () => 'valid' },
  {
    name: 'one millisecond more than the tolerance in the future',
    now: (tol) => (T - tol) * 1000 - 1,
    expect: (c, tol) =>
      c.checksFuture
        ? new RegExp(`^The timestamp is ${tol + 1} s in the future; the tolerance is ${tol} s\\.$`)
        : 'valid',
  },
  {
    name: 'one second more than the tolerance in the future',
    now: (tol) => (T - tol - 1) * 1000,
    expect: (c, tol) =>
      c.checksFuture
        ? new RegExp(`^The timestamp is ${tol + 1} s in the future; the tolerance is ${tol} s\\.$`)
        : 'valid',
  },
  {
    name: 'a day in the future',
    now: () => (T - 86_400) * 1000,
    expect: (c, tol) =>
      c.checksFuture ? new RegExp(`^The timestamp is 86400 s in the future; the tolerance is ${tol} s\\.$`) : 'valid',
  },
];

/** null: the default (300 s); the others as a per-endpoint toleranceSeconds. */
const TOLERANCES: (number | null)[] = [null, 60, 1, 3600];

describe('timestamp tolerance at its edges', () => {
  for (const c of CASES) {
    describe(`${c.scheme} (${c.checksFuture ? 'past and future' : 'past only, as the SDK'})`, () => {
      for (const toleranceSeconds of TOLERANCES) {
        const tol = toleranceSeconds ?? 300;
        for (const row of ROWS) {
          const expected = row.expect(c, tol);
          test(`tolerance ${toleranceSeconds === null ? 'default 300' : toleranceSeconds} s, ${row.name}: ${expected === 'valid' ? 'accepted' : 'refused'}`, () => {
            const headers = c.headers();
            const nowMs = row.now(tol);
            const r = verify(c.scheme, {
              rawBody: Buffer.from(BODY),
              headers,
              secrets: [{ value: c.secret, kind: 'current' }],
              signatureHeader: null,
              toleranceSeconds,
              nowMs,
            });
            if (expected === 'valid') {
              assert.deepEqual([r.result, r.reason, r.detail], ['valid', null, null]);
            } else {
              assert.deepEqual([r.result, r.reason], ['invalid', 'timestamp_outside_tolerance']);
              assert.match(r.detail!, expected);
            }
            const theirs = c.provider(headers, nowMs, tol);
            if (theirs !== undefined) assert.equal(theirs, expected === 'valid', "the provider's own check agrees");
          });
        }
      }
    });
  }
});
