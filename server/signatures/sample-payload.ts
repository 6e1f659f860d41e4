import type { Random } from '../support/random.ts';
import type { SampleContext, SamplePayload } from './signature-scheme.ts';

/*
 * Pieces of the sample deliveries each scheme builds (its `samplePayload`): made-up
 * values shaped like providers' own, drawn from the injected randomness so a test
 * with a fixed Random gets fixed payloads.
 */

export const hex = (random: Random, bytes: number): string => random.bytes(bytes).toString('hex');

/** An n-digit number (no leading zero), like providers' numeric ids. */
export const digits = (random: Random, n: number): number => {
  const low = 10n ** BigInt(n - 1);
  return Number(low + (BigInt(`0x${hex(random, 7)}`) % (9n * low)));
};

export const uuid = (random: Random): string => {
  const h = hex(random, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export const jsonSample = (value: unknown, headers: [string, string][] = []): SamplePayload => ({
  body: JSON.stringify(value, null, 2),
  contentType: 'application/json',
  headers,
});

/** The generic event the schemes without a provider format send (hmac_sha256, none). */
export function genericSample(ctx: SampleContext, signed: boolean): SamplePayload {
  return jsonSample({
    id: `evt_${hex(ctx.random, 12)}`,
    type: 'hookscope.test',
    createdAt: new Date(ctx.nowMs).toISOString(),
    data: { endpointId: ctx.endpointId, message: `A ${signed ? 'signed test' : 'test'} webhook from Hookscope.` },
  });
}
