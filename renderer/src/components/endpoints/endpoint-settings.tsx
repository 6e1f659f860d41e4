import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Endpoint } from '../../api/client.ts';
import { endpointProblem, type EndpointField, type FormProblem } from '../../lib/endpoint-problems.ts';
import { hasSigningSecret } from '../../lib/endpoint-secrets.ts';
import { useStores } from '../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { EndpointCustomResponse } from './endpoint-custom-response.tsx';
import { EndpointSecret } from './endpoint-secret.tsx';
import { EndpointTextField } from './endpoint-text-field.tsx';

/**
 * Rename, describe, forward, switch off, set the signing secret, set the custom
 * response or delete the selected endpoint, all on the same URL.
 */
export function EndpointSettings({ endpoint }: { endpoint: Endpoint }) {
  const { endpoints } = useStores();
  const stopped = useEngineStopped();
  const [name, setName] = useState(endpoint.name);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [forwardUrl, setForwardUrl] = useState(endpoint.forwardUrl ?? '');
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const boxes = useRef<Partial<Record<EndpointField, HTMLInputElement | null>>>({});
  // The switch moves at once; it moves back if the engine refuses.
  const [active, setActive] = useState(endpoint.isActive);
  useEffect(() => setActive(endpoint.isActive), [endpoint.isActive]);
  const forward = forwardUrl.trim();
  const changed =
    name !== endpoint.name || description !== (endpoint.description ?? '') || forward !== (endpoint.forwardUrl ?? '');

  const errorFor = (field: EndpointField): string | null => (problem?.field === field ? problem.message : null);
  const edit =
    (field: EndpointField, set: (value: string) => void) =>
    (value: string): void => {
      set(value);
      if (problem?.field === field) setProblem(null);
    };

  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setProblem(null);
    // Only what changed: an empty forward URL stops forwarding (null), as an empty description clears it.
    const ok = await endpoints.getState().update(
      endpoint.id,
      {
        ...(name !== endpoint.name ? { name } : {}),
        ...(description !== (endpoint.description ?? '')
          ? { description: description === '' ? null : description }
          : {}),
        ...(forward !== (endpoint.forwardUrl ?? '') ? { forwardUrl: forward === '' ? null : forward } : {}),
      },
      (err) => {
        const p = endpointProblem(err, { validationType: endpoint.validationType, values: { name, forwardUrl } });
        setProblem(p);
        if (p.field !== null) boxes.current[p.field]?.focus();
      },
    );
    if (ok) {
      // As the engine keeps them (trimmed), so the form reads unchanged.
      setName(name.trim());
      setForwardUrl(forward);
    }
  };

  return (
    <details className="endpoint-settings">
      <summary>Endpoint settings</summary>
      <form className="panel-form" onSubmit={(e) => void save(e)} aria-label="Endpoint details" noValidate>
        <EndpointTextField
          label="Endpoint name"
          value={name}
          onChange={edit('name', setName)}
          error={errorFor('name')}
          required
          inputRef={(el) => {
            boxes.current.name = el;
          }}
        />
        <EndpointTextField
          label="Description"
          value={description}
          onChange={edit('description', setDescription)}
          error={errorFor('description')}
          inputRef={(el) => {
            boxes.current.description = el;
          }}
        />
        <EndpointTextField
          label="Forward URL"
          type="url"
          value={forwardUrl}
          onChange={edit('forwardUrl', setForwardUrl)}
          error={errorFor('forwardUrl')}
          placeholder="http://localhost:3000/webhooks"
          hint={
            endpoint.forwardUrl === null
              ? 'Not forwarding. Deliveries accepted here can also go to your server as they arrive.'
              : `Forwarding every accepted delivery to ${endpoint.forwardUrl}. Empty the box to stop.`
          }
          inputRef={(el) => {
            boxes.current.forwardUrl = el;
          }}
        />
        {problem !== null && problem.field === null && (
          <p className="form-error" role="alert">
            {problem.message}
          </p>
        )}
        <div className="panel-row">
          <button type="submit" {...engineControl(stopped, { disabled: !changed })}>
            Save
          </button>
          <label className="inline">
            <input
              type="checkbox"
              role="switch"
              checked={active}
              {...engineControl(stopped)}
              onChange={(e) => {
                const next = e.target.checked;
                setActive(next);
                void endpoints
                  .getState()
                  .update(endpoint.id, { isActive: next })
                  .then((ok) => ok || setActive(!next));
              }}
            />
            Active
          </label>
        </div>
      </form>
      {hasSigningSecret(endpoint.validationType) && <EndpointSecret endpoint={endpoint} />}
      <EndpointCustomResponse endpoint={endpoint} />
      <button
        type="button"
        className="secondary danger"
        {...engineControl(stopped)}
        onClick={() => {
          if (window.confirm(`Delete the endpoint "${endpoint.name}" and all its deliveries for good?`)) {
            // The endpoints pane then stops filtering by it (it is gone from the list).
            void endpoints.getState().remove(endpoint.id);
          }
        }}
      >
        Delete endpoint
      </button>
    </details>
  );
}
