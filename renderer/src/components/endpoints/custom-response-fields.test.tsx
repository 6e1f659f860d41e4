import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../server/api-client/api-client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { EndpointCustomResponse } from './endpoint-custom-response.tsx';
import { EndpointForm } from './endpoint-form.tsx';

/** The custom response fields in both forms, against a real engine: the delay typed is the delay the engine keeps. */
describe('the custom response fields', () => {
  let running: ComponentEngine;
  let client: ApiClient;

  beforeAll(async () => {
    running = await startTestEngine('hookscope-form-');
    client = running.client;
  });
  afterAll(() => running?.stop());
  afterEach(cleanup);

  test('a delay typed as 1500 in the milliseconds field is saved as delayMs 1500, and shown back as 1500 ms', async () => {
    const { id } = await client.post('/api/endpoints', { body: { name: 'slow', validationType: 'none' } });
    const stores = createAppStores(client, memoryStorage());
    await stores.endpoints.getState().load();
    const endpoint = () => stores.endpoints.getState().endpoints.find((e) => e.id === id)!;
    // As endpoint settings shows it: with the endpoint as the store holds it now.
    const form = () => (
      <StoresContext.Provider value={stores}>
        <EndpointCustomResponse endpoint={endpoint()} />
      </StoresContext.Provider>
    );
    const { rerender } = render(form());

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '202' } });
    // The field says its unit; the engine's delayMs is milliseconds too, so nothing converts.
    fireEvent.change(screen.getByLabelText('Delay (ms)'), { target: { value: '1500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save response' }));
    await waitFor(() => expect(endpoint().customResponse).not.toBeNull());

    const held = await client.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: id } } });
    expect(held.customResponse).toEqual({ status: 202, headers: [], body: '', delayMs: 1500 });
    rerender(form());
    expect(screen.getByText('Now: 202, after 1500 ms.')).toBeInTheDocument();
    expect(screen.getByLabelText<HTMLInputElement>('Delay (ms)').value).toBe('1500');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('the New endpoint form creates the endpoint with the delay as typed in milliseconds', async () => {
    const stores = createAppStores(client, memoryStorage());
    let created: string | null = null;
    render(
      <StoresContext.Provider value={stores}>
        <EndpointForm onDone={(e) => (created = e?.id ?? null)} />
      </StoresContext.Provider>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'created slow' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '503' } });
    fireEvent.change(screen.getByLabelText('Delay (ms)'), { target: { value: '1500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(created).not.toBeNull());
    const held = await client.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: created! } } });
    expect(held.customResponse).toEqual({ status: 503, headers: [], body: '', delayMs: 1500 });
  });
});
