import { useId, type ReactNode } from 'react';

export interface EndpointTextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Why the last value was refused, in the form's words: under the box, tied to it for screen readers. */
  error: string | null;
  /** What the box is for, under it. */
  hint?: string;
  type?: 'text' | 'url' | 'password';
  placeholder?: string;
  required?: boolean;
  autoFocus?: boolean;
  autoComplete?: string;
  /** Buttons beside the box (Generate, Show). */
  after?: ReactNode;
  /** Lets the form put the cursor here when the engine refuses this box. */
  inputRef?: (input: HTMLInputElement | null) => void;
}

/** One labelled box of the endpoint forms, with its hint and its error as the box's description. */
export function EndpointTextField({
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  placeholder,
  required,
  autoFocus,
  autoComplete = 'off',
  after,
  inputRef,
}: EndpointTextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error !== null ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error !== null ? 'text-field invalid' : 'text-field'}>
      <label htmlFor={id}>{label}</label>
      <div className="text-field-row">
        <input
          id={id}
          ref={inputRef}
          type={type}
          value={value}
          placeholder={placeholder}
          required={required}
          autoFocus={autoFocus}
          autoComplete={autoComplete}
          spellCheck={false}
          aria-invalid={error !== null ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        />
        {after}
      </div>
      {error !== null && (
        <p id={errorId} className="field-problem">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}
