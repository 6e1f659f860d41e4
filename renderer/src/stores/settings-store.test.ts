// @vitest-environment node
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createNoticesStore } from './notices-store.ts';
import { createSettingsStore } from './settings-store.ts';

/** The settings store against a real engine: load, save, the engine's per-field errors, refresh on an event. */
describe('the settings store', () => {
  let t: TestEngine;
  let otherToken: string;

  beforeAll(async () => {
    t = await startTestEngine();
    otherToken = await t.engine.issueToken('someone-else');
  });
  afterAll(() => t.stop());

  const makeStore = (token = t.token) => {
    const notices = createNoticesStore();
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token });
    return { store: createSettingsStore(client, notices.getState()), notices };
  };
  const texts = (notices: ReturnType<typeof createNoticesStore>) => notices.getState().notices.map((n) => n.text);

  test('loads the running settings; a save is applied, kept in config.json and says so', async () => {
    const { store, notices } = makeStore();
    await store.getState().load();
    expect(store.getState().settings?.rateLimit).toEqual({ perSecond: 1000, burst: 2000 });
    expect(store.getState().settings?.canEdit).toBe(true);

    expect(await store.getState().save({ rateLimit: { perSecond: 50 }, retention: { maxLogsPerAccount: 900 } })).toBe(
      true,
    );
    expect(store.getState().settings?.rateLimit).toEqual({ perSecond: 50, burst: 2000 });
    expect(store.getState().settings?.retention.maxLogsPerAccount).toBe(900);
    expect(store.getState().outcome).toEqual({ kind: 'saved' });
    expect(texts(notices)).toEqual([]);
    expect(JSON.parse(await readFile(join(t.dataDir, 'config.json'), 'utf8'))).toEqual({
      receiver: { rateLimit: { perSecond: 50 } },
      retention: { maxLogsPerAccount: 900 },
    });
  });

  test("bad values: the engine's sentences are kept by field and told as a notice; nothing changes", async () => {
    const { store, notices } = makeStore();
    await store.getState().load();
    const before = store.getState().settings;
    expect(await store.getState().save({ retention: { maxLogsPerAccount: 0 }, tunnel: { subdomain: 'AB' } })).toBe(
      false,
    );
    expect(store.getState().outcome).toEqual({
      kind: 'failed',
      errors: {
        fields: {
          'tunnel.subdomain': 'must be 4-63 lowercase letters and digits.',
          'retention.maxLogsPerAccount': 'must be a whole number of at least 1.',
        },
        message: 'Invalid request body "tunnel.subdomain": must be 4-63 lowercase letters and digits.',
      },
    });
    expect(store.getState().settings).toBe(before);
    expect(texts(notices)).toEqual([
      'Saving the settings failed: Invalid request body "tunnel.subdomain": must be 4-63 lowercase letters and digits. (VALIDATION_ERROR)',
    ]);
    store.getState().clearOutcome();
    expect(store.getState().outcome).toBe(null);
  });

  test('another account reads them but may not save: the reason is the outcome', async () => {
    const { store } = makeStore(otherToken);
    await store.getState().load();
    expect(store.getState().settings?.canEdit).toBe(false);
    expect(await store.getState().save({ rateLimit: { burst: 3 } })).toBe(false);
    const outcome = store.getState().outcome;
    expect(outcome?.kind === 'failed' && outcome.errors.message).toMatch(/^Only the owner account of this install/);
  });

  test('settings.changed reloads them once they are shown, and not before', async () => {
    const shown = makeStore().store;
    const hidden = makeStore().store;
    await shown.getState().load();
    const elsewhere = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    await elsewhere.patch('/api/settings', { body: { rateLimit: { burst: 77 } } });
    shown.getState().changed();
    hidden.getState().changed();
    await expect.poll(() => shown.getState().settings?.rateLimit.burst).toBe(77);
    expect(hidden.getState().settings).toBe(null);
    expect(hidden.getState().loading).toBe(false);
  });
});
