import { describe, expect, test } from 'vitest';
import { exactTime } from './relative-time.ts';
import { hasSigningSecret, hookscopeIssuesSecret, secretHint, secretSavedLine } from './endpoint-secrets.ts';
import { VALIDATION_TYPES } from './validation-types.ts';

describe('who issues an endpoint’s secret', () => {
  test('Hookscope issues only hmac_sha256’s (Regenerate); every signed type has one to set; none has none', () => {
    expect(VALIDATION_TYPES.filter((t) => hookscopeIssuesSecret(t.id)).map((t) => t.id)).toEqual(['hmac_sha256']);
    expect(VALIDATION_TYPES.filter((t) => !hasSigningSecret(t.id)).map((t) => t.id)).toEqual(['none']);
  });

  test('the hint says where the sender shows it, and that the URL stays', () => {
    expect(secretHint('github')).toBe(
      'Paste the current one: GitHub shows it in the webhook’s Secret field. The URL stays the same.',
    );
    expect(secretHint('hmac_sha256')).toBe(
      'Type the secret your service signs with, or let Hookscope make one (Regenerate). The URL stays the same.',
    );
  });

  test('the line after saving says until when the previous secret verifies, or only that it is saved', () => {
    const expires = '2026-01-02T10:00:00.000Z';
    expect(secretSavedLine(expires)).toBe(
      `Secret saved; the URL stays the same. The previous secret still verifies until ${exactTime(expires)}.`,
    );
    expect(secretSavedLine(null)).toBe('Secret saved; the URL stays the same.');
  });
});
