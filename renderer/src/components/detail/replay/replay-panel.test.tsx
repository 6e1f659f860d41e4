import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../../server/api-client/api-client.ts';
import { closedPort, type ClosedPort } from '../../../../../tests/helpers/closed-port.ts';
import { TargetServer } from '../../../../../tests/helpers/target-server.ts';
import type { LogDetail } from '../../../api/client.ts';
import { exactTime } from '../../../lib/relative-time.ts';
import { createAppStores, StoresContext, type AppStores } from '../../../stores/app-stores.ts';
import { startEngineProcess, type EngineProcess } from '../../../test-engine-process.ts';
import { memoryStorage } from '../../../test-engine.ts';
import { ReplayPanel } from './replay-panel.tsx';
import type { DesktopBridge, DesktopEngine, LocalRequest } from '../../../stores/desktop-store.ts';
import { desktopSend } from '../../../../../tests/helpers/desktop-send.ts';

/** The replay panel against a real engine and real targets: what the user sees of each attempt. */
describe('the replay panel', () => {
  let engine: EngineProcess;
  let client: ApiClient;
  let target: TargetServer;
  let closed: ClosedPort;
  let endpointId: string;

  const deliver = async (subPath: string, to = endpointId): Promise<LogDetail> => {
    const r = await fetch(`${engine.receiverUrl}/webhook/${to}${subPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-first': 'one' },
      body: '{"n":1}',
    });
    const { data } = (await r.json()) as { data: { id: string } };
    return client.get('/api/webhooks/logs/{logId}', { params: { path: { logId: data.id } } });
  };
  const show = (stores: AppStores, detail: LogDetail, edit = false) =>
    render(
      <StoresContext.Provider value={stores}>
        <ReplayPanel detail={detail} edit={edit} />
      </StoresContext.Provider>,
    );

  beforeAll(async () => {
    engine = await startEngineProcess();
    client = engine.client;
    target = await TargetServer.start(() => ({ status: 201, headers: { 'x-seen': 'yes' }, body: 'created' }));
    closed = await closedPort();
    ({ id: endpointId } = await client.post('/api/endpoints', { body: { name: 'a', validationType: 'none' } }));
  }, 60_000);
  afterAll(async () => {
    await closed?.release();
    await target?.close();
    await engine?.stop();
  });
  afterEach(cleanup);

  test('a refused connection shows inline: the engine’s sentence, the target and the time; no notice; in the history too', async () => {
    const detail = await deliver('/retry');
    const stores = createAppStores(client, memoryStorage());
    show(stores, detail);
    const url = `${closed.url}/retry`;
    fireEvent.change(screen.getByLabelText('Target URL'), { target: { value: url } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const result = await screen.findByRole('group', { name: 'Replay result' });
    const attempt = stores.replay.getState().result!;
    expect(within(result).getByText('No answer').parentElement?.textContent).toBe(
      `No answer (TARGET_UNREACHABLE) after ${attempt.responseTime} ms${url} could not be reached: the connection was refused (is the server running on that port?).`,
    );
    expect(result.querySelector('.replay-sent')?.textContent).toBe(`POST ${url} · ${exactTime(attempt.createdAt)}`);
    const history = screen.getByRole('list', { name: 'Replay history' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.status')?.textContent),
    ).toEqual(['TARGET_UNREACHABLE']);
    expect(stores.notices.getState().notices).toEqual([]);
  });

  test('an edited replay is tagged; View shows the request as sent (headers in order, the body cut at 64 KiB) beside the response', async () => {
    const detail = await deliver('/edited');
    const stores = createAppStores(client, memoryStorage());
    show(stores, detail, true);
    fireEvent.change(screen.getByLabelText('Target URL'), { target: { value: `${target.url}/edited` } });
    fireEvent.change(screen.getByLabelText('Request body'), { target: { value: 'y'.repeat(70_000) } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await within(await screen.findByRole('group', { name: 'Replay result' })).findByText('201');
    // And a plain one after it: not tagged.
    fireEvent.change(screen.getByLabelText('Request body'), { target: { value: detail.body } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const history = screen.getByRole('list', { name: 'Replay history' });
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2));
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.tag-edited')?.textContent ?? null),
    ).toEqual([null, 'edited']);

    const view = screen.getByRole('button', { name: 'View replay 1: request and response' });
    fireEvent.click(view);
    const exchange = await screen.findByRole('group', { name: 'Replay attempt' });
    expect(view.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(exchange);
    const sent = within(exchange).getByRole('region', { name: 'Request sent' });
    expect(sent.querySelector('.request-line')?.textContent).toBe(`POST ${target.url}/edited`);
    const names = within(sent)
      .getAllByRole('rowheader')
      .map((th) => (th.textContent ?? '').toLowerCase());
    expect(names).toEqual([
      ...detail.rawHeaders.map(([n]) => n.toLowerCase()).filter((n) => n !== 'connection'),
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
    ]);
    expect(within(sent).getByText('First 64 KiB of 70,000 bytes')).toBeInTheDocument();
    expect(sent.querySelector('pre')?.textContent).toBe('y'.repeat(65_536));
    const response = within(exchange).getByRole('region', { name: 'Response' });
    expect(within(response).getByText('201').parentElement?.textContent).toMatch(/^201 in \d+ ms$/);
    expect(within(response).getByRole('rowheader', { name: 'x-seen' }).nextSibling?.textContent).toBe('yes');

    fireEvent.click(within(exchange).getByRole('button', { name: 'Close attempt' }));
    expect(screen.queryByRole('group', { name: 'Replay attempt' })).toBeNull();
    expect(stores.notices.getState().notices).toEqual([]);
  });

  test('opened, it puts the cursor in the target URL; drawn again for another delivery, it leaves focus alone', async () => {
    const detail = await deliver('/focus');
    const stores = createAppStores(client, memoryStorage());
    stores.ui.getState().setPanel('replay');
    show(stores, detail);
    expect(document.activeElement).toBe(screen.getByLabelText('Target URL'));
    expect(stores.ui.getState().focusRequest).toBe(null);
    cleanup();
    show(stores, detail, true);
    expect(document.activeElement).toBe(document.body);
  });

  test('Enter in the target URL sends; in a multi-line box Enter is a new line and Ctrl+Enter sends', async () => {
    const detail = await deliver('/keys');
    const stores = createAppStores(client, memoryStorage());
    show(stores, detail, true);
    const url = screen.getByLabelText('Target URL');
    fireEvent.change(url, { target: { value: `${target.url}/keys` } });
    expect(fireEvent.keyDown(url, { key: 'Enter' })).toBe(false);
    await within(await screen.findByRole('group', { name: 'Replay result' })).findByText('201');
    await waitFor(() => expect(stores.replay.getState().history).toHaveLength(1));

    const body = screen.getByLabelText('Request body');
    expect(fireEvent.keyDown(body, { key: 'Enter' })).toBe(true);
    expect(stores.replay.getState().sending).toBe(false);
    expect(fireEvent.keyDown(body, { key: 'Enter', ctrlKey: true })).toBe(false);
    expect(stores.replay.getState().sending).toBe(true);
    await waitFor(() => expect(stores.replay.getState().history).toHaveLength(2));
    expect(target.received.map((r) => r.url).slice(-2)).toEqual(['/keys', '/keys']);
  });

  test('the target offered is the one used last: exact for the same sub-path, its base for another, on another endpoint too', async () => {
    const first = await deliver('/retry');
    const second = await deliver('/other');
    const { id: otherEndpoint } = await client.post('/api/endpoints', { body: { name: 'b', validationType: 'none' } });
    const third = await deliver('/', otherEndpoint);
    const storage = memoryStorage();
    const stores = createAppStores(client, storage);
    show(stores, first);
    expect(screen.getByLabelText<HTMLInputElement>('Target URL').value).toBe('http://localhost:3000/retry');
    fireEvent.change(screen.getByLabelText('Target URL'), { target: { value: `${target.url}/hooks/retry` } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await within(await screen.findByRole('group', { name: 'Replay result' })).findByText('201');
    fireEvent.change(screen.getByLabelText('Target URL'), { target: { value: `${target.url}/in/retry` } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(stores.replay.getState().history).toHaveLength(2));
    cleanup();

    // A new page on the same storage.
    const later = createAppStores(client, storage);
    for (const [detail, offered] of [
      [first, `${target.url}/in/retry`],
      [second, `${target.url}/in/other`],
      [third, `${target.url}/in`],
    ] as const) {
      show(later, detail);
      expect(screen.getByLabelText<HTMLInputElement>('Target URL').value).toBe(offered);
      cleanup();
    }
  });

  test('in the desktop app on a team server, a target on this computer is said to be sent from it, and is', async () => {
    const detail = await deliver('/retry');
    const bridged: LocalRequest[] = [];
    const desktopApp = (engine: DesktopEngine): DesktopBridge => ({
      engine: async () => engine,
      connectTeamServer: async () => ({ ok: true }),
      useThisComputer: async () => undefined,
      sendFromThisComputer: async (request) => {
        bridged.push(request);
        return (await desktopSend(request)) as Awaited<ReturnType<DesktopBridge['sendFromThisComputer']>>;
      },
      startForwardFromThisComputer: async () => ({ ok: true }),
      stopForwardFromThisComputer: async () => ({ ok: true }),
      forwardsFromThisComputer: async () => ({ ok: true, forwards: [] }),
    });
    const hint = 'Sent from this computer: the team server cannot reach it.';
    const stores = createAppStores(client, memoryStorage(), desktopApp({ kind: 'team', url: engine.apiUrl }));
    await stores.desktop.getState().load();
    show(stores, detail);
    const field = screen.getByLabelText('Target URL');
    fireEvent.change(field, { target: { value: 'https://hooks.example.com/retry' } });
    expect(screen.queryByText(hint)).toBeNull();
    expect(field.getAttribute('aria-describedby')).toBeNull();
    fireEvent.change(field, { target: { value: `${target.url}/retry` } });
    expect(field.getAttribute('aria-describedby')).toBe(screen.getByText(hint).id);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await within(await screen.findByRole('group', { name: 'Replay result' })).findByText('201');
    expect(bridged.map((r) => r.url)).toEqual([`${target.url}/retry`]);
    expect(stores.replay.getState().history[0]!.trigger).toBe('client');
    cleanup();

    // This computer shown: its engine reaches localhost itself, nothing to say.
    const local = createAppStores(client, memoryStorage(), desktopApp({ kind: 'local' }));
    await local.desktop.getState().load();
    show(local, detail);
    fireEvent.change(screen.getByLabelText('Target URL'), { target: { value: `${target.url}/retry` } });
    expect(screen.queryByText(hint)).toBeNull();
  });
});
