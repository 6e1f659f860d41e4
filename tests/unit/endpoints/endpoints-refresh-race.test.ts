import assert from 'node:assert/strict';
import { endpointsMigrations } from '../../../server/endpoints/endpoints-migrations.ts';
import type { EndpointRecord } from '../../../server/endpoints/endpoint-types.ts';
import { EndpointsService } from '../../../server/endpoints/endpoints-service.ts';
import { SqljsEndpointsRepository } from '../../../server/storage/sqljs/endpoints-sqljs.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { BaseUrls } from '../../../server/support/base-urls.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { IdGenerator } from '../../../server/support/ids.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-endpoints-race-');
const ALICE = { id: 'acc_alice', name: 'alice' };

/**
 * A team server's endpoint table (EndpointsService with `shared`) re-reads an
 * endpoint from the database on an `endpoint.changed` event and on a receiver
 * miss. A read that began before this instance deleted the endpoint must not put
 * it back (seen in CI: a deleted endpoint still answering for a moment).
 */
describe('the shared endpoint table and reads racing a local delete', () => {
  async function withService(fn: (s: EndpointsService, gate: Gate) => Promise<void>): Promise<void> {
    const clock = new ManualClock(1_700_000_000_000);
    const store = await SqljsStore.open({
      dir: await tempDir(),
      migrations: [{ feature: 'endpoints', migrations: endpointsMigrations }],
      clock,
    });
    try {
      const repo = new SqljsEndpointsRepository(store);
      const gate = new Gate();
      const service = new EndpointsService({
        // The real repository; its `find` answers only when the test opens the gate.
        repo: Object.assign(Object.create(repo) as SqljsEndpointsRepository, {
          find: async (id: string) => {
            const found = await repo.find(id);
            await gate.passed();
            return found;
          },
        }),
        clock,
        random: new SeededRandom(1),
        ids: new IdGenerator(clock, new SeededRandom(2)),
        urls: new BaseUrls(),
        secretGraceMs: 0,
        dependents: { deleted: async () => {}, updated: async () => {} },
        events: { publish: () => {} },
        shared: true,
      });
      await service.init();
      await fn(service, gate);
    } finally {
      await store.close();
    }
  }

  test('a refresh whose read began before the delete leaves the endpoint deleted', async () => {
    await withService(async (service, gate) => {
      const { id } = await service.create(ALICE, { name: 'doomed', validationType: 'none' });
      gate.close();
      const refreshing = service.refresh(id);
      await gate.reached();
      await service.delete(ALICE, id);
      gate.open();
      await refreshing;
      assert.equal(service.forReceiver(id), undefined);
      assert.equal(await service.lookup(id), undefined);
    });
  });

  test('a receiver miss whose read began before the delete does not put the endpoint back', async () => {
    await withService(async (service, gate) => {
      const { id } = await service.create(ALICE, { name: 'doomed', validationType: 'none' });
      // Another instance's view: the table lacks it, so the receiver reads the database.
      const record: EndpointRecord | undefined = await service.lookup(id).then(() => service.own(ALICE, id));
      assert.ok(record);
      gate.close();
      const deleting = service.delete(ALICE, id);
      const missing = service.lookup(id);
      gate.open();
      await deleting;
      assert.equal(await missing, undefined);
      assert.equal(service.forReceiver(id), undefined);
    });
  });

  test('a refresh still applies a change made elsewhere after a local update', async () => {
    await withService(async (service, gate) => {
      const { id } = await service.create(ALICE, { name: 'first', validationType: 'none' });
      gate.close();
      const refreshing = service.refresh(id);
      await gate.reached();
      await service.update(ALICE, id, { name: 'second' });
      gate.open();
      await refreshing;
      assert.equal(service.own(ALICE, id).name, 'second');
    });
  });
});

/** Holds `find` until opened; `reached` resolves once a read is waiting. */
class Gate {
  private openNow = true;
  private waiters: (() => void)[] = [];
  private arrived: (() => void) | null = null;
  private arrival = Promise.resolve();

  close(): void {
    this.openNow = false;
    this.arrival = new Promise((resolve) => (this.arrived = resolve));
  }

  open(): void {
    this.openNow = true;
    for (const w of this.waiters.splice(0)) w();
  }

  reached(): Promise<void> {
    return this.arrival;
  }

  passed(): Promise<void> {
    if (this.openNow) return Promise.resolve();
    this.arrived?.();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
