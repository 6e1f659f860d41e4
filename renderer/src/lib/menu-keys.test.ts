import { describe, expect, test } from 'vitest';
import { menuButtonKey, menuKey } from './menu-keys.ts';

describe('menu keys', () => {
  test('arrows move and wrap, Home and End jump', () => {
    expect(menuKey('ArrowDown', 0, 3)).toEqual({ kind: 'focus', index: 1 });
    expect(menuKey('ArrowDown', 2, 3)).toEqual({ kind: 'focus', index: 0 });
    expect(menuKey('ArrowUp', 0, 3)).toEqual({ kind: 'focus', index: 2 });
    expect(menuKey('ArrowUp', 2, 3)).toEqual({ kind: 'focus', index: 1 });
    expect(menuKey('Home', 2, 3)).toEqual({ kind: 'focus', index: 0 });
    expect(menuKey('End', 0, 3)).toEqual({ kind: 'focus', index: 2 });
  });

  test('Escape closes and returns focus to the button; Tab closes and lets focus move on', () => {
    expect(menuKey('Escape', 1, 3)).toEqual({ kind: 'close', returnFocus: true });
    expect(menuKey('Tab', 1, 3)).toEqual({ kind: 'close', returnFocus: false });
  });

  test('other keys are not the menu’s', () => {
    expect(menuKey('j', 0, 3)).toBeNull();
    expect(menuKey('Enter', 0, 3)).toBeNull();
  });

  test('on the closed button, ArrowDown opens on the first item and ArrowUp on the last', () => {
    expect(menuButtonKey('ArrowDown', 3)).toBe(0);
    expect(menuButtonKey('ArrowUp', 3)).toBe(2);
    expect(menuButtonKey('Enter', 3)).toBeNull();
  });
});
