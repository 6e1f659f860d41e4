import { createHmac } from 'node:crypto';
import type { ReplayRecord } from '../../../server/replay/replay-types.ts';
import type { RuleContext } from '../../../server/remediation/remediation-types.ts';

export const T0 = Date.parse('2026-11-23T10:00:00Z');
export const SECRET = 'unit-secret';

export const hmacHex = (secret: string, body: string | Buffer): string =>
  createHmac('sha256', secret).update(body).digest('hex');

type Overrides = {
  log?: Partial<RuleContext['log']>;
  endpoint?: Partial<RuleContext['endpoint']>;
  replays?: ReplayRecord[];
};

/** A failed hmac_sha256 delivery as plain data; tests override what their rule looks at. */
export function context(o: Overrides = {}): RuleContext {
  return {
    log: {
      id: 'log_1',
      endpointId: 'ep_1',
      method: 'POST',
      receivedAt: T0,
      status: 'failed',
      verification: {
        scheme: 'hmac_sha256',
        result: 'invalid',
        reason: 'no_matching_signature',
        detail: null,
        matchedSecret: null,
      },
      headers: {},
      body: Buffer.from('{"a":1}'),
      truncated: false,
      size: 7,
      declaredSize: 7,
      ...o.log,
    },
    endpoint: {
      id: 'ep_1',
      scheme: 'hmac_sha256',
      secrets: [{ value: SECRET, kind: 'current' }],
      previous: null,
      signatureHeader: null,
      toleranceSeconds: null,
      ...o.endpoint,
    },
    replays: o.replays ?? [],
    limits: {
      maxBodyBytes: 1024,
      requestTimeoutMs: 30_000,
      bodyIdleTimeoutMs: 10_000,
      maxInFlightBodyBytes: 64 * 1024 * 1024,
    },
    now: T0 + 60_000,
  };
}

/** A replay attempt as the replay feature records it. */
export function replay(o: Partial<ReplayRecord>): ReplayRecord {
  return {
    id: 'rp_1',
    accountId: 'acc',
    logId: 'log_1',
    endpointId: 'ep_1',
    targetUrl: 'http://localhost:3000/webhooks',
    method: 'POST',
    status: null,
    responseTime: 12,
    error: null,
    trigger: 'manual',
    createdAt: T0 + 30_000,
    edited: false,
    ...o,
  };
}

export const valueOf = (evidence: (string | { label: string; value: string })[], label: string): string | undefined =>
  evidence.find((e): e is { label: string; value: string } => typeof e !== 'string' && e.label === label)?.value;
