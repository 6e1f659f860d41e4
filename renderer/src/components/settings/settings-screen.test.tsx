import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../../server/api-client/api-client.ts';
import type { Settings } from '../../lib/settings-fields.ts';
import { sampleSettings } from '../../lib/settings-sample.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { SettingsScreen } from './settings-screen.tsx';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The screen over a stand-in engine: GET answers `settings`, PATCH answers `onPatch(body)`. */
function show(
  settings: Settings,
  onPatch: (body: unknown) => Response = () => json(200, { success: true, data: settings }),
) {
  const patches: unknown[] = [];
  const client = createApiClient({
    baseUrl: 'http://engine.test',
    fetch: async (req) => {
      if (req.method === 'PATCH') {
        const body = (await req.json()) as unknown;
        patches.push(body);
        return onPatch(body);
      }
      return json(200, { success: true, data: settings });
    },
  });
  const stores = createAppStores(client, memoryStorage());
  render(
    <StoresContext.Provider value={stores}>
      <SettingsScreen />
    </StoresContext.Provider>,
  );
  return { stores, patches };
}

const LABELS = [
  'Tunnel host',
  'Subdomain',
  'Logs kept per account',
  'Body bytes kept per account',
  'Rate limit (deliveries per second)',
  'Burst',
  'LLM URL',
  'LLM model',
];

describe('SettingsScreen', () => {
  afterEach(cleanup);

  test('every setting is a labelled box with its value; the ports are read-only with how to change them', async () => {
    show(sampleSettings());
    await screen.findByRole('textbox', { name: 'Burst' });
    expect(LABELS.map((l) => screen.getByRole<HTMLInputElement>('textbox', { name: l }).value)).toEqual([
      'https://localtunnel.me',
      '',
      '10000',
      '536870912',
      '1000',
      '2000',
      '',
      '',
    ]);
    const ports = screen.getByRole('table', { name: 'Ports and how to change them' });
    expect(ports).toHaveTextContent('API and UI port4680--api-portHOOKSCOPE_API_PORTapiPort');
    expect(screen.getByText(/Changing a port needs a restart/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  test("sends only what changed; the engine's 400 shows next to the field it names, and clears on the next edit", async () => {
    const { patches, stores } = show(sampleSettings(), () =>
      json(400, {
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: 'Invalid request body "retention.maxLogsPerAccount": must be a whole number of at least 1.',
          details: {
            part: 'body',
            issues: [{ field: 'retention.maxLogsPerAccount', message: 'must be a whole number of at least 1.' }],
          },
        },
      }),
    );
    const logs = await screen.findByRole('textbox', { name: 'Logs kept per account' });
    fireEvent.change(logs, { target: { value: '0' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Rate limit (deliveries per second)' }), {
      target: { value: '25' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText('Logs kept per account must be a whole number of at least 1.');
    expect(patches).toEqual([{ retention: { maxLogsPerAccount: 0 }, rateLimit: { perSecond: 25 } }]);
    expect(logs).toHaveAttribute('aria-invalid', 'true');
    expect(logs).toHaveAccessibleDescription('Logs kept per account must be a whole number of at least 1.');
    expect(screen.getByRole('textbox', { name: 'Burst' })).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText(/^Not saved: Invalid request body/)).toBeInTheDocument();
    expect(stores.notices.getState().notices.map((n) => n.kind)).toEqual(['error']);
    expect(logs).toHaveValue('0'); // what the user typed stays, to be corrected

    fireEvent.change(logs, { target: { value: '500' } });
    expect(screen.queryByText('Logs kept per account must be a whole number of at least 1.')).toBe(null);
    expect(logs).not.toHaveAttribute('aria-invalid');
  });

  test('a successful save says so and shows the saved values', async () => {
    const saved = sampleSettings({ rateLimit: { perSecond: 25, burst: 2000 } });
    show(sampleSettings(), () => json(200, { success: true, data: saved }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Rate limit (deliveries per second)' }), {
      target: { value: '25' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved and applied.');
    expect(screen.getByRole('textbox', { name: 'Rate limit (deliveries per second)' })).toHaveValue('25');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  test('a value a variable sets is read-only and says where to change it', async () => {
    const s = sampleSettings();
    show({
      ...s,
      sources: { ...s.sources, 'rateLimit.perSecond': { from: 'env', name: 'HOOKSCOPE_RATE_LIMIT_PER_SECOND' } },
    });
    const rate = await screen.findByRole('textbox', { name: 'Rate limit (deliveries per second)' });
    expect(rate).toHaveAttribute('readonly');
    expect(rate).toHaveAccessibleDescription(
      'Set by the environment variable HOOKSCOPE_RATE_LIMIT_PER_SECOND, which wins over this screen: change it there and restart the engine.',
    );
    expect(screen.getByRole('textbox', { name: 'Burst' })).not.toHaveAttribute('readonly');
  });

  test('for another account every box is read-only, with the reason, and there is no Save', async () => {
    show({ ...sampleSettings(), canEdit: false });
    await screen.findByRole('textbox', { name: 'Burst' });
    for (const l of LABELS) expect(screen.getByRole('textbox', { name: l })).toHaveAttribute('readonly');
    expect(screen.getByRole('note')).toHaveTextContent(/^Only the owner account of this install/);
    expect(screen.queryByRole('button', { name: 'Save' })).toBe(null);
  });

  test('the theme is a Light / Dark / System choice bound to the theme store', async () => {
    const { stores } = show(sampleSettings());
    const group = await screen.findByRole('group', { name: 'Theme' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(stores.theme.getState().choice).toBe('dark');
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
  });
});
