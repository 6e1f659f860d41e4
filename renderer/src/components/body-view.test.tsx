import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import type { LogDetail } from '../api/client.ts';
import { createAppStores, StoresContext } from '../stores/app-stores.ts';
import { BodyView } from './body-view.tsx';
import { browserClient } from '../api/client.ts';

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
});
