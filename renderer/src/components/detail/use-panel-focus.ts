import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { sendsForm } from '../../lib/keyboard.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';

/**
 * The ref of a panel's first field, which takes focus once the panel is drawn
 * when it was just opened (a button, or r, e, s: ui-store's focus request), so
 * what is typed next goes into it rather than to the shortcuts. A panel drawn
 * again for the next delivery (j, k) leaves focus where it is.
 */
export function usePanelFocus<T extends HTMLElement>(): RefObject<T | null> {
  const { ui } = useStores();
  const wanted = useSlice(ui, (s) => s.focusRequest === 'panel');
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!wanted || ref.current === null) return;
    ref.current.focus();
    ui.getState().focusTaken();
  }, [wanted, ui]);
  return ref;
}

/**
 * A panel form's keydown: Enter in a one-line field, or Ctrl/Cmd+Enter anywhere
 * (a multi-line box included), sends the form, unless its Send is disabled.
 */
export function sendOnEnter(e: KeyboardEvent<HTMLFormElement>): void {
  if (!sendsForm(e, e.target)) return;
  e.preventDefault();
  const send = e.currentTarget.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (send?.disabled !== true) e.currentTarget.requestSubmit();
}
