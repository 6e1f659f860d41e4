import { downloadBytes } from '../../lib/download.ts';
import { useStores } from '../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';

/** Compare (two ticked), Delete and Export (any ticked). */
export function SelectionBar({ checked }: { checked: string[] }) {
  const { deliveries, compare, notices } = useStores();
  const stopped = useEngineStopped();
  const exportChecked = async (): Promise<void> => {
    const files: unknown[] = [];
    for (const id of checked) {
      const text = await deliveries.getState().exportText(id, 'json');
      if (text === null) return;
      files.push(JSON.parse(text));
    }
    downloadBytes(
      new TextEncoder().encode(JSON.stringify(files, null, 2)),
      `hookscope-${checked.length}-deliveries.json`,
      'application/json',
    );
    notices.getState().info(`Exported ${checked.length} deliveries as JSON.`);
  };
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected deliveries">
      <span>{checked.length} selected</span>
      <button
        type="button"
        {...engineControl(stopped, {
          disabled: checked.length !== 2,
          title: checked.length === 2 ? undefined : 'Tick exactly two deliveries',
        })}
        onClick={() => {
          // The older of the two is A: the diff reads as "what changed since".
          const logs = deliveries.getState().logs;
          const [x, y] = [...checked]
            .sort((p, q) => logs.findIndex((l) => l.id === q) - logs.findIndex((l) => l.id === p))
            .map((id) => logs.find((l) => l.id === id));
          if (x && y) void compare.getState().compare(x, y);
        }}
      >
        Compare
      </button>
      <button type="button" className="secondary" {...engineControl(stopped)} onClick={() => void exportChecked()}>
        Export
      </button>
      <button
        type="button"
        className="secondary danger"
        {...engineControl(stopped)}
        onClick={() => {
          if (window.confirm(`Delete ${checked.length} deliveries for good?`))
            void deliveries.getState().remove(checked);
        }}
      >
        Delete
      </button>
      <button type="button" className="secondary" onClick={() => deliveries.getState().clearChecked()}>
        Clear selection
      </button>
    </div>
  );
}
