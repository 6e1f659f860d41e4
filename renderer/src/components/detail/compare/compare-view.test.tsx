import { createHmac } from 'node:crypto';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { exactTime } from '../../../lib/relative-time.ts';
import { createAppStores, StoresContext, useSlice, type AppStores } from '../../../stores/app-stores.ts';
import { startEngineProcess, type EngineProcess } from '../../../test-engine-process.ts';
import { memoryStorage } from '../../../test-engine.ts';
import { SelectionBar } from '../../deliveries/selection-bar.tsx';
import { CompareView } from './compare-view.tsx';

const SECRET = 'whsec_c29tZSBzZWNyZXQgZm9yIHRoZSBjb21wYXJlIHRlc3Q=';

/** Two ticked deliveries compared, as the inspector shows them. */
function Comparing({ stores, checked }: { stores: AppStores; checked: string[] }) {
  const comparison = useSlice(stores.compare, (s) => s.comparison);
  return (
    <StoresContext.Provider value={stores}>
      <SelectionBar checked={checked} />
      {comparison && <CompareView comparison={comparison} />}
    </StoresContext.Provider>
  );
}

describe('the comparison of two deliveries', () => {
  let engine: EngineProcess;
  afterEach(cleanup);
  beforeAll(async () => {
    engine = await startEngineProcess();
  }, 60_000);
  afterAll(async () => {
    await engine?.stop();
  });

  test('names each side by its endpoint, its time and its verification', async () => {
    const { client } = engine;
    const signed = await client.post('/api/endpoints', {
      body: { name: 'Orders (signed)', validationType: 'hmac_sha256', webhookSecret: SECRET },
    });
    const plain = await client.post('/api/endpoints', { body: { name: 'Plain', validationType: 'none' } });
    const send = async (endpointId: string, body: string, signature?: string): Promise<void> => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (signature) headers['x-webhook-signature'] = signature;
      const r = await fetch(`${engine.receiverUrl}/webhook/${endpointId}`, { method: 'POST', headers, body });
      expect(r.status).toBe(200);
    };
    const first = '{"order":1}';
    await send(signed.id, first, createHmac('sha256', SECRET).update(first).digest('hex'));
    await send(plain.id, '{"order":2}');

    const stores = createAppStores(client, memoryStorage());
    await stores.endpoints.getState().load();
    await stores.deliveries.getState().load();
    const [newer, older] = stores.deliveries.getState().logs;
    render(<Comparing stores={stores} checked={[newer!.id, older!.id]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));

    const comparison = await screen.findByRole('region', { name: 'Comparison' });
    const sides = within(comparison).getByRole('list', { name: 'Compared deliveries' });
    // The older one is A.
    expect(
      within(sides)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      `A · Orders (signed) · ${exactTime(older!.receivedAt)} · Verified (hmac_sha256)POST / (${older!.id})`,
      `B · Plain · ${exactTime(newer!.receivedAt)} · Not verifiedPOST / (${newer!.id})`,
    ]);
    // "Not verified" is not shown as a success.
    expect(within(sides).getByText('Not verified').className).toBe('status neutral');
    expect(within(sides).getByText('Verified (hmac_sha256)').className).toBe('status ok');
    expect(stores.notices.getState().notices).toEqual([]);
  });
});
