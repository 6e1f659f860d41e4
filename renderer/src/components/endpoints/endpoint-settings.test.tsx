import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../server/api-client/api-client.ts';
import { exactTime } from '../../lib/relative-time.ts';
import { createAppStores, StoresContext, useSlice, useStores, type AppStores } from '../../stores/app-stores.ts';
import type { NewEndpoint } from '../../stores/endpoints-store.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { EndpointSettings } from './endpoint-settings.tsx';

/** Endpoint settings as the pane shows them: for the endpoint as the store holds it now. */
function Settings({ id }: { id: string }) {
  const { endpoints } = useStores();
  const endpoint = useSlice(endpoints, (s) => s.endpoints.find((e) => e.id === id));
  return endpoint ? <EndpointSettings endpoint={endpoint} /> : null;
}

/** Endpoint settings against a real engine: the secret set in place, Regenerate only where Hookscope issues it, the forward URL. */
describe('endpoint settings', () => {
  let running: ComponentEngine;
  let client: ApiClient;
  let current: AppStores;

  beforeAll(async () => {
    running = await startTestEngine('hookscope-settings-');
    client = running.client;
  });
  afterAll(() => running?.stop());
  afterEach(cleanup);

  /** Creates the endpoint through the API and shows its settings, with fresh stores. */
  const open = async (body: NewEndpoint) => {
    const created = await client.post('/api/endpoints', { body });
    current = createAppStores(client, memoryStorage());
    await current.endpoints.getState().load();
    render(
      <StoresContext.Provider value={current}>
        <Settings id={created.id} />
      </StoresContext.Provider>,
    );
    return created;
  };
  const errorNotices = (): string[] =>
    current.notices
      .getState()
      .notices.filter((n) => n.kind === 'error')
      .map((n) => n.text);
  const stripeDelivery = async (url: string, secret: string): Promise<string> => {
    const payload = JSON.stringify({ id: 'evt_1', type: 'invoice.paid' });
    const r = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
      },
      body: payload,
    });
    const answer = (await r.json()) as { data?: { id: string }; error?: { details: { logId: string } } };
    const logId = answer.data?.id ?? answer.error!.details.logId;
    const log = await client.get('/api/webhooks/logs/{logId}', { params: { path: { logId } } });
    return log.status;
  };

  test('a Stripe secret entered wrong is fixed with Save secret on the same URL; the line says until when the old one verifies; never shown back', async () => {
    const ep = await open({ name: 'stripe', validationType: 'stripe', webhookSecret: 'whsec_wrong' });
    expect(await stripeDelivery(ep.url, 'whsec_right')).toBe('failed');
    // Stripe issues this secret: Hookscope cannot make one.
    expect(screen.queryByRole('button', { name: 'Regenerate secret' })).toBeNull();

    const box = screen.getByLabelText<HTMLInputElement>('Signing secret');
    expect(box.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show secret' }));
    expect(box.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Show secret' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.change(box, { target: { value: 'whsec_right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save secret' }));

    const held = await waitFor(async () => {
      const e = await client.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: ep.id } } });
      expect(e.previousSecretExpiresAt).not.toBeNull();
      return e;
    });
    const line = await screen.findByRole('status');
    expect(line.textContent).toBe(
      `Secret saved; the URL stays the same. The previous secret still verifies until ${exactTime(held.previousSecretExpiresAt!)}.`,
    );
    expect(held.url).toBe(ep.url);
    // Never shown back: the box is emptied and hidden again, and the secret is nowhere on the page.
    expect(box.value).toBe('');
    expect(box.type).toBe('password');
    expect(document.body.textContent).not.toContain('whsec_right');

    expect(await stripeDelivery(ep.url, 'whsec_right')).toBe('success');
    // Senders still signing with the previous secret get through until the grace period ends.
    expect(await stripeDelivery(ep.url, 'whsec_wrong')).toBe('success');
    expect(errorNotices()).toEqual([]);
  });

  test('Regenerate only where Hookscope issues the secret (hmac_sha256); an unsigned endpoint has no secret at all', async () => {
    await open({ name: 'own', validationType: 'hmac_sha256', webhookSecret: 'first-secret' });
    expect(screen.getByLabelText('Signing secret')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate secret' }));
    const once = await screen.findByRole('alert');
    expect(within(once).getByText(/^[0-9a-f]{64}$/)).toBeInTheDocument();
    cleanup();

    await open({ name: 'open', validationType: 'none' });
    expect(screen.queryByLabelText('Signing secret')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save secret' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Regenerate secret' })).toBeNull();
  });

  test('a secret the scheme refuses is said once, under the box, in the form’s words; no notice', async () => {
    const ep = await open({
      name: 'svix',
      validationType: 'standard_webhooks',
      webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    const box = screen.getByLabelText<HTMLInputElement>('Signing secret');
    fireEvent.change(box, { target: { value: 'not base64!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save secret' }));
    const said = 'A Standard Webhooks secret is whsec_ followed by base64, exactly as the sending service shows it.';
    const error = await screen.findByText(said);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')?.split(' ')[0]).toBe(error.id);
    expect(document.activeElement).toBe(box);
    expect(screen.getAllByText(said)).toHaveLength(1);
    expect(document.body.textContent).not.toContain('webhookSecret');
    expect(errorNotices()).toEqual([]);
    expect(
      (await client.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: ep.id } } }))
        .previousSecretExpiresAt,
    ).toBeNull();

    // Typing again takes the refusal away; a good secret is saved.
    fireEvent.change(box, { target: { value: 'whsec_c2Vjb25kIHNlY3JldA==' } });
    expect(screen.queryByText(said)).toBeNull();
    expect(box.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save secret' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Secret saved; the URL stays the same\./);
  });

  test('the forward URL: a bad one said under its box; a good one saved and shown; emptied, forwarding stops', async () => {
    const ep = await open({ name: 'fwd', validationType: 'none' });
    const read = async () =>
      (await client.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: ep.id } } })).forwardUrl;
    const box = screen.getByLabelText<HTMLInputElement>('Forward URL');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(screen.getByText(/^Not forwarding\./)).toBeInTheDocument();

    fireEvent.change(box, { target: { value: 'localhost:3000/hooks' } });
    fireEvent.click(save);
    const said = 'Enter a full address starting with http:// or https://, such as http://localhost:3000/webhooks.';
    const error = await screen.findByText(said);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')?.split(' ')[0]).toBe(error.id);
    expect(document.body.textContent).not.toContain('forwardUrl');
    expect(errorNotices()).toEqual([]);
    expect(await read()).toBeNull();

    fireEvent.change(box, { target: { value: ' http://localhost:3000/hooks ' } });
    expect(screen.queryByText(said)).toBeNull();
    fireEvent.click(save);
    await screen.findByText(
      'Forwarding every accepted delivery to http://localhost:3000/hooks. Empty the box to stop.',
    );
    expect(await read()).toBe('http://localhost:3000/hooks');
    expect(box.value).toBe('http://localhost:3000/hooks');
    expect(save).toBeDisabled();

    fireEvent.change(box, { target: { value: '' } });
    fireEvent.click(save);
    await screen.findByText(/^Not forwarding\./);
    expect(await read()).toBeNull();
    expect(errorNotices()).toEqual([]);
  });
});
