import type { RuleCause, RuleContext } from '../remediation-types.ts';

/**
 * The receiver stopped reading before it could verify: the sender was too slow
 * (408) or the receiver held its whole in-memory body budget (503). Each names
 * the limit and the setting, since both are there to protect the laptop from
 * whoever learns the public URL, and a legitimate sender may need them raised.
 */
export function receiverRefusedRule(ctx: RuleContext): RuleCause[] {
  const { reason } = ctx.log.verification;
  const l = ctx.limits;
  const arrived = {
    label: 'Bytes received',
    value: `${ctx.log.size}${ctx.log.declaredSize !== null ? ` of ${ctx.log.declaredSize} declared` : ''}`,
  };
  const unverified = 'The receiver answered before the body was complete, so the signature was not checked.';
  switch (reason) {
    case 'body_timeout':
      return [
        {
          code: 'receiver_refused',
          title: `The sender paused for more than ${l.bodyIdleTimeoutMs} ms in the middle of the body`,
          confidence: 1,
          evidence: [
            arrived,
            { label: 'Idle limit (receiver.bodyIdleTimeoutMs)', value: `${l.bodyIdleTimeoutMs} ms` },
            'The receiver answered 408 and cut the connection.',
            unverified,
          ],
          steps: [
            'Look at what sits between the sender and this machine (a proxy, a VPN, a slow tunnel): the sender stopped writing.',
            'If the sender is legitimately slow, raise HOOKSCOPE_RECEIVER_BODY_IDLE_TIMEOUT (receiver.bodyIdleTimeoutMs in config.json) and restart the engine.',
            'Providers retry 4xx/5xx answers: the next attempt usually arrives whole.',
          ],
        },
      ];
    case 'request_timeout':
      return [
        {
          code: 'receiver_refused',
          title: `The body did not arrive within ${l.requestTimeoutMs} ms of the headers`,
          confidence: 1,
          evidence: [
            arrived,
            { label: 'Request limit (receiver.requestTimeoutMs)', value: `${l.requestTimeoutMs} ms` },
            'The receiver answered 408 and cut the connection.',
            unverified,
          ],
          steps: [
            'The sender kept the connection trickling: check its network path and upload speed.',
            'If large bodies over a slow link are expected, raise HOOKSCOPE_RECEIVER_REQUEST_TIMEOUT (receiver.requestTimeoutMs in config.json) and restart the engine.',
          ],
        },
      ];
    case 'server_busy':
      return [
        {
          code: 'receiver_refused',
          title: 'The receiver was holding as many body bytes in memory as it allows',
          confidence: 1,
          evidence: [
            arrived,
            { label: 'In-memory budget (receiver.maxInFlightBodyBytes)', value: `${l.maxInFlightBodyBytes} bytes` },
            'The receiver answered 503 with Retry-After: 1 because other deliveries in flight held the budget.',
            unverified,
          ],
          steps: [
            'Providers retry a 503: the next attempt normally succeeds once the burst has passed.',
            'If many large deliveries arrive at once on purpose, raise HOOKSCOPE_RECEIVER_MAX_INFLIGHT_BYTES (receiver.maxInFlightBodyBytes in config.json); memory use grows with it.',
          ],
        },
      ];
    default:
      return [];
  }
}
