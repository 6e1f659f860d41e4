import { useEffect, useRef, type ReactNode } from 'react';
import { RESPONSE_LIMITS, type ResponseDraft } from '../../lib/custom-response.ts';

/**
 * The endpoint's "Custom response" group, collapsed until opened: status, headers
 * (one `Name: value` per line), body and delay. No status: the default answer.
 */
export function CustomResponseFields({
  draft,
  onChange,
  error,
  children,
}: {
  draft: ResponseDraft;
  onChange: (draft: ResponseDraft) => void;
  /** Why the last save was refused: the form's own check or the engine's 400, next to the fields. */
  error: string | null;
  /** The group's own buttons, if any (endpoint settings save it apart). */
  children?: ReactNode;
}) {
  const set = (patch: Partial<ResponseDraft>): void => onChange({ ...draft, ...patch });
  const group = useRef<HTMLDetailsElement>(null);
  // A refusal opens the group so its reason is seen; closing it again stays the user's choice.
  useEffect(() => {
    if (error !== null && group.current) group.current.open = true;
  }, [error]);
  return (
    <details className="custom-response" ref={group}>
      <summary>Custom response</summary>
      <p className="hint">
        What accepted deliveries are answered with instead of 200 and the delivery id, to see how a sender treats a
        slow, failing or odd answer. Refusals (a bad signature, 404, 413...) keep their own. Leave Status empty for the
        default answer.
      </p>
      <div className="panel-row">
        <label className="inline">
          Status
          <input
            type="number"
            inputMode="numeric"
            min={RESPONSE_LIMITS.minStatus}
            max={RESPONSE_LIMITS.maxStatus}
            step="1"
            placeholder="200"
            value={draft.status}
            onChange={(e) => set({ status: e.target.value })}
          />
        </label>
        <label className="inline">
          Delay (ms)
          <input
            type="number"
            inputMode="numeric"
            min="0"
            max={RESPONSE_LIMITS.maxDelayMs}
            step="1"
            placeholder="0"
            value={draft.delayMs}
            onChange={(e) => set({ delayMs: e.target.value })}
          />
        </label>
      </div>
      <label className="stacked">
        Response headers (one Name: value per line)
        <textarea
          rows={3}
          value={draft.headers}
          placeholder="Retry-After: 120"
          spellCheck={false}
          onChange={(e) => set({ headers: e.target.value })}
        />
      </label>
      <label className="stacked">
        Response body
        <textarea rows={3} value={draft.body} spellCheck={false} onChange={(e) => set({ body: e.target.value })} />
      </label>
      {error !== null && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {children}
    </details>
  );
}
