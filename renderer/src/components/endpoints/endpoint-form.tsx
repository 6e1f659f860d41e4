import type { Endpoint } from '../../api/client.ts';
import { useState, type FormEvent } from 'react';
import { EMPTY_DRAFT, isAboutCustomResponse, responseFromDraft } from '../../lib/custom-response.ts';
import { generateSecret, VALIDATION_TYPES, type ValidationType } from '../../lib/validation-types.ts';
import { useStores } from '../../stores/app-stores.ts';
import { CustomResponseFields } from './custom-response-fields.tsx';

/**
 * "New endpoint": name, validation type (with what it means), secret where the type
 * signs, optional forward URL and custom response.
 */
export function EndpointForm({ onDone }: { onDone: (created: Endpoint | null) => void }) {
  const { endpoints } = useStores();
  const [name, setName] = useState('');
  const [type, setType] = useState<ValidationType>('none');
  const [secret, setSecret] = useState('');
  const [forwardUrl, setForwardUrl] = useState('');
  const [response, setResponse] = useState(EMPTY_DRAFT);
  // Why the engine (or the form's own check) refused: beside the custom response when it is about it, else above the buttons.
  const [refusal, setRefusal] = useState<string | null>(null);
  const [responseError, setResponseError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const explains = VALIDATION_TYPES.find((t) => t.id === type)?.explains;

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const customResponse = responseFromDraft(response);
    setRefusal(null);
    setResponseError(customResponse.ok ? null : customResponse.error);
    if (!customResponse.ok) return;
    setBusy(true);
    const created = await endpoints.getState().create(
      {
        name,
        validationType: type,
        ...(type !== 'none' ? { webhookSecret: secret } : {}),
        ...(forwardUrl.trim() !== '' ? { forwardUrl: forwardUrl.trim() } : {}),
        ...(customResponse.value !== null ? { customResponse: customResponse.value } : {}),
      },
      (message) => (isAboutCustomResponse(message) ? setResponseError : setRefusal)(message),
    );
    setBusy(false);
    if (created) onDone(created);
  };

  return (
    <form className="endpoint-form" onSubmit={(e) => void submit(e)} aria-label="New endpoint">
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
      </label>
      <label>
        Validation type
        <select
          value={type}
          onChange={(e) => setType(e.target.value as ValidationType)}
          aria-describedby="type-explains"
        >
          {VALIDATION_TYPES.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <p id="type-explains" className="hint">
        {explains}
      </p>
      {type !== 'none' && (
        <div className="secret-row">
          <label>
            Secret
            <input value={secret} onChange={(e) => setSecret(e.target.value)} required spellCheck={false} />
          </label>
          <button type="button" className="secondary" onClick={() => setSecret(generateSecret())}>
            Generate
          </button>
        </div>
      )}
      <label>
        Forward URL (optional)
        <input
          value={forwardUrl}
          onChange={(e) => setForwardUrl(e.target.value)}
          placeholder="http://localhost:3000/webhooks"
          type="url"
        />
      </label>
      <CustomResponseFields draft={response} onChange={setResponse} error={responseError} />
      {refusal !== null && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
