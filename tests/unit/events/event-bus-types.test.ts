import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { EventBus } from '../../../server/events/event-bus.ts';

// The event map types the bus: each `@ts-expect-error` below is a payload that
// must not compile. Should the bus stop checking (data typed `unknown` again),
// the directive is unused and `npm run typecheck` fails.
describe('EventBus typed by the event map', () => {
  test('a subscriber narrows on type; publish accepts only the payload of that type', () => {
    const bus = new EventBus({ now: () => 0 });
    const seen: string[] = [];
    bus.subscribe('acct_a', (e) => {
      if (e.type === 'endpoint.changed') seen.push(`${e.data.endpointId} ${e.data.change}`);
      if (e.type === 'log.updated') seen.push(`${e.data.logId} ${e.data.endpointId} ${e.data.change}`);
    });
    bus.publish('acct_a', 'endpoint.changed', { endpointId: 'ep_1', change: 'secret_regenerated' });
    bus.publish('acct_a', 'log.updated', { logId: 'log_1', endpointId: 'ep_1', change: 'forward' });
    bus.publish('acct_b', 'log.updated', { logId: 'log_2', endpointId: 'ep_2', change: 'share' });
    assert.deepEqual(seen, ['ep_1 secret_regenerated', 'log_1 ep_1 forward']);

    // Never called: these exist for the compiler only.
    const wrong = (): void => {
      // @ts-expect-error a change the map does not list
      bus.publish('acct_a', 'endpoint.changed', { endpointId: 'ep_1', change: 'renamed' });
      // @ts-expect-error the payload of another event
      bus.publish('acct_a', 'endpoint.changed', { logId: 'log_1', endpointId: 'ep_1', change: 'share' });
      // @ts-expect-error a deletion is its own event (log.deleted), not a log.updated change
      bus.publish('acct_a', 'log.updated', { logId: 'log_1', endpointId: 'ep_1', change: 'deleted' });
      // @ts-expect-error log.deleted names its logs as an array
      bus.publish('acct_a', 'log.deleted', { endpointId: 'ep_1', logIds: 'log_1', cleared: false });
      // @ts-expect-error an event the map does not have
      bus.broadcast('tunnel.changed', {}, ['acct_a']);
    };
    assert.equal(typeof wrong, 'function');
  });
});
