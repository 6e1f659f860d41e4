/** What a key does in the inspector (issue 10's list); null: the key is not ours. */
export type ShortcutAction =
  'next' | 'previous' | 'open' | 'search' | 'replay' | 'edit' | 'share' | 'explain' | 'pin' | 'help' | 'close';

export const SHORTCUTS: { keys: string; action: ShortcutAction; does: string }[] = [
  { keys: 'j', action: 'next', does: 'Next (older) delivery' },
  { keys: 'k', action: 'previous', does: 'Previous (newer) delivery' },
  { keys: 'Enter', action: 'open', does: 'Open the selected delivery' },
  { keys: '/', action: 'search', does: 'Search deliveries' },
  { keys: 'r', action: 'replay', does: 'Replay' },
  { keys: 'e', action: 'edit', does: 'Edit and replay' },
  { keys: 's', action: 'share', does: 'Share' },
  { keys: 'x', action: 'explain', does: 'Explain a failed delivery' },
  { keys: 'p', action: 'pin', does: 'Pin or unpin' },
  { keys: '?', action: 'help', does: 'Show these shortcuts' },
  { keys: 'Esc', action: 'close', does: 'Close the open panel or dialog' },
];

/**
 * The action for a key press. Typing in a field is never a shortcut (Esc aside),
 * nor is a key with Ctrl, Alt or Meta (the browser's and the OS's own).
 */
export function shortcutFor(
  e: { key: string; ctrlKey: boolean; altKey: boolean; metaKey: boolean },
  inField: boolean,
): ShortcutAction | null {
  if (e.key === 'Escape') return 'close';
  if (inField || e.ctrlKey || e.altKey || e.metaKey) return null;
  if (e.key === 'Enter') return 'open';
  return SHORTCUTS.find((s) => s.keys === e.key)?.action ?? null;
}

/** `#/logs/<logId>`: the address of an open delivery. */
export function logIdFromHash(hash: string): string | null {
  const m = /^#\/logs\/([A-Za-z0-9_-]{1,100})$/.exec(hash);
  return m ? m[1]! : null;
}
