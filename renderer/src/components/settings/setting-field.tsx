import { useId } from 'react';
import type { FieldSpec } from '../../lib/settings-fields.ts';

export interface SettingFieldProps {
  spec: FieldSpec;
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
  /** Shown under the box: what the field means, or why it cannot be changed here. */
  note: string | null;
  /** The engine's sentence about the last value sent. */
  error: string | null;
}

/** "must be a whole number…" reads as a sentence after the field's label; whole sentences stay as they are. */
function sentence(label: string, error: string): string {
  return /^[a-z]/.test(error) ? `${label} ${error}` : error;
}

/** One labelled text box of the Settings form, with its note and its error tied to it for screen readers. */
export function SettingField({ spec, value, onChange, readOnly, note, error }: SettingFieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, note ? noteId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'setting-field invalid' : 'setting-field'}>
      <label htmlFor={id}>{spec.label}</label>
      <input
        id={id}
        type="text"
        inputMode={spec.kind === 'whole' ? 'numeric' : spec.kind === 'url' ? 'url' : 'text'}
        spellCheck={false}
        autoComplete="off"
        value={value}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p id={errorId} className="field-error">
          {sentence(spec.label, error)}
        </p>
      )}
      {note && (
        <p id={noteId} className="hint">
          {note}
        </p>
      )}
    </div>
  );
}
