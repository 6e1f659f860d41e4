import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { downloadBytes } from '../../../lib/download.ts';
import { EXPORT_CHOICES, exportBytes, exportFilename, type DownloadFormat } from '../../../lib/export-file.ts';
import { menuButtonKey, menuKey } from '../../../lib/menu-keys.ts';
import { useSlice, useStores } from '../../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../../shared/engine-gate.ts';

/**
 * "Export": a menu button (WAI-ARIA menu button pattern) whose items download the
 * delivery as JSON, HAR or raw HTTP, named hookscope-<logId>.<format>.
 */
export function ExportMenu({ logId }: { logId: string }) {
  const { exports, notices } = useStores();
  const busy = useSlice(exports, (s) => s.busy === logId);
  const stopped = useEngineStopped();
  // The item to focus while open; null: closed.
  const [focused, setFocused] = useState<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const menuId = useId();
  const open = focused !== null;

  useEffect(() => {
    if (focused !== null) items.current[focused]?.focus();
  }, [focused]);

  // A click anywhere else closes it, as a menu does.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent): void => {
      if (!wrap.current?.contains(e.target as Node)) setFocused(null);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const close = (returnFocus: boolean): void => {
    setFocused(null);
    if (returnFocus) button.current?.focus();
  };

  const download = async (format: DownloadFormat): Promise<void> => {
    close(true);
    const file = await exports.getState().file(logId, format);
    if (file === null) return;
    const name = exportFilename(logId, format);
    downloadBytes(exportBytes(file), name, file.contentType);
    notices.getState().info(`Exported the delivery as ${name}.`);
  };

  const onMenuKey = (e: KeyboardEvent): void => {
    const command = menuKey(e.key, focused ?? 0, EXPORT_CHOICES.length);
    if (command === null) return;
    // The inspector's own Escape (close the panel) must not run too.
    e.stopPropagation();
    if (command.kind === 'focus') {
      e.preventDefault();
      setFocused(command.index);
    } else {
      if (command.returnFocus) e.preventDefault();
      close(command.returnFocus);
    }
  };

  return (
    <div className="menu-wrap" ref={wrap}>
      <button
        type="button"
        className="secondary"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        {...engineControl(stopped, { disabled: busy })}
        onClick={() => (open ? close(false) : setFocused(0))}
        onKeyDown={(e) => {
          const first = menuButtonKey(e.key, EXPORT_CHOICES.length);
          if (first === null) return;
          e.preventDefault();
          setFocused(first);
        }}
      >
        {busy ? 'Exporting…' : 'Export'}
      </button>
      {open && (
        <div className="menu" role="menu" id={menuId} aria-label="Export as" onKeyDown={onMenuKey}>
          {EXPORT_CHOICES.map((c, i) => (
            <button
              key={c.format}
              type="button"
              role="menuitem"
              tabIndex={i === focused ? 0 : -1}
              ref={(el) => {
                items.current[i] = el;
              }}
              onClick={() => void download(c.format)}
            >
              {c.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
