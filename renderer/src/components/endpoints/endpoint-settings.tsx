import { useEffect, useState } from 'react';
import type { Endpoint } from '../../api/client.ts';
import { useStores } from '../../stores/app-stores.ts';
import { CopyButton } from '../shared/copy-button.tsx';
import { EndpointCustomResponse } from './endpoint-custom-response.tsx';

/** Rename, describe, switch off, set its custom response, roll the secret (shown once) or delete the selected endpoint. */
export function EndpointSettings({ endpoint }: { endpoint: Endpoint }) {
  const { endpoints } = useStores();
  const [name, setName] = useState(endpoint.name);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [secret, setSecret] = useState<string | null>(null);
  // The switch moves at once; it moves back if the engine refuses.
  const [active, setActive] = useState(endpoint.isActive);
  useEffect(() => setActive(endpoint.isActive), [endpoint.isActive]);
  const changed = name !== endpoint.name || description !== (endpoint.description ?? '');

  return (
    <details className="endpoint-settings">
      <summary>Endpoint settings</summary>
      <form
        className="panel-form"
        onSubmit={(e) => {
          e.preventDefault();
          void endpoints.getState().update(endpoint.id, { name, description: description === '' ? null : description });
        }}
      >
        <label>
          Endpoint name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Description
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <div className="panel-row">
          <button type="submit" disabled={!changed}>
            Save
          </button>
          <label className="inline">
            <input
              type="checkbox"
              role="switch"
              checked={active}
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
      <EndpointCustomResponse endpoint={endpoint} />
      {endpoint.validationType !== 'none' && (
        <div className="panel-row">
          <button
            type="button"
            className="secondary"
            onClick={() => void endpoints.getState().regenerate(endpoint.id).then(setSecret)}
          >
            Regenerate secret
          </button>
        </div>
      )}
      {secret && (
        <div className="secret-once" role="alert">
          <p>The new secret, shown this once:</p>
          <code>{secret}</code>
          <CopyButton text={secret} label="Copy secret" />
        </div>
      )}
      <button
        type="button"
        className="secondary danger"
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
