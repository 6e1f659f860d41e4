import { useEffect, useId, useRef } from 'react';
import type { Endpoint } from '../../api/client.ts';
import { EndpointForm } from './endpoint-form.tsx';

/**
 * The New endpoint form in a modal dialog: the 240 px sidebar left no room for its
 * hints and errors. Escape and Cancel close it without creating anything; the form
 * starts empty each time it opens.
 */
export function NewEndpointDialog({ open, onDone }: { open: boolean; onDone: (created: Endpoint | null) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="new-endpoint"
      aria-labelledby={titleId}
      onCancel={(e) => {
        // The dialog closes when `open` turns false, so the state and the page never disagree.
        e.preventDefault();
        onDone(null);
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>New endpoint</h2>
          <EndpointForm onDone={onDone} />
        </>
      )}
    </dialog>
  );
}
