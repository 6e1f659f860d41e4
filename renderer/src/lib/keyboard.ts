/** What a key does in the inspector (issue 10's list, issue 22's keyboard); null: the key is not ours. */
export type ShortcutAction =
  'next' | 'previous' | 'open' | 'search' | 'replay' | 'edit' | 'share' | 'explain' | 'pin' | 'help' | 'close';

/** Each shortcut with the `KeyboardEvent.key` values that press it, as the shortcuts dialog lists them. */
export const SHORTCUTS: { keys: string[]; action: ShortcutAction; does: string }[] = [
  { keys: ['j', 'ArrowDown'], action: 'next', does: 'Next (older) delivery' },
  { keys: ['k', 'ArrowUp'], action: 'previous', does: 'Previous (newer) delivery' },
  { keys: ['Enter'], action: 'open', does: 'Open the delivery and go to its detail' },
  { keys: ['/'], action: 'search', does: 'Search deliveries (Esc goes back to the list, keeping the search)' },
  { keys: ['r'], action: 'replay', does: 'Replay: the cursor goes to the target URL' },
  { keys: ['e'], action: 'edit', does: 'Edit and replay: the cursor goes to the target URL' },
  { keys: ['s'], action: 'share', does: 'Share: the cursor goes to its first field' },
  { keys: ['x'], action: 'explain', does: 'Explain a failed delivery' },
  { keys: ['p'], action: 'pin', does: 'Pin or unpin' },
  { keys: ['?'], action: 'help', does: 'Show these shortcuts' },
  { keys: ['Escape'], action: 'close', does: 'Close the open panel (or this dialog) and go back to the list' },
];

/** Keys that belong to a place rather than to the whole inspector, listed under the shortcuts. */
export const PLACE_KEYS: { keys: string[]; does: string }[] = [
  { keys: ['Tab'], does: 'From the list (one stop) to the open delivery' },
  { keys: [' '], does: 'In the list: tick the delivery (Shift+Space ticks a range)' },
  { keys: ['Enter'], does: 'In a panel: send (in a multi-line box, Ctrl+Enter or ⌘+Enter)' },
];

const KEY_NAMES: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', Escape: 'Esc', ' ': 'Space' };

/** A key as the shortcuts dialog shows it. */
export const keyLabel = (key: string): string => KEY_NAMES[key] ?? key;

/**
 * Where a key was pressed, which decides what it may do:
 * - `field`: typing (a text box, a select, an editable region): only Esc is ours;
 * - `dialog`: anywhere in an open dialog, which has its own keys: only Esc is ours;
 * - `list`: on a row of the deliveries list: every shortcut, Enter and the arrows too;
 * - `page`: nothing focused: every shortcut;
 * - `control`: any other focused element (a button, a tick box, the detail pane):
 *   letters are ours, but Enter and the arrows are the element's own (a click, a scroll).
 */
export type KeyPlace = 'field' | 'dialog' | 'list' | 'page' | 'control';

/** The deliveries list; its rows are `.row` buttons (components/deliveries/delivery-row.tsx). */
const LIST = '[role="list"][aria-label="Deliveries"]';
/** The delivery's detail pane, and the panels opened in it (components/detail/). */
const DETAIL = '[aria-label="Delivery"]';
const PANEL = `${DETAIL} .panel`;
/** Inputs that hold no text: a key pressed on them is not typing. */
const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'range', 'color', 'file']);
/** Typed into by role, or editable (isContentEditable too, which jsdom lacks). */
const TYPED =
  '[role="textbox"], [role="searchbox"], [role="combobox"], [contenteditable]:not([contenteditable="false"])';

/** Whether keys pressed on this element type into it. */
export function isTextField(el: Element): boolean {
  if (el instanceof HTMLInputElement) return !NOT_TYPED.has(el.type);
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLElement && el.isContentEditable) return true;
  return el.closest(TYPED) !== null;
}

/** Where a key event's target is (see KeyPlace). */
export function keyPlace(target: EventTarget | null): KeyPlace {
  if (!(target instanceof Element) || target === document.body || target === document.documentElement) return 'page';
  if (isTextField(target)) return 'field';
  if (target.closest('dialog[open]') !== null) return 'dialog';
  // A row, the list, or what holds it (the scroller, focused when "N new" is clicked).
  if (target.matches(`${LIST} .row`) || target.matches(LIST) || target.querySelector(LIST) !== null) return 'list';
  return 'control';
}

/** Whether the target is in an open panel of the detail, or elsewhere in the detail pane. */
export function detailPart(target: EventTarget | null): 'panel' | 'pane' | null {
  if (!(target instanceof Element)) return null;
  if (target.closest(PANEL) !== null) return 'panel';
  return target.closest(DETAIL) !== null ? 'pane' : null;
}

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/**
 * The action for a key press. Typing in a field is never a shortcut (Esc aside),
 * nor is a key with Ctrl, Alt or Meta (the browser's and the OS's own); on a
 * control, Enter and the arrows are the control's.
 */
export function shortcutFor(e: KeyPress, place: KeyPlace): ShortcutAction | null {
  if (e.key === 'Escape') return 'close';
  if (place === 'field' || place === 'dialog' || e.ctrlKey || e.altKey || e.metaKey) return null;
  if (place === 'control' && (e.key === 'Enter' || e.key === 'ArrowDown' || e.key === 'ArrowUp')) return null;
  return SHORTCUTS.find((s) => s.keys.includes(e.key))?.action ?? null;
}

/**
 * Whether a key press in a panel's form sends it: Enter in a one-line field
 * (Shift too), Ctrl/Cmd+Enter anywhere, a multi-line box included (where Enter
 * alone is a new line). Enter on a button, tick box or select stays theirs.
 */
export function sendsForm(e: KeyPress, target: EventTarget | null): boolean {
  if (e.key !== 'Enter' || e.altKey) return false;
  if (e.ctrlKey || e.metaKey) return true;
  return target instanceof HTMLInputElement && !NOT_TYPED.has(target.type);
}
