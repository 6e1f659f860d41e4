import { describe, expect, test } from 'vitest';
import { offeredTarget, parseUsedTarget, replayTarget, targetBase } from './replay-target.ts';

describe('replayTarget', () => {
  test.each([
    ['http://localhost:3000', '/', 'http://localhost:3000'],
    ['http://localhost:3000/', '/', 'http://localhost:3000'],
    ['http://localhost:3000', '/retry', 'http://localhost:3000/retry'],
    ['http://localhost:3000/', '/retry', 'http://localhost:3000/retry'],
    ['http://localhost:3000/hooks', '/stripe/v1', 'http://localhost:3000/hooks/stripe/v1'],
    ['http://localhost:3000/hooks/', '//stripe', 'http://localhost:3000/hooks/stripe'],
    ['http://localhost:3000/hooks/', '/', 'http://localhost:3000/hooks/'],
    ['not a url', '/x', 'not a url'],
    ['ftp://host/', '/x', 'ftp://host/'],
    // A sender's dot segments never take the target out of the base's path: the base alone is offered.
    ['http://localhost:3000/hooks', '/../admin', 'http://localhost:3000/hooks'],
    ['http://localhost:3000/hooks/', '/%2e%2e/admin', 'http://localhost:3000/hooks/'],
    ['http://localhost:3000/hooks', '/a/../../admin', 'http://localhost:3000/hooks'],
    ['http://localhost:3000/hooks', '/a/../b', 'http://localhost:3000/hooks/b'],
  ])('%s + %s = %s', (base, sub, expected) => {
    expect(replayTarget(base, sub)).toBe(expected);
  });
});

describe('targetBase', () => {
  test.each([
    ['http://localhost:3000/retry', '/retry', 'http://localhost:3000'],
    ['http://localhost:4000/hooks/retry', '/retry', 'http://localhost:4000/hooks'],
    ['http://localhost:3000/other', '/retry', 'http://localhost:3000/other'],
    ['http://localhost:3000', '/', 'http://localhost:3000'],
  ])('%s without %s is %s', (target, sub, base) => {
    expect(targetBase(target, sub)).toBe(base);
  });
});

describe('offeredTarget: the most recent target used wins', () => {
  test.each([
    // Nothing used yet: the local dev server, with the delivery's sub-path.
    [null, '/retry', 'http://localhost:3000/retry'],
    // The same sub-path: exactly what was typed last, even when it does not end in the sub-path.
    [{ target: 'http://localhost:4000/other', subPath: '/retry' }, '/retry', 'http://localhost:4000/other'],
    [{ target: 'http://localhost:4000/hooks/retry', subPath: '/retry' }, '/retry', 'http://localhost:4000/hooks/retry'],
    // Another sub-path: the base of what was used, joined with this one.
    [{ target: 'http://localhost:4000/hooks/retry', subPath: '/retry' }, '/other', 'http://localhost:4000/hooks/other'],
    [{ target: 'http://localhost:4000/other', subPath: '/retry' }, '/', 'http://localhost:4000/other'],
    [{ target: 'http://localhost:4000/in', subPath: '/' }, '/stripe', 'http://localhost:4000/in/stripe'],
  ])('%j for %s is %s', (used, sub, expected) => {
    expect(offeredTarget(used, sub)).toBe(expected);
  });
});

describe('parseUsedTarget', () => {
  test('reads what is stored, and a bare base as earlier versions stored it', () => {
    expect(parseUsedTarget('{"target":"http://localhost:4000/x","subPath":"/x"}')).toEqual({
      target: 'http://localhost:4000/x',
      subPath: '/x',
    });
    expect(parseUsedTarget('http://localhost:4000/hooks')).toEqual({
      target: 'http://localhost:4000/hooks',
      subPath: '/',
    });
    expect(parseUsedTarget('{"target":1}')).toEqual({ target: '{"target":1}', subPath: '/' });
    expect(parseUsedTarget(null)).toBe(null);
    expect(parseUsedTarget('')).toBe(null);
  });
});
