import { useRef, useState, type FormEvent } from 'react';
import type { Endpoint } from '../../api/client.ts';
import { endpointProblem, type FormProblem } from '../../lib/endpoint-problems.ts';
import { hookscopeIssuesSecret, secretHint, secretSavedLine } from '../../lib/endpoint-secrets.ts';
import { useStores } from '../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { CopyButton } from '../shared/copy-button.tsx';
import { EndpointTextField } from './endpoint-text-field.tsx';

/**
 * The "Signing secret" group of Endpoint settings, for every signed type: paste the
 * secret the sender issued (rolled at Stripe, or entered wrong) and keep the URL. The
 * secret is never shown back (the engine never answers it); the line after saving says
 * until when the previous one still verifies. Regenerate appears only where Hookscope
 * issues the secret (hmac_sha256): the engine refuses it for the others.
 */
export function EndpointSecret({ endpoint }: { endpoint: Endpoint }) {
  const { endpoints } = useStores();
  const stopped = useEngineStopped();
  const [secret, setSecret] = useState('');
  const [shown, setShown] = useState(false);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // A regenerated secret, shown this once.
  const [issued, setIssued] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLInputElement | null>(null);
  const type = endpoint.validationType;

  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setProblem(null);
    setSaved(null);
    setIssued(null);
    setBusy(true);
    const r = await endpoints.getState().setSecret(endpoint.id, secret, (err) => {
      const p = endpointProblem(err, { validationType: type, values: { webhookSecret: secret } });
      setProblem(p);
      if (p.field !== null) box.current?.focus();
    });
    setBusy(false);
    if (r) {
      setSecret('');
      setShown(false);
      setSaved(secretSavedLine(r.previousSecretExpiresAt));
    }
  };
  const regenerate = async (): Promise<void> => {
    setProblem(null);
    setSaved(null);
    setIssued(await endpoints.getState().regenerate(endpoint.id));
  };

  return (
    <details className="signing-secret">
      <summary>Signing secret</summary>
      <form className="panel-form" onSubmit={(e) => void save(e)} noValidate>
        <EndpointTextField
          label="Signing secret"
          type={shown ? 'text' : 'password'}
          value={secret}
          onChange={(v) => {
            setSecret(v);
            setProblem(null);
          }}
          error={problem?.field === 'webhookSecret' ? problem.message : null}
          hint={secretHint(type)}
          autoComplete="new-password"
          inputRef={(el) => {
            box.current = el;
          }}
          after={
            <button
              type="button"
              className="secondary"
              aria-label="Show secret"
              aria-pressed={shown}
              onClick={() => setShown(!shown)}
            >
              Show
            </button>
          }
        />
        <div className="panel-row">
          <button type="submit" {...engineControl(stopped, { disabled: busy })}>
            Save secret
          </button>
          {hookscopeIssuesSecret(type) && (
            <button type="button" className="secondary" {...engineControl(stopped)} onClick={() => void regenerate()}>
              Regenerate secret
            </button>
          )}
        </div>
        {problem !== null && problem.field === null && (
          <p className="form-error" role="alert">
            {problem.message}
          </p>
        )}
        {saved !== null && (
          <p className="secret-saved" role="status">
            {saved}
          </p>
        )}
      </form>
      {issued && (
        <div className="secret-once" role="alert">
          <p>The new secret, shown this once:</p>
          <code>{issued}</code>
          <CopyButton text={issued} label="Copy secret" />
        </div>
      )}
    </details>
  );
}
