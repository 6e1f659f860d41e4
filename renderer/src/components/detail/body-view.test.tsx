import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { LogDetail } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { LARGE_BODY_CHARS } from '../../lib/body-views.ts';
import { formatBytes } from '../../lib/format.ts';
import { memoryStorage } from '../../test-engine.ts';
import { BodyView } from './body-view.tsx';
import { browserClient } from '../../api/client.ts';

function show(detail: Partial<LogDetail>) {
  const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
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

/** jsdom lays nothing out: the virtualised views are given a 400 px high, 800 px wide box to fill, with rows 20 px high. */
function giveLayout(): void {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(20);
}

describe('BodyView', () => {
  beforeEach(giveLayout);
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
    expect(screen.getByRole('region', { name: 'Hex dump' }).textContent).toBe(
      `00000000  00 01 41${' '.repeat(39)}  ..A`,
    );
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

describe('BodyView at any size', () => {
  beforeEach(giveLayout);
  afterEach(cleanup);

  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `evt_${i}`, amount: i * 7 }));

  test('the tree opens with its first level shown and the rest folded; a click unfolds one level, drawn as rows on screen only', () => {
    const body = JSON.stringify({ data: { object: { id: 'in_1' } }, items: items(5000) });
    show({ contentType: 'application/json', body });
    const tree = screen.getByRole('tree', { name: 'JSON tree' });
    expect(screen.getAllByRole('treeitem').map((r) => r.textContent)).toEqual([
      '▾{…} 2 keys',
      '▸data: {…} 1 key',
      '▸items: […] 5000 items',
    ]);
    expect(tree).not.toHaveTextContent('in_1');
    const itemsRow = screen.getByRole('treeitem', { name: /^items:/ });
    expect(itemsRow).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(itemsRow);
    expect(itemsRow).toHaveAttribute('aria-expanded', 'true');
    const rows = screen.getAllByRole('treeitem');
    // 5,000 items unfolded, a screenful drawn (400 px of 20 px rows, and a few either side).
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(rows[3]).toHaveAttribute('aria-setsize', '5000');
    expect(rows[3]).toHaveAttribute('aria-level', '3');
    expect(rows[3]!.textContent).toBe('▸0: {…} 2 keys');
  });

  test('the tree answers the keyboard: arrows move, ArrowRight unfolds, ArrowLeft folds and goes up', () => {
    show({ contentType: 'application/json', body: '{"a":{"b":1},"c":2}' });
    const root = screen.getAllByRole('treeitem')[0]!;
    expect(root).toHaveAttribute('tabindex', '0');
    root.focus();
    fireEvent.keyDown(root, { key: 'ArrowDown' });
    const a = screen.getByRole('treeitem', { name: /^a:/ });
    expect(a).toHaveFocus();
    fireEvent.keyDown(a, { key: 'ArrowRight' });
    expect(a).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(a, { key: 'ArrowRight' });
    expect(screen.getByRole('treeitem', { name: /^b:\s?1$/ })).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(a).toHaveFocus();
    fireEvent.keyDown(a, { key: 'ArrowLeft' });
    expect(a).toHaveAttribute('aria-expanded', 'false');
    fireEvent.keyDown(a, { key: 'End' });
    expect(screen.getByRole('treeitem', { name: /^c:\s?2$/ })).toHaveFocus();
  });

  test('a body over LARGE_BODY_CHARS opens as Raw, drawn as short rows (no node holds the body); JSON is a click away', () => {
    const body = JSON.stringify(items(20_000));
    expect(body.length).toBeGreaterThan(LARGE_BODY_CHARS);
    show({ contentType: 'application/json', body, size: body.length });
    expect(screen.getByRole('radio', { name: 'Raw' })).toBeChecked();
    expect(screen.getByText(/^A large body/).textContent).toBe(
      `A large body (${formatBytes(body.length)}): opened as Raw, which is quick to draw and to search. JSON is one click away.`,
    );
    const raw = screen.getByRole('region', { name: 'Raw text' });
    const lines = raw.querySelectorAll('.body-line');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.length).toBeLessThan(60);
    expect(lines[0]!.textContent).toBe(body.slice(0, 100));
    expect(lines[1]!.textContent).toBe(body.slice(100, 200));
    expect(raw.textContent.length).toBeLessThan(10_000);
    fireEvent.click(screen.getByRole('radio', { name: 'JSON' }));
    const rows = screen.getAllByRole('treeitem');
    expect(rows.slice(0, 2).map((r) => r.textContent)).toEqual(['▾[…] 20000 items', '▸0: {…} 2 keys']);
    expect(rows.length).toBeLessThan(60);
  });
});

