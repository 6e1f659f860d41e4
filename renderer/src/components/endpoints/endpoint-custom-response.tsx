import { useState, type FormEvent } from 'react';
import type { Endpoint } from '../../api/client.ts';
import { draftOf, responseFromDraft, type CustomResponse } from '../../lib/custom-response.ts';
import { endpointProblem } from '../../lib/endpoint-problems.ts';
import { useStores } from '../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { CustomResponseFields } from './custom-response-fields.tsx';

const describe = (r: CustomResponse | null): string =>
  r === null
    ? 'Now: the default answer (200 with the delivery id).'
    : `Now: ${r.status}${r.headers.length > 0 ? `, ${r.headers.length} header${r.headers.length === 1 ? '' : 's'}` : ''}` +
      `${r.body !== '' ? `, a ${r.body.length}-character body` : ''}${r.delayMs > 0 ? `, after ${r.delayMs} ms` : ''}.`;

/** The selected endpoint's custom response: edit and save it, or go back to the default answer. */
export function EndpointCustomResponse({ endpoint }: { endpoint: Endpoint }) {
  const { endpoints } = useStores();
  const stopped = useEngineStopped();
  const [draft, setDraft] = useState(() => draftOf(endpoint.customResponse));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (value: CustomResponse | null): Promise<void> => {
    setBusy(true);
    const ok = await endpoints
      .getState()
      .update(endpoint.id, { customResponse: value }, (err) =>
        setError(endpointProblem(err, { validationType: endpoint.validationType, values: {} }).message),
      );
    setBusy(false);
    if (ok) {
      setError(null);
      setDraft(draftOf(value));
    }
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const parsed = responseFromDraft(draft);
    if (!parsed.ok) setError(parsed.error);
    else void save(parsed.value);
  };

  return (
    <form className="panel-form" onSubmit={submit} aria-label="Custom response">
      <CustomResponseFields draft={draft} onChange={setDraft} error={error}>
        <p className="hint">{describe(endpoint.customResponse)}</p>
        <div className="panel-row">
          <button type="submit" {...engineControl(stopped, { disabled: busy })}>
            Save response
          </button>
          {endpoint.customResponse !== null && (
            <button
              type="button"
              className="secondary"
              {...engineControl(stopped, { disabled: busy })}
              onClick={() => void save(null)}
            >
              Use the default answer
            </button>
          )}
        </div>
      </CustomResponseFields>
    </form>
  );
}
