import { describe, expect, test } from 'vitest';
import { ApiError } from '../api/client.ts';
import { overriddenBy, patchFrom, saveErrors } from './settings-fields.ts';
import { sampleSettings as settings } from './settings-sample.ts';

describe('patchFrom: only what the user changed, as typed', () => {
  test('nothing changed (or changed back) is no request', () => {
    expect(patchFrom(settings(), {})).toBe(null);
    expect(patchFrom(settings(), { 'rateLimit.burst': '2000' })).toBe(null);
  });

  test('whole numbers become numbers; anything else goes as typed for the engine to judge', () => {
    expect(patchFrom(settings(), { 'rateLimit.perSecond': ' 5 ', 'retention.maxLogsPerAccount': 'lots' })).toEqual({
      rateLimit: { perSecond: 5 },
      retention: { maxLogsPerAccount: 'lots' },
    });
  });

  test('an empty subdomain is null; the LLM goes as a pair, and both emptied turns it off', () => {
    expect(patchFrom(settings(), { 'tunnel.subdomain': '' })).toBe(null);
    expect(
      patchFrom(settings({ tunnel: { host: 'https://h', subdomain: 'abcd' } }), { 'tunnel.subdomain': ' ' }),
    ).toEqual({ tunnel: { subdomain: null } });
    expect(patchFrom(settings(), { 'llm.url': 'http://127.0.0.1:11434' })).toEqual({
      llm: { url: 'http://127.0.0.1:11434', model: '' },
    });
    const on = settings({ llm: { url: 'http://m', model: 'x', apiKeySet: false } });
    expect(patchFrom(on, { 'llm.model': 'y' })).toEqual({ llm: { url: 'http://m', model: 'y' } });
    expect(patchFrom(on, { 'llm.url': '', 'llm.model': '' })).toEqual({ llm: null });
  });
});

describe('saveErrors: the engine names the field', () => {
  test("a 400's issues, by field", () => {
    const e = new ApiError(400, 'VALIDATION_ERROR', 'Invalid request body "rateLimit.burst": must be…', {
      part: 'body',
      issues: [
        { field: 'rateLimit.burst', message: 'must be a whole number of at least 1.' },
        { field: 'llm.url', message: 'must be an absolute http:// or https:// URL.' },
      ],
    });
    expect(saveErrors(e)).toEqual({
      fields: {
        'rateLimit.burst': 'must be a whole number of at least 1.',
        'llm.url': 'must be an absolute http:// or https:// URL.',
      },
      message: e.message,
    });
  });

  test("a 409's field, and errors about no field", () => {
    const overridden = new ApiError(409, 'SETTING_OVERRIDDEN', 'rateLimit.perSecond is set by …', {
      field: 'rateLimit.perSecond',
    });
    expect(saveErrors(overridden).fields).toEqual({ 'rateLimit.perSecond': 'rateLimit.perSecond is set by …' });
    expect(saveErrors(new ApiError(403, 'FORBIDDEN', 'Only the owner…'))).toEqual({
      fields: {},
      message: 'Only the owner…',
    });
    expect(saveErrors(new Error('offline'))).toEqual({ fields: {}, message: 'offline' });
  });

  test('a field a flag or variable sets is named with where to change it', () => {
    expect(overriddenBy({ from: 'env', name: 'HOOKSCOPE_RATE_LIMIT_PER_SECOND' })).toBe(
      'Set by the environment variable HOOKSCOPE_RATE_LIMIT_PER_SECOND, which wins over this screen: change it there and restart the engine.',
    );
    expect(overriddenBy({ from: 'file', name: 'receiver.rateLimit.perSecond' })).toBe(null);
    expect(overriddenBy(undefined)).toBe(null);
  });
});
