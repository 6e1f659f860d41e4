import { genericSample } from './sample-payload.ts';
import type { SignatureScheme } from './signature-scheme.ts';

/** No signature: every delivery is accepted and its verification says `skipped`. */
export const noneScheme: SignatureScheme<'none'> = {
  id: 'none',
  headers: { writes: [], reads: [], signature: [] },
  customSignatureHeader: false,
  secret: {
    required: false,
    problem: () => null,
    notRegenerable: 'Endpoints of validationType none check no signature and have no secret to regenerate.',
  },
  timestamp: null,
  verify: () => ({ scheme: 'none', result: 'skipped', reason: null, matchedSecret: null, detail: null }),
  sign: () => [],
  samplePayload: (ctx) => genericSample(ctx, false),
};
