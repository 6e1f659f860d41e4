import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { LogDetail } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { BodyView } from './body-view.tsx';
import { browserClient } from '../../api/client.ts';

const memory = (): Pick<Storage, 'getItem' | 'setItem'> => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
};

function show(detail: Partial<LogDetail>) {
  const stores = createAppStores(browserClient('http://127.0.0.1:9'), memory());
  const full = {
    id: 'log_1',
    contentType: null,
    body: '',
    bodyEncoding: 'utf8',
    truncated: false,
    ...detail,
  } as LogDetail;
  return render(
    <StoresContext.Provider value={stores}>
      <BodyView detail={full} />
    </StoresContext.Provider>,
  );
}

describe('BodyView', () => {
  afterEach(cleanup);

  test('a JSON body is visible at once as a tree; Raw shows the exact bytes', () => {
    show({ contentType: 'application/json', body: '{"type":"invoice.paid","amount":4200}' });
    expect(screen.getByRole('radio', { name: 'JSON' })).toBeChecked();
    expect(screen.getByRole('tree')).toHaveTextContent('invoice.paid');
    fireEvent.click(screen.getByRole('radio', { name: 'Raw' }));
    expect(screen.queryByRole('tree')).toBeNull();
    expect(screen.getByText('{"type":"invoice.paid","amount":4200}')).toBeInTheDocument();
  });

  test('a form post opens as a table of its fields; binary as hex, without a text view', () => {
    show({ contentType: 'application/x-www-form-urlencoded', body: 'a=1&b=two+words' });
    expect(screen.getByRole('rowheader', { name: 'b' }).nextSibling).toHaveTextContent('two words');
    cleanup();
    show({ contentType: 'application/octet-stream', body: 'AAFB', bodyEncoding: 'base64' });
    expect(screen.getByRole('radio', { name: 'Hex' })).toBeChecked();
    expect(screen.queryByRole('radio', { name: 'Pretty' })).toBeNull();
    expect(screen.getByText(/^00000000 00 01 41 +\.\.A$/)).toBeInTheDocument();
  });

  test('a JSON body 3,000 levels deep is not given to the tree: the view says why and shows the raw text', () => {
    const body = `${'['.repeat(3000)}"deep"${']'.repeat(3000)}`;
    const { container } = show({ contentType: 'application/json', body });
    expect(screen.queryByRole('tree')).toBeNull();
    expect(screen.queryByRole('radio', { name: 'JSON' })).toBeNull();
    expect(screen.queryByRole('radio', { name: 'Pretty' })).toBeNull();
    expect(screen.getByRole('radio', { name: 'Raw' })).toBeChecked();
    expect(
      screen.getByText(
        'This JSON is nested more than 100 levels deep, more than the tree shows: here is its raw text.',
      ),
    ).toBeInTheDocument();
    expect(container.querySelector('pre.code')?.textContent).toBe(body);
  });

  test('bidi controls in the raw, pretty, form and tree views are visible markers; Download keeps the exact bytes', async () => {
    const body = '{"file":"invoice_\u202Efdp.exe"}';
    show({ contentType: 'application/json', body });
    expect(screen.getByRole('tree')).toHaveTextContent('invoice_⟨U+202E⟩fdp.exe');
    fireEvent.click(screen.getByRole('radio', { name: 'Raw' }));
    const mark = screen.getByTitle(/^U\+202E RIGHT-TO-LEFT OVERRIDE: /);
    expect(mark.textContent).toBe('⟨U+202E⟩');
    expect(mark.parentElement?.textContent).toBe('{"file":"invoice_⟨U+202E⟩fdp.exe"}');
    fireEvent.click(screen.getByRole('radio', { name: 'Pretty' }));
    expect(screen.getByTitle(/^U\+202E /).parentElement?.textContent).toBe('{\n  "file": "invoice_⟨U+202E⟩fdp.exe"\n}');

    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (blobs.push(b as Blob), 'blob:x'));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(new TextDecoder().decode(await blobs[0]!.arrayBuffer())).toBe(body);

    cleanup();
    show({ contentType: 'application/x-www-form-urlencoded', body: 'to=%E2%80%AEtxt.exe' });
    expect(screen.getByRole('rowheader', { name: 'to' }).nextSibling).toHaveTextContent('⟨U+202E⟩txt.exe');
  });
});
