import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { browserClient } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';

// jsdom has no modal dialogs: opening one here just sets `open` (Chromium's own is seen in tests/e2e/keyboard.test.ts).
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
});

describe('the shortcuts dialog', () => {
  afterEach(cleanup);

  test('lists every key as the keyboard names it, the arrows beside j and k, and the keys of the list and the panels', () => {
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    stores.ui.getState().setShortcutsOpen(true);
    render(
      <StoresContext.Provider value={stores}>
        <ShortcutsDialog />
      </StoresContext.Provider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).toHaveTextContent('Shortcuts do nothing while you type in a field, except Esc.');
    const rows = [...dialog.querySelectorAll('tr')].map((tr) => [
      [...tr.querySelectorAll('kbd')].map((k) => k.textContent).join(' '),
      tr.querySelector('td')?.textContent,
    ]);
    expect(rows).toEqual([
      ['j ↓', 'Next (older) delivery'],
      ['k ↑', 'Previous (newer) delivery'],
      ['Enter', 'Open the delivery and go to its detail'],
      ['/', 'Search deliveries (Esc goes back to the list, keeping the search)'],
      ['r', 'Replay: the cursor goes to the target URL'],
      ['e', 'Edit and replay: the cursor goes to the target URL'],
      ['s', 'Share: the cursor goes to its first field'],
      ['x', 'Explain a failed delivery'],
      ['p', 'Pin or unpin'],
      ['?', 'Show these shortcuts'],
      ['Esc', 'Close the open panel (or this dialog) and go back to the list'],
      ['Tab', 'From the list (one stop) to the open delivery'],
      ['Space', 'In the list: tick the delivery (Shift+Space ticks a range)'],
      ['Enter', 'In a panel: send (in a multi-line box, Ctrl+Enter or ⌘+Enter)'],
    ]);
    expect(dialog.querySelector('tr th')?.textContent).toBe('j or ↓');
  });
});
