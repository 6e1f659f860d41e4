import { renderHook } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { browserClient, type LogSummary } from '../../api/client.ts';
import { createAppStores } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { useFollowNewest } from './use-follow-newest.ts';

const log = (id: string): LogSummary => ({ id, endpointId: 'ep_1', status: 'success' }) as LogSummary;

/** "Follow newest" across the two stores it watches: the list's arrivals and the selection's choice. */
describe('following the newest delivery', () => {
  const follow = () => {
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    // What following opened, and how: the detail itself is not the point here.
    const opened: [string | null, boolean][] = [];
    stores.selection.setState({
      select: async (id, byFollowing = false) => {
        opened.push([id, byFollowing]);
        stores.selection.setState(byFollowing ? { selectedId: id } : { selectedId: id, following: false });
      },
    });
    const seen = { scrolls: 0, unfollowed: [] as number[] };
    renderHook(() =>
      useFollowNewest(
        stores.deliveries,
        stores.selection,
        () => seen.scrolls++,
        (rows) => seen.unfollowed.push(rows),
      ),
    );
    return { stores, opened, seen };
  };

  test('an arrival is scrolled to and opened; once the user opens another, arrivals only keep the place', async () => {
    const { stores, opened, seen } = follow();
    stores.deliveries.getState().received(log('log_1'));
    expect(opened).toEqual([['log_1', true]]);
    expect([seen.scrolls, stores.selection.getState().following]).toEqual([1, true]);

    await stores.selection.getState().select('log_0');
    stores.deliveries.getState().received(log('log_2'));
    expect(opened).toEqual([
      ['log_1', true],
      ['log_0', false],
    ]);
    expect([seen.scrolls, seen.unfollowed]).toEqual([1, [1]]);
  });

  test('pressing "Follow newest" again jumps to the top and opens the newest', async () => {
    const { stores, opened, seen } = follow();
    await stores.selection.getState().select('log_0');
    stores.deliveries.getState().received(log('log_1'));
    stores.selection.getState().setFollowing(true);
    expect(opened).toEqual([
      ['log_0', false],
      ['log_1', true],
    ]);
    expect([seen.scrolls, stores.selection.getState().selectedId]).toEqual([1, 'log_1']);
  });
});
