import { describe, expect, test } from 'vitest';
import { replayTarget, targetBase } from './replay-target.ts';

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
