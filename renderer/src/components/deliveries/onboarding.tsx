import { useState, type FormEvent } from 'react';
import type { Endpoint } from '../../api/client.ts';
import { FIRST_ENDPOINT_NAME, onlyEndpointFilter, tryItCurl } from '../../lib/onboarding-steps.ts';
import { generateSecret, VALIDATION_TYPES } from '../../lib/validation-types.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { CopyButton } from '../shared/copy-button.tsx';

/**
 * No endpoint at all: one step to the first one. HMAC-SHA256 with a secret made
 * here is the default because Hookscope issues that secret itself (it can be rolled
 * later in Endpoint settings), and the test delivery signs with it, so the first
 * capture a user sees is a verified one.
 */
function FirstEndpoint() {
  const { endpoints, deliveries } = useStores();
  const [name, setName] = useState(FIRST_ENDPOINT_NAME);
  const [signed, setSigned] = useState(true);
  const [secret] = useState(() => generateSecret());
  const [busy, setBusy] = useState(false);
  const stopped = useEngineStopped();

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    const created = await endpoints
      .getState()
      .create(
        signed ? { name, validationType: 'hmac_sha256', webhookSecret: secret } : { name, validationType: 'none' },
      );
    setBusy(false);
    // The chosen endpoint is the deliveries' endpoint filter: choosing it shows its own empty state next.
    if (created) await deliveries.getState().setFilter({ endpointId: created.id });
  };

  return (
    <section className="onboarding" aria-labelledby="onboarding-title">
      <h3 id="onboarding-title">Get started</h3>
      <p>
        An endpoint is a URL that records every webhook sent to it: its headers, its body and whether its signature
        checks out. Then replay it to your own server, share it, or find out why it failed.
      </p>
      <form className="panel-form" onSubmit={(e) => void submit(e)}>
        <label>
          Endpoint name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label className="inline">
          <input type="checkbox" checked={signed} onChange={(e) => setSigned(e.target.checked)} />
          Check signatures (HMAC-SHA256, with a secret made for you)
        </label>
        {signed && (
          <div className="onboarding-secret">
            <p className="hint">
              Senders sign the body with this secret in <code>X-Webhook-Signature</code>. Copy it now: it is not shown
              again (Endpoint settings can make a new one).
            </p>
            <code>{secret}</code>
            <CopyButton text={secret} label="Copy secret" />
          </div>
        )}
        <div className="panel-row">
          <button type="submit" {...engineControl(stopped, { disabled: busy })}>
            {busy ? 'Creating…' : 'Create endpoint'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** An endpoint chosen and nothing received yet: where to send, a ready command, and a signed test in one click. */
function FirstDelivery({ endpoint }: { endpoint: Endpoint }) {
  const { endpoints, selection } = useStores();
  const [busy, setBusy] = useState(false);
  const stopped = useEngineStopped();
  const curl = tryItCurl(endpoint.url);
  const type = VALIDATION_TYPES.find((t) => t.id === endpoint.validationType)?.label ?? endpoint.validationType;

  const sendTest = async (): Promise<void> => {
    setBusy(true);
    const logId = await endpoints.getState().sendTest(endpoint.id);
    setBusy(false);
    // The row arrives by the live stream; the capture opens at once.
    if (logId !== null) await selection.getState().select(logId);
  };

  return (
    <section className="onboarding" aria-labelledby="first-delivery-title">
      <h3 id="first-delivery-title">Waiting for the first delivery to {endpoint.name}</h3>
      <p>Point a webhook sender at this URL; each delivery appears here the moment it arrives.</p>
      <code className={stopped ? 'onboarding-code not-receiving' : 'onboarding-code'}>{endpoint.url}</code>
      {stopped && <p className="not-receiving-mark">not receiving: the engine is stopped</p>}
      <div className="panel-row">
        <CopyButton text={endpoint.url} label="Copy URL" />
        <button
          type="button"
          {...engineControl(stopped, { disabled: busy || !endpoint.isActive })}
          onClick={() => void sendTest()}
        >
          {busy ? 'Sending…' : 'Send test delivery'}
        </button>
      </div>
      {!endpoint.isActive && (
        <p className="hint">
          This endpoint is switched off: it answers 410 and stores nothing until it is active again.
        </p>
      )}
      <p className="hint">
        {endpoint.validationType === 'none'
          ? 'The test delivery is a realistic sample sent through the real receiver.'
          : `The test delivery is a realistic sample signed with the endpoint’s secret, as ${type} would sign it.`}
      </p>
      <h4>Or from a terminal</h4>
      <code className="onboarding-code">{curl}</code>
      <div className="panel-row">
        <CopyButton text={curl} label="Copy cURL command" />
      </div>
      {endpoint.validationType !== 'none' && (
        <p className="hint">
          This command sends no signature, so it is stored as failed: open it and Explain says what was missing.
        </p>
      )}
    </section>
  );
}

/** What the deliveries list shows with no row: the first endpoint, the first delivery, or that nothing matches. */
export function DeliveriesEmpty() {
  const { endpoints, deliveries } = useStores();
  const list = useSlice(endpoints, (s) => s.endpoints);
  const loaded = useSlice(endpoints, (s) => s.loaded);
  const filter = useSlice(deliveries, (s) => s.filter);
  if (loaded && list.length === 0) return <FirstEndpoint />;
  if (!onlyEndpointFilter(filter)) return <p className="empty">No delivery matches these filters.</p>;
  const selected = list.find((e) => e.id === filter.endpointId);
  if (selected) return <FirstDelivery endpoint={selected} />;
  return <p className="empty">No deliveries yet. Send a webhook to an endpoint’s URL and it appears here at once.</p>;
}