describe('Find in body', () => {
  beforeEach(giveLayout);
  afterEach(cleanup);

  const find = (text: string) =>
    fireEvent.change(screen.getByRole('searchbox', { name: 'Find in body' }), { target: { value: text } });
  const marks = () =>
    [...document.querySelectorAll('mark.find-match')].map(
      (m) => `${m.textContent}${m.classList.contains('current') ? '*' : ''}`,
    );

  test('in Raw: every match marked, "n of m", Enter and Shift+Enter move round; Pretty keeps the query', () => {
    show({ contentType: 'text/plain', body: 'paid; PAID; unpaid; pending' });
    expect(screen.getByRole('radio', { name: 'Pretty' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Raw' }));
    const box = screen.getByRole('searchbox', { name: 'Find in body' });
    expect(screen.getByRole('status').textContent).toBe('');
    find('paid');
    expect(screen.getByRole('status').textContent).toBe('1 of 3');
    expect(marks()).toEqual(['paid*', 'PAID', 'paid']);
    expect(screen.getByRole('region', { name: 'Raw text' }).textContent).toBe('paid; PAID; unpaid; pending');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect([screen.getByRole('status').textContent, marks()]).toEqual(['2 of 3', ['paid', 'PAID*', 'paid']]);
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect([screen.getByRole('status').textContent, marks()]).toEqual(['3 of 3', ['paid', 'PAID', 'paid*']]);
    // A new search starts at its first match.
    find('pai');
    expect([screen.getByRole('status').textContent, marks()]).toEqual(['1 of 3', ['pai*', 'PAI', 'pai']]);
    fireEvent.click(screen.getByRole('button', { name: 'Next match' }));
    expect(screen.getByRole('status').textContent).toBe('2 of 3');
    find('nothing like it');
    expect(screen.getByRole('status').textContent).toBe('No matches');
    expect(marks()).toEqual([]);
    find('pend');
    fireEvent.click(screen.getByRole('radio', { name: 'Pretty' }));
    expect(screen.getByRole('searchbox', { name: 'Find in body' })).toHaveValue('pend');
    expect([screen.getByRole('status').textContent, marks()]).toEqual(['1 of 1', ['pend*']]);
  });

  test('in the tree: a match inside a folded container unfolds it, and is marked there', () => {
    show({ contentType: 'application/json', body: '{"a":{"b":{"target":"the needle"}},"needles":2}' });
    expect(screen.getByRole('tree')).not.toHaveTextContent('the needle');
    find('NEEDLE');
    expect(screen.getByRole('status').textContent).toBe('1 of 2');
    expect(screen.getByRole('treeitem', { name: /^a:/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('treeitem', { name: /^b:/ })).toHaveAttribute('aria-expanded', 'true');
    const target = screen.getByRole('treeitem', { name: /^target:/ });
    expect(target.textContent).toBe('target: "the needle"');
    expect(marks()).toEqual(['needle*', 'needle']);
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Find in body' }), { key: 'Enter' });
    expect([screen.getByRole('status').textContent, marks()]).toEqual(['2 of 2', ['needle', 'needle*']]);
  });

  test('Hex and Form have no find box: they are not text to search', () => {
    show({ contentType: 'application/x-www-form-urlencoded', body: 'a=1' });
    expect(screen.queryByRole('searchbox', { name: 'Find in body' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Hex' }));
    expect(screen.queryByRole('searchbox', { name: 'Find in body' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Raw' }));
    expect(screen.getByRole('searchbox', { name: 'Find in body' })).toBeInTheDocument();
  });
});

describe('BodyView: XML, hex, a folded large body, a view that fails', () => {
  beforeEach(giveLayout);
  afterEach(cleanup);

  test('XML opens in Pretty, indented; XML that is not well-formed is shown as received, saying why', () => {
    show({
      contentType: 'application/xml; charset=utf-8',
      body: '<order id="7"><item sku="a">2</item><note/></order>',
    });
    expect(screen.getByRole('radio', { name: 'Pretty' })).toBeChecked();
    expect(screen.getByRole('region', { name: 'Pretty text' }).textContent).toBe(
      '<order id="7">\n  <item sku="a">2</item>\n  <note/>\n</order>',
    );
    cleanup();
    show({ contentType: 'text/xml', body: '<order><item></order>' });
    expect(screen.getByText('Not indented: </order> closes <item>. Here it is as received.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Pretty text' }).textContent).toBe('<order><item></order>');
  });

  test('hex lists every byte (no 64 KiB cap), 16 to a row in fixed columns, drawing only the rows on screen', () => {
    const body = btoa(String.fromCharCode(...Array.from({ length: 100_000 }, (_, i) => i % 256)));
    show({ contentType: 'application/octet-stream', body, bodyEncoding: 'base64' });
    const hex = screen.getByRole('region', { name: 'Hex dump' });
    expect((hex.querySelector('.body-lines-sizer') as HTMLElement).style.height).toBe(`${6250 * 18}px`);
    const rows = [...hex.querySelectorAll('.hex-row')];
    expect(rows.length).toBeLessThan(60);
    expect(rows[2]!.textContent).toBe('00000020  20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f   !"#$%&\'()*+,-./');
    expect(rows.map((r) => [...r.children].map((c) => c.className))).toEqual(
      rows.map(() => ['hex-offset', 'hex-bytes', 'hex-ascii']),
    );
  });

  test('a large body opened by Follow newest stays folded until asked for; opened by the user, it shows at once', () => {
    const body = JSON.stringify({ data: 'x'.repeat(LARGE_BODY_CHARS) });
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    stores.selection.setState({ openedByFollowing: true });
    const detail = {
      id: 'log_1',
      contentType: 'application/json',
      body,
      bodyEncoding: 'utf8',
      truncated: false,
      size: body.length,
    } as LogDetail;
    const view = render(
      <StoresContext.Provider value={stores}>
        <BodyView detail={detail} />
      </StoresContext.Provider>,
    );
    expect(screen.queryByRole('radiogroup', { name: 'Body view' })).toBeNull();
    expect(screen.getByText(/opened by Follow newest/).textContent).toBe(
      `${formatBytes(body.length)}, opened by Follow newest: a body this large is shown when you ask for it.`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show body' }));
    expect(screen.getByRole('radio', { name: 'Raw' })).toBeChecked();
    expect(screen.getByRole('region', { name: 'Raw text' })).toBeInTheDocument();

    view.unmount();
    stores.selection.setState({ openedByFollowing: false });
    render(
      <StoresContext.Provider value={stores}>
        <BodyView detail={detail} />
      </StoresContext.Provider>,
    );
    expect(screen.queryByRole('button', { name: 'Show body' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Raw text' })).toBeInTheDocument();
    cleanup();

    // A small body opened by following is shown as usual.
    stores.selection.setState({ openedByFollowing: true });
    render(
      <StoresContext.Provider value={stores}>
        <BodyView detail={{ ...detail, body: '{"a":1}', size: 7 }} />
      </StoresContext.Provider>,
    );
    expect(screen.getByRole('tree')).toBeInTheDocument();
  });

  test('a body view that throws is an alert in its place, with "Try again"; the section stays', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Not a string: what a broken engine answer would be; bodyViewsFor throws on it.
    show({ contentType: 'application/json', body: 42 as unknown as string });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/^The body could not be shown\. The rest of Hookscope still works\..+Try again$/);
    expect(screen.getByRole('region', { name: 'Body' })).toContainElement(alert);
  });
});
