import type { Verifier } from './verifier-types.ts';

export const noneVerifier: Verifier = {
  scheme: 'none',
  verify: () => ({ scheme: 'none', result: 'skipped', reason: null, matchedSecret: null, detail: null }),
};
