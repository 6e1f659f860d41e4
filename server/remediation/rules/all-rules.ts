import type { NamedFallbackRule, NamedRule } from '../remediation-types.ts';
import { bodyModifiedRule } from './body-modified.ts';
import { encodingMismatchRule } from './encoding-mismatch.ts';
import { payloadTooLargeRule } from './payload-too-large.ts';
import { previousSecretRule } from './previous-secret.ts';
import { receiverRefusedRule } from './receiver-refused.ts';
import { targetErrorRule } from './target-error.ts';
import { targetRejectedSignatureRule } from './target-rejected-signature.ts';
import { targetTimeoutRule } from './target-timeout.ts';
import { targetUnreachableRule } from './target-unreachable.ts';
import { timestampSkewRule } from './timestamp-skew.ts';
import { unsafeSubPathRule } from './unsafe-sub-path.ts';
import { wrongHeaderNameRule } from './wrong-header-name.ts';
import { wrongProviderRule } from './wrong-provider.ts';
import { wrongSecretRule } from './wrong-secret.ts';

/** Every rule the engine runs; each is independent and pure. Names appear when a rule had to be skipped. */
export const RULES: readonly NamedRule[] = [
  { name: 'payload_too_large', run: payloadTooLargeRule },
  { name: 'receiver_refused', run: receiverRefusedRule },
  { name: 'previous_secret', run: previousSecretRule },
  { name: 'encoding_mismatch', run: encodingMismatchRule },
  { name: 'body_modified', run: bodyModifiedRule },
  { name: 'timestamp_skew', run: timestampSkewRule },
  { name: 'wrong_provider', run: wrongProviderRule },
  { name: 'wrong_header_name', run: wrongHeaderNameRule },
  { name: 'target_unreachable', run: targetUnreachableRule },
  { name: 'target_timeout', run: targetTimeoutRule },
  { name: 'target_rejected_signature', run: targetRejectedSignatureRule },
  { name: 'target_error', run: targetErrorRule },
  { name: 'unsafe_sub_path', run: unsafeSubPathRule },
];

/** Rules that speak only when the others left a failure unexplained. */
export const FALLBACK_RULES: readonly NamedFallbackRule[] = [{ name: 'wrong_secret', run: wrongSecretRule }];
