import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { notifyObservers, type DeliveryObserver } from '../../../server/receiver/delivery-observer.ts';

const rejection = { accountId: 'acc', endpointId: 'ep', reason: 'rate_limited' as const, at: 1 };

describe('delivery observers', () => {
  test('every observer runs, in order; one that throws or rejects is reported and the others still run', async () => {
    const calls: string[] = [];
    const errors: string[] = [];
    const observers: DeliveryObserver[] = [
      { rejected: () => void calls.push('sync') },
      {
        rejected: () => {
          calls.push('throws');
          throw new Error('thrown');
        },
      },
      {
        rejected: async () => {
          calls.push('rejects');
          throw new Error('rejected');
        },
      },
      {},
      { rejected: () => void calls.push('last') },
    ];
    await notifyObservers(
      observers,
      (o) => o.rejected?.(rejection),
      (e) => errors.push((e as Error).message),
    );
    assert.deepEqual(calls, ['sync', 'throws', 'rejects', 'last']);
    assert.deepEqual(errors, ['thrown', 'rejected']);
  });

  test('it settles only once every promise an observer returned has settled', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    let done = false;
    const settled = notifyObservers(
      [{ rejected: () => slow.then(() => void (done = true)) }, { rejected: () => undefined }],
      (o) => o.rejected?.(rejection),
      () => assert.fail('nothing fails'),
    ).then(() => 'settled');
    const first = await Promise.race([settled, new Promise((r) => setImmediate(() => r('waiting')))]);
    assert.equal(first, 'waiting');
    release();
    assert.equal(await settled, 'settled');
    assert.equal(done, true);
  });
});
