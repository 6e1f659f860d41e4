import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createApiClient } from '../../../../../server/api-client/api-client.ts';
import { createAppStores, StoresContext } from '../../../stores/app-stores.ts';
import { memoryStorage } from '../../../test-engine.ts';
import { ExportMenu } from './export-menu.tsx';

const HAR = '{"log":{"entries":[{"request":{"method":"POST"}}]}}\n';

/** The menu over an engine stand-in that answers every export with a HAR file, or refuses it. */
function show(answer: 'har' | 'refuse' = 'har') {
  const asked: string[] = [];
  const client = createApiClient({
    baseUrl: 'http://engine.test',
    fetch: async (req) => {
      asked.push(new URL(req.url).pathname + new URL(req.url).search);
      const body =
        answer === 'har'
          ? {
              success: true,
              data: {
                format: 'har',
                filename: 'log_1.har',
                contentType: 'application/json; charset=utf-8',
                contentEncoding: 'utf8',
                content: HAR,
              },
            }
          : { success: false, error: { code: 'LOG_NOT_FOUND', message: 'No log log_1.' } };
      return new Response(JSON.stringify(body), {
        status: answer === 'har' ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  const stores = createAppStores(client, memoryStorage());
  render(
    <StoresContext.Provider value={stores}>
      <ExportMenu logId="log_1" />
    </StoresContext.Provider>,
  );
  return { stores, asked };
}

const items = (): string[] => screen.getAllByRole('menuitem').map((i) => i.textContent ?? '');

describe('ExportMenu', () => {
  afterEach(cleanup);

  test('a menu button: closed, then open on click with the first item focused', () => {
    show();
    const button = screen.getByRole('button', { name: 'Export' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', screen.getByRole('menu', { name: 'Export as' }).id);
    expect(items()).toEqual(['JSON', 'HAR', 'Raw HTTP']);
    expect(screen.getByRole('menuitem', { name: 'JSON' })).toHaveFocus();
  });

  test('arrows, Home and End move focus; Escape closes, gives focus back and goes no further', () => {
    show();
    const outside = vi.fn();
    try {
      const button = screen.getByRole('button', { name: 'Export' });
      fireEvent.keyDown(button, { key: 'ArrowUp' });
      expect(screen.getByRole('menuitem', { name: 'Raw HTTP' })).toHaveFocus();
      fireEvent.keyDown(screen.getByRole('menuitem', { name: 'Raw HTTP' }), { key: 'ArrowDown' });
      expect(screen.getByRole('menuitem', { name: 'JSON' })).toHaveFocus();
      fireEvent.keyDown(screen.getByRole('menuitem', { name: 'JSON' }), { key: 'End' });
      expect(screen.getByRole('menuitem', { name: 'Raw HTTP' })).toHaveFocus();
      fireEvent.keyDown(screen.getByRole('menuitem', { name: 'Raw HTTP' }), { key: 'Home' });
      expect(screen.getByRole('menuitem', { name: 'JSON' })).toHaveFocus();
      window.addEventListener('keydown', outside);
      fireEvent.keyDown(screen.getByRole('menuitem', { name: 'JSON' }), { key: 'Escape' });
      expect(screen.queryByRole('menu')).toBeNull();
      expect(button).toHaveFocus();
      expect(button).toHaveAttribute('aria-expanded', 'false');
      // The inspector's Escape (close the open panel) listens on window: the menu's Escape is its own.
      expect(outside).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', outside);
    }
  });

  test('a click outside closes it', () => {
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  test('HAR downloads the engine’s bytes as hookscope-<logId>.har through an object URL it then revokes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const blobs: Blob[] = [];
    const create = vi.fn((b: Blob) => {
      blobs.push(b);
      return 'blob:export-1';
    });
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const { stores, asked } = show();
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'HAR' }));
    await vi.waitFor(() => expect(clicked).toEqual([{ href: 'blob:export-1', download: 'hookscope-log_1.har' }]));
    expect(asked).toEqual(['/api/webhooks/logs/log_1/export?format=har']);
    expect(await blobs[0]!.text()).toBe(HAR);
    expect(blobs[0]!.type).toBe('application/json; charset=utf-8');
    expect(screen.getByRole('button', { name: 'Export' })).toHaveFocus();
    expect(revoke).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revoke).toHaveBeenCalledWith('blob:export-1');
    expect(stores.notices.getState().notices.map((n) => n.text)).toEqual([
      'Exported the delivery as hookscope-log_1.har.',
    ]);
    vi.useRealTimers();
  });

  test('a refusal is a notice in words, and nothing is downloaded', async () => {
    const create = vi.fn(() => 'blob:never');
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() });
    const { stores } = show('refuse');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Raw HTTP' }));
    await vi.waitFor(() =>
      expect(stores.notices.getState().notices.map((n) => n.text)).toEqual([
        'Export as raw HTTP failed: No log log_1. (LOG_NOT_FOUND)',
      ]),
    );
    expect(create).not.toHaveBeenCalled();
  });
});
