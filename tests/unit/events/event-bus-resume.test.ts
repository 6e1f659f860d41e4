import assert from 'node:assert/strict';
import { EventBus, type EngineEvent } from '../../../server/events/event-bus.ts';
import type { EventDraft, EventTransport } from '../../../server/events/event-transport.ts';
import { describe, test } from '../../helpers/node-test.ts';

/**
 * A transport whose kept events are read asynchronously (as from a shared
 * database): the test decides when the read finishes and what arrives live
 * meanwhile.
 */
class SlowTransport implements EventTransport {
  readonly shared = true;
  readonly idSpace = 'slow';
  sink: (e: EngineEvent) => void = () => {};
  private finish: (events: EngineEvent[]) => void = () => {};
  deliverTo(sink: (e: EngineEvent) => void): void {
    this.sink = sink;
  }
  append(_draft: EventDraft): void {}
  since(): Promise<EngineEvent[]> {
    return new Promise((resolve) => (this.finish = resolve));
  }
  kept(events: EngineEvent[]): void {
    this.finish(events);
  }
}

const event = (id: number, accountId = 'acct_a'): EngineEvent => ({
  id,
  accountId,
  type: 'endpoint.changed',
  data: { endpointId: `ep_${id}`, change: 'updated' },
  at: 0,
});

const settle = () => new Promise((r) => setImmediate(r));

describe('EventBus resume from a transport that reads kept events asynchronously', () => {
  test('kept events first, then those that arrived meanwhile, none twice, then live', async () => {
    const transport = new SlowTransport();
    const bus = new EventBus({ transport });
    const got: number[] = [];
    bus.subscribe('acct_a', (e) => got.push(e.id), 5);
    transport.sink(event(7));
    transport.sink(event(8, 'acct_b'));
    transport.sink(event(9));
    assert.deepEqual(got, [], 'live events wait for the kept ones');
    transport.kept([event(6), event(7)]);
    await settle();
    assert.deepEqual(got, [6, 7, 9]);
    transport.sink(event(10));
    assert.deepEqual(got, [6, 7, 9, 10]);
  });

  test('unsubscribed before the read finishes: nothing is delivered', async () => {
    const transport = new SlowTransport();
    const bus = new EventBus({ transport });
    const got: number[] = [];
    const off = bus.subscribe('acct_a', (e) => got.push(e.id), 0);
    transport.sink(event(2));
    off();
    transport.kept([event(1)]);
    await settle();
    transport.sink(event(3));
    assert.equal(bus.listenerCount(), 0);
    assert.deepEqual(got, []);
  });

  test('observe sees every account, and shared follows the transport', () => {
    const transport = new SlowTransport();
    const bus = new EventBus({ transport });
    const seen: string[] = [];
    const stop = bus.observe((e) => seen.push(`${e.accountId}:${e.id}`));
    transport.sink(event(1));
    transport.sink(event(2, 'acct_b'));
    stop();
    transport.sink(event(3));
    assert.deepEqual(seen, ['acct_a:1', 'acct_b:2']);
    assert.equal(bus.shared, true);
    assert.equal(new EventBus().shared, false);
  });
});
