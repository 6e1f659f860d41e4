import { useState } from 'react';
import { useStores } from '../../stores/app-stores.ts';

/** Copies `text`; says "Copied" for a moment, and says why when the clipboard refuses. */
/** `label` is the accessible name; `short`, when given, is the visible text (a table row's "Copy"). */
export function CopyButton({
  text,
  label,
  short,
  className,
}: {
  text: string;
  label: string;
  short?: string;
  className?: string;
}) {
  const { notices } = useStores();
  const [copied, setCopied] = useState(false);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch (e) {
      notices.getState().error(label, e);
    }
  };
  return (
    <button type="button" className={className ?? 'secondary'} onClick={() => void copy()} aria-label={label}>
      {copied ? 'Copied' : (short ?? label)}
    </button>
  );
}
