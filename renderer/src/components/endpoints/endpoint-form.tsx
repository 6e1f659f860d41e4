import type { Endpoint } from '../../api/client.ts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { EMPTY_DRAFT, responseFromDraft } from '../../lib/custom-response.ts';
import { endpointProblem, type EndpointField, type FormProblem } from '../../lib/endpoint-problems.ts';
import { hasSigningSecret } from '../../lib/endpoint-secrets.ts';
import { generateSecret, VALIDATION_TYPES, type ValidationType } from '../../lib/validation-types.ts';
import { useStores } from '../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { CustomResponseFields } from './custom-response-fields.tsx';
import { EndpointTextField } from './endpoint-text-field.tsx';

/**
 * "New endpoint": name, validation type (with what it means), secret where the type
 * signs, optional forward URL and custom response. The engine checks the values; a
 * refusal is said once, in the form's words, under the box it is about (the cursor
 * goes there), or above the buttons when it is about no box: never as a notice too.
 */
export function EndpointForm({ onDone }: { onDone: (created: Endpoint | null) => void }) {
  const { endpoints } = useStores();
  const stopped = useEngineStopped();
  const [name, setName] = useState('');
  const [type, setType] = useState<ValidationType>('none');
  const [secret, setSecret] = useState('');
  const [forwardUrl, setForwardUrl] = useState('');
  const [response, setResponse] = useState(EMPTY_DRAFT);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const boxes = useRef<Partial<Record<EndpointField, HTMLInputElement | null>>>({});
  const explainsId = useId();
  const explains = VALIDATION_TYPES.find((t) => t.id === type)?.explains;
  const signed = hasSigningSecret(type);

  const errorFor = (field: EndpointField): string | null => (problem?.field === field ? problem.message : null);
  /** A change to the box a refusal is about takes the refusal away: it was about the value before. */
  const edit =
    (field: EndpointField, set: (value: string) => void) =>
    (value: string): void => {
      set(value);
      if (problem?.field === field) setProblem(null);
    };
  const show = (p: FormProblem): void => {
    setProblem(p);
    if (p.field !== null) boxes.current[p.field]?.focus();
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const customResponse = responseFromDraft(response);
    if (!customResponse.ok) {
      setProblem({ field: 'customResponse', message: customResponse.error });
      return;
    }
    setProblem(null);
    setBusy(true);
    const created = await endpoints.getState().create(
      {
        name,
        validationType: type,
        ...(signed ? { webhookSecret: secret } : {}),
        ...(forwardUrl.trim() !== '' ? { forwardUrl: forwardUrl.trim() } : {}),
        ...(customResponse.value !== null ? { customResponse: customResponse.value } : {}),
      },
      (err) =>
        show(endpointProblem(err, { validationType: type, values: { name, webhookSecret: secret, forwardUrl } })),
    );
    setBusy(false);
    if (created) onDone(created);
  };

  return (
    // noValidate: the browser's own bubbles would be a second voice, in other words; the engine's refusals are said here.
    <form className="endpoint-form" onSubmit={(e) => void submit(e)} aria-label="New endpoint" noValidate>
      <EndpointTextField
        label="Name"
        value={name}
        onChange={edit('name', setName)}
        error={errorFor('name')}
        required
        autoFocus
        inputRef={(el) => {
          boxes.current.name = el;
        }}
      />
      <label className="stacked">
        Validation type
        <select
          value={type}
          onChange={(e) => {
            setType(e.target.value as ValidationType);
            if (problem?.field === 'webhookSecret') setProblem(null);
          }}
          aria-describedby={explainsId}
        >
          {VALIDATION_TYPES.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <p id={explainsId} className="hint">
        {explains}
      </p>
      {signed && (
        <EndpointTextField
          label="Secret"
          value={secret}
          onChange={edit('webhookSecret', setSecret)}
          error={errorFor('webhookSecret')}
          required
          inputRef={(el) => {
            boxes.current.webhookSecret = el;
          }}
          after={
            <button
              type="button"
              className="secondary"
              onClick={() => edit('webhookSecret', setSecret)(generateSecret())}
            >
              Generate
            </button>
          }
        />
      )}
      <EndpointTextField
        label="Forward URL (optional)"
        type="url"
        value={forwardUrl}
        onChange={edit('forwardUrl', setForwardUrl)}
        error={errorFor('forwardUrl')}
        placeholder="http://localhost:3000/webhooks"
        hint="Every accepted delivery is also sent there as it arrives."
        inputRef={(el) => {
          boxes.current.forwardUrl = el;
        }}
      />
      <CustomResponseFields draft={response} onChange={setResponse} error={errorFor('customResponse')} />
      {problem !== null && problem.field === null && (
        <p className="form-error" role="alert">
          {problem.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" {...engineControl(stopped, { disabled: busy })}>
          {busy ? 'Creating…' : 'Create'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
