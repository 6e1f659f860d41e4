import { cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../server/api-client/api-client.ts';
import type { LogDetail } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { DetailPane } from './detail-pane.tsx';

/** "Answered to the sender" in the detail, for deliveries a real engine received: what the sender got. */
describe('the answer card', () => {
  let running: ComponentEngine;
  let client: ApiClient;

  beforeAll(async () => {
    running = await startTestEngine('hookscope-answer-');
    client = running.client;
  });
  afterAll(() => running?.stop());
  afterEach(cleanup);

  /** Sends `body` to the endpoint's receiver URL: what the sender got, and the detail of the log it stored. */
  const deliver = async (url: string, headers: Record<string, string>) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{"n":1}',
    });
    const got = { status: res.status, body: await res.text(), headers: res.headers };
    const { logs } = await client.get('/api/webhooks/logs', { params: { query: { limit: '1' } } });
    const detail = await client.get('/api/webhooks/logs/{logId}', { params: { path: { logId: logs[0]!.id } } });
    return { got, detail };
  };
  const showDetail = (detail: LogDetail) => {
    const stores = createAppStores(client, memoryStorage());
    stores.selection.setState({ selectedId: detail.id, detail });
    render(
      <StoresContext.Provider value={stores}>
        <DetailPane />
      </StoresContext.Provider>,
    );
    return screen.getByRole('region', { name: 'Answered to the sender' });
  };
  const headerRows = (card: HTMLElement) =>
    within(card)
      .getAllByRole('row')
      .map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent]);

  test('a bad signature: the 400 and its envelope, exactly as the sender received them', async () => {
    const ep = await client.post('/api/endpoints', {
      body: { name: 'Signed', validationType: 'hmac_sha256', webhookSecret: 'whsec_answer_card_test' },
    });
    const { got, detail } = await deliver(ep.url, { 'x-webhook-signature': 'sha256=00' });
    expect(got.status).toBe(400);
    const card = showDetail(detail);
    expect(card.querySelector('.answer-status')?.textContent).toBe('400 Refused: the signature did not verify.');
    expect(within(card).getByRole('region', { name: 'Answer body' }).textContent).toBe(got.body);
    expect(JSON.parse(got.body)).toMatchObject({
      success: false,
      error: { code: 'SIGNATURE_VERIFICATION_FAILED', details: { logId: detail.id } },
    });
    expect(headerRows(card)).toEqual(
      ['content-type', 'content-length', 'cache-control'].map((name) => [name, got.headers.get(name)]),
    );
  });

  test("an endpoint's custom response: its status, headers, body and delay as they were sent", async () => {
    const ep = await client.post('/api/endpoints', { body: { name: 'Custom', validationType: 'none' } });
    await client.patch('/api/endpoints/{endpointId}', {
      params: { path: { endpointId: ep.id } },
      body: {
        customResponse: { status: 202, headers: [{ name: 'X-Reply', value: 'later' }], body: 'queued', delayMs: 20 },
      },
    });
    const { got, detail } = await deliver(ep.url, {});
    expect([got.status, got.body, got.headers.get('x-reply')]).toEqual([202, 'queued', 'later']);
    const card = showDetail(detail);
    expect(card.querySelector('.answer-status')?.textContent).toBe(
      '202 The endpoint’s custom response, as it was when the delivery came.',
    );
    expect(within(card).getByText(/^Sent after the endpoint’s delay of 20 ms;/)).toBeInTheDocument();
    const rows = headerRows(card);
    expect(rows).toContainEqual(['X-Reply', 'later']);
    expect(rows).toContainEqual(['Hookscope-Log-Id', detail.id]);
    expect(within(card).getByRole('region', { name: 'Answer body' }).textContent).toBe('queued');
    // "Not verified" (validation none) is not shown as a success: a neutral banner, not a green one.
    expect(screen.getByText('Not verified').parentElement?.className).toBe('verdict neutral');
  });

  test('an accepted delivery: the default envelope naming the log; no delay said', async () => {
    const ep = await client.post('/api/endpoints', { body: { name: 'Plain', validationType: 'none' } });
    const { got, detail } = await deliver(ep.url, {});
    const card = showDetail(detail);
    expect(card.querySelector('.answer-status')?.textContent).toBe('200 Accepted: Hookscope’s default answer.');
    expect(within(card).getByRole('region', { name: 'Answer body' }).textContent).toBe(got.body);
    expect(JSON.parse(got.body)).toEqual({ success: true, data: { id: detail.id } });
    expect(within(card).queryByText(/delay/)).toBeNull();
  });

  test('a delivery stored before answers were recorded says so; a binary answer shows its bytes and size', () => {
    const base = {
      id: 'log_1',
      endpointId: 'ep_1',
      method: 'POST',
      path: '/',
      query: {},
      headers: {},
      rawHeaders: [],
      contentType: null,
      size: 0,
      sourceIp: null,
      receivedAt: '2025-03-01T12:00:00.000Z',
      status: 'success',
      verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
      pinned: false,
      eventType: null,
      body: '',
      bodyEncoding: 'utf8',
      explainable: false,
    } as unknown as LogDetail;
    const why =
      "Stored before Hookscope recorded its answers; the answer may have been the endpoint's custom response.";
    let card = showDetail({ ...base, answer: null, answerUnknown: why });
    expect(card.textContent).toBe(`Answered to the sender` + `Not known. ${why}`);
    cleanup();

    card = showDetail({
      ...base,
      answer: { kind: 'custom', status: 200, headers: [], body: 'AAFB/w==', bodyEncoding: 'base64', delayMs: 0 },
      answerUnknown: null,
    });
    expect(within(card).getByText('Binary body, 4 B:')).toBeInTheDocument();
    expect(within(card).getByRole('region', { name: 'Answer body' }).textContent).toBe(
      `00000000  00 01 41 ff${' '.repeat(36)}  ..A.`,
    );
  });
});
