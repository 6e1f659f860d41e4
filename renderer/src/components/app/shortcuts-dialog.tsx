import { useEffect, useRef } from 'react';
import { SHORTCUTS } from '../../lib/keyboard.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';

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
      <table className="kv">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.action}>
              <th scope="row">
                <kbd>{s.keys}</kbd>
              </th>
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
