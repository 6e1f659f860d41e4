import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { browserClient, type LogDetail } from '../../api/client.ts';
import { createAppStores, StoresContext, useSlice, type AppStores } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { useShortcuts } from '../app/use-shortcuts.ts';
import { DetailActions } from './detail-actions.tsx';

const detail = {
  id: 'log_1',
  endpointId: 'ep_1',
  method: 'POST',
  path: '/',
  query: {},
  status: 'success',
  verification: { scheme: 'none', result: 'none', reason: null, detail: null, matchedSecret: null },
  pinned: false,
  explainable: false,
} as unknown as LogDetail;

/** The open delivery's actions, as the detail pane shows them, and the keyboard beside them. */
function Open({ stores }: { stores: AppStores }) {
  useShortcuts(stores);
  const d = useSlice(stores.selection, (s) => s.detail);
  return d && <DetailActions detail={d} />;
}

describe('Explain in the delivery actions', () => {
  afterEach(cleanup);

  test('offered as the engine says (the detail, then a log.updated event), and selecting reads no replay history', () => {
    // No engine answers here: a request would be a notice, and the replay store's open() is counted.
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    let historyReads = 0;
    stores.replay.setState({ open: async () => void historyReads++ });
    stores.selection.setState({ selectedId: 'log_1', detail });
    render(
      <StoresContext.Provider value={stores}>
        <Open stores={stores} />
      </StoresContext.Provider>,
    );
    expect(screen.queryByRole('button', { name: 'Explain' })).toBeNull();
    fireEvent.keyDown(window, { key: 'x' });
    expect(stores.ui.getState().panel).toBe('none');

    // A replay of it failed elsewhere: connectLive hands the event's value to the selection.
    act(() => stores.selection.getState().explainable('log_1', true));
    fireEvent.click(screen.getByRole('button', { name: 'Explain' }));
    expect(stores.ui.getState().panel).toBe('explain');
    act(() => stores.ui.getState().setPanel('none'));
    fireEvent.keyDown(window, { key: 'x' });
    expect(stores.ui.getState().panel).toBe('explain');

    act(() => stores.selection.getState().explainable('log_1', false));
    expect(screen.queryByRole('button', { name: 'Explain' })).toBeNull();
    expect(historyReads).toBe(0);
    expect(stores.notices.getState().notices).toEqual([]);
  });
});
