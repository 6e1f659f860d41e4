import { assertNever } from '../support/assert-never.ts';
import type { Random } from '../support/random.ts';
import type { ValidationType } from './validation-types.ts';

export interface SamplePayload {
  body: string;
  contentType: string;
  /** Event headers the provider sends alongside the signature (never the signature itself). */
  headers: [string, string][];
}

export interface SampleContext {
  endpointId: string;
  nowMs: number;
  random: Random;
  /** Where the sample is going, for payloads that carry their own hook URL (GitHub's ping). */
  receiverUrl: string;
}

const hex = (random: Random, bytes: number): string => random.bytes(bytes).toString('hex');
/** An n-digit number (no leading zero), like providers' numeric ids. */
const digits = (random: Random, n: number): number => {
  const low = 10n ** BigInt(n - 1);
  return Number(low + (BigInt(`0x${hex(random, 7)}`) % (9n * low)));
};
const uuid = (random: Random): string => {
  const h = hex(random, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const json = (value: unknown, headers: [string, string][] = []): SamplePayload => ({
  body: JSON.stringify(value, null, 2),
  contentType: 'application/json',
  headers,
});

/**
 * A realistic first delivery for each scheme, shaped like what the provider sends
 * (a Stripe event, GitHub's ping, a Shopify order, a Slack event callback), so the
 * "send a signed test webhook" button exercises the same path a real one would.
 * Values are made up and say so where a person might look (test ids, example domains).
 */
export function samplePayload(type: ValidationType, ctx: SampleContext): SamplePayload {
  const { random, nowMs, endpointId } = ctx;
  const seconds = Math.floor(nowMs / 1000);
  const iso = new Date(nowMs).toISOString();
  switch (type) {
    case 'stripe':
      return json({
        id: `evt_test_${hex(random, 12)}`,
        object: 'event',
        api_version: '2024-06-20',
        created: seconds,
        data: {
          object: {
            id: `pi_test_${hex(random, 12)}`,
            object: 'payment_intent',
            amount: 2000,
            amount_received: 2000,
            currency: 'usd',
            description: 'Hookscope test delivery',
            livemode: false,
            status: 'succeeded',
          },
        },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'payment_intent.succeeded',
      });
    case 'github': {
      const hookId = digits(random, 9);
      return json(
        {
          zen: 'Design for failure.',
          hook_id: hookId,
          hook: {
            type: 'Repository',
            id: hookId,
            name: 'web',
            active: true,
            events: ['push', 'pull_request'],
            config: { content_type: 'json', insecure_ssl: '0', url: ctx.receiverUrl },
            created_at: iso,
            updated_at: iso,
          },
          repository: { id: digits(random, 9), name: 'hello-world', full_name: 'octocat/hello-world', private: false },
          sender: { login: 'octocat', id: 1, type: 'User' },
        },
        [
          ['X-GitHub-Event', 'ping'],
          ['X-GitHub-Delivery', uuid(random)],
          ['X-GitHub-Hook-ID', String(hookId)],
        ],
      );
    }
    case 'shopify': {
      const orderId = digits(random, 13);
      return json(
        {
          id: orderId,
          admin_graphql_api_id: `gid://shopify/Order/${orderId}`,
          email: 'jon@example.com',
          created_at: iso,
          currency: 'USD',
          financial_status: 'paid',
          total_price: '20.00',
          test: true,
          line_items: [{ id: digits(random, 13), title: 'Hookscope test item', quantity: 1, price: '20.00' }],
        },
        [
          ['X-Shopify-Topic', 'orders/create'],
          ['X-Shopify-Shop-Domain', 'hookscope-test.myshopify.com'],
          ['X-Shopify-API-Version', '2024-07'],
          ['X-Shopify-Webhook-Id', uuid(random)],
          ['X-Shopify-Triggered-At', iso],
        ],
      );
    }
    case 'slack':
      return json({
        token: 'unused-verification-token',
        team_id: 'T0HOOKSCOPE',
        api_app_id: 'A0HOOKSCOPE',
        event: {
          type: 'app_mention',
          user: 'U0HOOKSCOPE',
          text: '<@U0BOT> a signed test event from Hookscope',
          ts: `${seconds}.000100`,
          channel: 'C0HOOKSCOPE',
          event_ts: `${seconds}.000100`,
        },
        type: 'event_callback',
        event_id: `Ev${hex(random, 5).toUpperCase()}`,
        event_time: seconds,
      });
    case 'standard_webhooks':
      return json({
        type: 'hookscope.test',
        timestamp: iso,
        data: { endpointId, message: 'A signed test webhook from Hookscope.' },
      });
    case 'hmac_sha256':
    case 'none':
      return json({
        id: `evt_${hex(random, 12)}`,
        type: 'hookscope.test',
        createdAt: iso,
        data: { endpointId, message: `A ${type === 'none' ? 'test' : 'signed test'} webhook from Hookscope.` },
      });
    default:
      return assertNever(type, 'validation type');
  }
}
