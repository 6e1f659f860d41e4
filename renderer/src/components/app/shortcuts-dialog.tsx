import { Fragment, useEffect, useRef, type ReactNode } from 'react';
import { keyLabel, PLACE_KEYS, SHORTCUTS } from '../../lib/keyboard.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';

/** `j` or `↓`: each key in its own <kbd>. */
const keyList = (keys: string[]): ReactNode =>
  keys.map((k, i) => (
    <Fragment key={k}>
      {i > 0 && ' or '}
      <kbd>{keyLabel(k)}</kbd>
    </Fragment>
  ));

export function ShortcutsDialog() {
  const { ui } = useStores();
  const open = useSlice(ui, (s) => s.shortcutsOpen);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-label="Keyboard shortcuts" onClose={() => ui.getState().setShortcutsOpen(false)}>
      <h2>Keyboard shortcuts</h2>
      <p className="hint">Shortcuts do nothing while you type in a field, except Esc.</p>
      <table className="kv">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.action}>
              <th scope="row">{keyList(s.keys)}</th>
              <td>{s.does}</td>
            </tr>
          ))}
          {PLACE_KEYS.map((s) => (
            <tr key={s.does}>
              <th scope="row">{keyList(s.keys)}</th>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => ui.getState().setShortcutsOpen(false)}>
        Close
      </button>
    </dialog>
  );
}
