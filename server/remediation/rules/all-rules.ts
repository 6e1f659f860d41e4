import type { FallbackRule, Rule } from '../remediation-types.ts';
import { bodyModifiedRule } from './body-modified.ts';
import { encodingMismatchRule } from './encoding-mismatch.ts';
import { payloadTooLargeRule } from './payload-too-large.ts';
import { previousSecretRule } from './previous-secret.ts';
import { targetErrorRule } from './target-error.ts';
import { targetRejectedSignatureRule } from './target-rejected-signature.ts';
import { targetTimeoutRule } from './target-timeout.ts';
import { targetUnreachableRule } from './target-unreachable.ts';
import { timestampSkewRule } from './timestamp-skew.ts';
import { wrongHeaderNameRule } from './wrong-header-name.ts';
import { wrongProviderRule } from './wrong-provider.ts';
import { wrongSecretRule } from './wrong-secret.ts';

/** Every rule the engine runs; each is independent and pure. */
export const RULES: readonly Rule[] = [
  payloadTooLargeRule,
  previousSecretRule,
  encodingMismatchRule,
  bodyModifiedRule,
  timestampSkewRule,
  wrongProviderRule,
  wrongHeaderNameRule,
  targetUnreachableRule,
  targetTimeoutRule,
  targetRejectedSignatureRule,
  targetErrorRule,
];

/** Rules that speak only when the others left a failure unexplained. */
export const FALLBACK_RULES: readonly FallbackRule[] = [wrongSecretRule];
