import { describe, expect, test } from 'vitest';
import { logIdFromHash, shortcutFor } from './keyboard.ts';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

describe('keyboard shortcuts', () => {
  test('each key of the list maps to its action', () => {
    expect(
      ['j', 'k', 'Enter', '/', 'r', 'e', 's', 'x', 'p', '?', 'Escape'].map((k) => shortcutFor(key(k), false)),
    ).toEqual(['next', 'previous', 'open', 'search', 'replay', 'edit', 'share', 'explain', 'pin', 'help', 'close']);
    expect(shortcutFor(key('q'), false)).toBe(null);
    expect(shortcutFor(key('J'), false)).toBe(null);
  });

  test('typing in a field or with a modifier is never a shortcut, except Esc', () => {
    expect(shortcutFor(key('j'), true)).toBe(null);
    expect(shortcutFor(key('Enter'), true)).toBe(null);
    expect(shortcutFor(key('Escape'), true)).toBe('close');
    expect(shortcutFor(key('r', { ctrlKey: true }), false)).toBe(null);
    expect(shortcutFor(key('s', { metaKey: true }), false)).toBe(null);
    expect(shortcutFor(key('p', { altKey: true }), false)).toBe(null);
  });

  test('deep links name a delivery', () => {
    expect(logIdFromHash('#/logs/log_01abc')).toBe('log_01abc');
    expect(logIdFromHash('#/logs/')).toBe(null);
    expect(logIdFromHash('#/logs/a/b')).toBe(null);
    expect(logIdFromHash('#/metrics')).toBe(null);
  });
});
