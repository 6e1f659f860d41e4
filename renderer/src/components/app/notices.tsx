import { useEffect } from 'react';
import { useSlice, useStores } from '../../stores/app-stores.ts';

/** How long a result stays up; errors stay until dismissed. */
const INFO_MS = 4000;

/** Results and errors of actions, in words; errors stay until dismissed. */
export function Notices() {
  const { notices } = useStores();
  const list = useSlice(notices, (s) => s.notices);
  useEffect(() => {
    const timers = list
      .filter((n) => n.kind === 'info')
      .map((n) => setTimeout(() => notices.getState().dismiss(n.id), INFO_MS));
    return () => timers.forEach(clearTimeout);
  }, [list, notices]);
  return (
    <div className="notices" role="status" aria-live="polite">
      {list.map((n) => (
        <div key={n.id} className={`notice notice-${n.kind}`}>
          <span>{n.text}</span>
          <button type="button" onClick={() => notices.getState().dismiss(n.id)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
