/** What a key does in an open menu (WAI-ARIA menu button pattern). */
export type MenuCommand =
  | { kind: 'focus'; index: number }
  /** Escape: the menu closes and focus goes back to its button. Tab: it closes and focus moves on as usual. */
  | { kind: 'close'; returnFocus: boolean }
  | null;

/** A key pressed on item `index` of `count` items; null: not the menu's key. */
export function menuKey(key: string, index: number, count: number): MenuCommand {
  switch (key) {
    case 'ArrowDown':
      return { kind: 'focus', index: (index + 1) % count };
    case 'ArrowUp':
      return { kind: 'focus', index: (index - 1 + count) % count };
    case 'Home':
      return { kind: 'focus', index: 0 };
    case 'End':
      return { kind: 'focus', index: count - 1 };
    case 'Escape':
      return { kind: 'close', returnFocus: true };
    case 'Tab':
      return { kind: 'close', returnFocus: false };
    default:
      return null;
  }
}

/** A key on the closed menu's button: the item to open on (ArrowUp: the last), or null (Enter and Space click it). */
export function menuButtonKey(key: string, count: number): number | null {
  if (key === 'ArrowDown') return 0;
  if (key === 'ArrowUp') return count - 1;
  return null;
}
