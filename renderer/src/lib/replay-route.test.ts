import { describe, expect, test } from 'vitest';
import { replayRoute } from './replay-route.ts';

const TEAM = { kind: 'team', url: 'https://hooks.example.com' } as const;

describe('replayRoute', () => {
  test.each([
    'http://localhost:3000/hook',
    'http://127.0.0.1:4000/',
    'http://127.0.0.5/x',
    'https://localhost/',
    'http://[::1]:8080/',
    ' http://localhost:3000/hook ',
  ])('the desktop app showing a team server sends %s from this computer', (target) => {
    expect(replayRoute(TEAM, target)).toBe('this-computer');
  });

  test.each([
    'https://api.example.com/hook',
    'http://10.0.0.5/',
    'http://localhost.evil.com/',
    'http://user:pw@localhost/',
    'http://0.0.0.0/',
    'not a url',
    '',
  ])('on a team server, %s is sent by the engine (which reaches it, or refuses it in its own words)', (target) => {
    expect(replayRoute(TEAM, target)).toBe('engine');
  });

  test('this computer, the browser, or an engine not read yet: the engine sends, localhost included', () => {
    expect(replayRoute({ kind: 'local' }, 'http://localhost:3000/hook')).toBe('engine');
    expect(replayRoute(null, 'http://localhost:3000/hook')).toBe('engine');
  });
});
