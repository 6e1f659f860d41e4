import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../server/api-client/api-client.ts';
import type { TunnelStatus } from '../../api/client.ts';
import { createAppStores, StoresContext, type AppStores } from '../../stores/app-stores.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { EndpointsPane } from './endpoints-pane.tsx';

// jsdom has no modal dialogs: opening one here just sets `open` (Chromium's own is seen in the e2e test).
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

/** The endpoints pane against a real engine: the New endpoint dialog and what it says, the warning under a local URL. */
describe('the endpoints pane', () => {
  let running: ComponentEngine;
  let client: ApiClient;
  let stores: AppStores;

  beforeAll(async () => {
    running = await startTestEngine('hookscope-pane-');
    client = running.client;
  });
  afterAll(() => running?.stop());
  afterEach(cleanup);

  const show = async (): Promise<void> => {
    stores = createAppStores(client, memoryStorage());
    await Promise.all([stores.endpoints.getState().load(), stores.tunnel.getState().load()]);
    render(
      <StoresContext.Provider value={stores}>
        <EndpointsPane />
      </StoresContext.Provider>,
    );
  };
  const notices = (kind: 'error' | 'info'): string[] =>
    stores.notices
      .getState()
      .notices.filter((n) => n.kind === kind)
      .map((n) => n.text);

  test('New endpoint opens a dialog; each refusal is one sentence of its own under its box, never a notice; Create closes it', async () => {
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'New endpoint' }));
    const dialog = screen.getByRole('dialog', { name: 'New endpoint' });
    expect((dialog as HTMLDialogElement).open).toBe(true);
    const form = within(dialog).getByRole('form', { name: 'New endpoint' });
    const name = within(form).getByLabelText<HTMLInputElement>('Name');
    expect(document.activeElement).toBe(name);
    fireEvent.change(within(form).getByLabelText('Validation type'), { target: { value: 'stripe' } });
    const secret = within(form).getByLabelText<HTMLInputElement>('Secret');
    const forward = within(form).getByLabelText<HTMLInputElement>('Forward URL (optional)');

    // Each step: the form's own sentence under the box the engine named, the cursor there, nothing else.
    const refusedAt = async (box: HTMLInputElement, said: string): Promise<void> => {
      fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
      const error = await within(form).findByText(said);
      expect(box.getAttribute('aria-invalid')).toBe('true');
      expect(box.getAttribute('aria-describedby')?.split(' ')[0]).toBe(error.id);
      expect(document.activeElement).toBe(box);
      expect(form.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);
      expect(screen.getAllByText(said)).toHaveLength(1);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(document.body.textContent).not.toMatch(/Invalid request body|webhookSecret|forwardUrl|VALIDATION_ERROR/);
      expect(notices('error')).toEqual([]);
    };
    await refusedAt(name, 'Give the endpoint a name.');
    fireEvent.change(name, { target: { value: 'Payments' } });
    await refusedAt(
      secret,
      'Enter the signing secret: Stripe shows it (whsec_…) under Developers > Webhooks, or stripe listen prints it.',
    );
    fireEvent.change(secret, { target: { value: 'whsec_test' } });
    fireEvent.change(forward, { target: { value: 'localhost:3000' } });
    await refusedAt(
      forward,
      'Enter a full address starting with http:// or https://, such as http://localhost:3000/webhooks.',
    );
    fireEvent.change(forward, { target: { value: 'http://localhost:3000/webhooks' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
    const [created] = (await client.get('/api/endpoints')).endpoints;
    expect([created!.name, created!.validationType, created!.forwardUrl]).toEqual([
      'Payments',
      'stripe',
      'http://localhost:3000/webhooks',
    ]);
    // Chosen at once; no error left behind.
    expect(stores.deliveries.getState().filter.endpointId).toBe(created!.id);
    expect(notices('error')).toEqual([]);
    expect(notices('info')).toEqual(['Endpoint "Payments" created.']);

    // Opened again: empty, no refusal from before. Escape closes it without creating anything.
    fireEvent.click(screen.getByRole('button', { name: 'New endpoint' }));
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('');
    expect(dialog.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect((dialog as HTMLDialogElement).open).toBe(false);
    expect((await client.get('/api/endpoints')).total).toBe(1);
  });

  test('under a local URL, a warning that internet senders cannot reach it; none under a public URL through a working tunnel', async () => {
    const ep = await client.post('/api/endpoints', { body: { name: 'Local', validationType: 'none' } });
    await show();
    await act(() => stores.deliveries.getState().setFilter({ endpointId: ep.id }));
    const url = screen.getByRole('region', { name: 'Receiving URL' });
    // The engine's tunnel is off (its real state, read above): the URL shown is the local one.
    expect(stores.tunnel.getState().status!.state).toBe('disabled');
    expect(within(url).getByText(ep.localUrl)).toBeInTheDocument();
    expect(
      within(url).getByText('Internet senders cannot reach this URL: it is local while the tunnel is off.'),
    ).toBeInTheDocument();

    // As a tunnel.status event and the endpoint re-read bring them once the tunnel is up.
    const online: TunnelStatus = {
      ...stores.tunnel.getState().status!,
      state: 'online',
      enabled: true,
      url: 'https://quiet-fox.loca.lt',
    };
    const publicUrl = `https://quiet-fox.loca.lt/webhook/${ep.id}`;
    act(() => {
      stores.tunnel.getState().changed(online);
      stores.endpoints.setState((s) => ({
        endpoints: s.endpoints.map((e) => (e.id === ep.id ? { ...e, url: publicUrl, publicUrl } : e)),
      }));
    });
    expect(within(url).getByText(publicUrl)).toBeInTheDocument();
    expect(within(url).queryByText(/Internet senders/)).toBeNull();
    // The tunnel's last round trip failed: the same public URL, with a warning.
    act(() => stores.tunnel.getState().changed({ ...online, state: 'degraded' }));
    expect(
      within(url).getByText('Internet senders may not reach this URL now: the tunnel’s last check through it failed.'),
    ).toBeInTheDocument();
  });
});
