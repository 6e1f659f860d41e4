import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { EndpointDependents, type EndpointDependent } from '../../../server/endpoints/endpoint-dependents.ts';
import type { EndpointRecord } from '../../../server/endpoints/endpoint-types.ts';
import { listed, migrationsOf } from '../../../server/engine/feature.ts';

const sql = 'SELECT 1';

describe('the feature list', () => {
  test("the store gets each feature's migrations under its name, in list order, skipping features with none", () => {
    const features = [
      { name: 'accounts', migrations: [{ number: 1, name: 'accounts', sql }] },
      { name: 'export' },
      {
        name: 'logs',
        migrations: [
          { number: 1, name: 'logs', sql },
          { number: 2, name: 'logs_index', sql },
        ],
      },
    ];
    assert.deepEqual(
      migrationsOf(features).map((s) => [s.feature, s.migrations.map((m) => m.name)]),
      [
        ['accounts', ['accounts']],
        ['logs', ['logs', 'logs_index']],
      ],
    );
  });

  test('a factory result with a part Feature does not name does not compile', () => {
    const ok = listed({ name: 'x', service: 1, endpointDeleted: () => undefined });
    assert.equal(ok.service, 1);
    // @ts-expect-error endpointDelete is a misspelt endpointDeleted: the cascade would silently skip the feature.
    listed({ name: 'x', endpointDelete: () => undefined });
    // @ts-expect-error a routes list of the wrong type.
    listed({ name: 'x', routes: 'none' });
  });
});

describe('EndpointDependents', () => {
  const record = { id: 'ep_1', forwardUrl: null } as EndpointRecord;

  test("deletion and updates reach every feature, the list's last first", async () => {
    const calls: string[] = [];
    const dependent = (name: string): EndpointDependent => ({
      endpointDeleted: (accountId, endpointId) => void calls.push(`${name} deleted ${accountId}/${endpointId}`),
      endpointUpdated: async (before, after) => void calls.push(`${name} updated ${before.id}->${after.id}`),
    });
    const dependents = new EndpointDependents();
    dependents.set([dependent('logs'), {}, dependent('replay'), dependent('share')]);
    await dependents.deleted('acc_1', 'ep_1');
    await dependents.updated(record, record);
    assert.deepEqual(calls, [
      'share deleted acc_1/ep_1',
      'replay deleted acc_1/ep_1',
      'logs deleted acc_1/ep_1',
      'share updated ep_1->ep_1',
      'replay updated ep_1->ep_1',
      'logs updated ep_1->ep_1',
    ]);
  });

  test('a failing dependent stops the deletion there (the endpoint service then keeps the endpoint)', async () => {
    const calls: string[] = [];
    const dependents = new EndpointDependents();
    dependents.set([
      { endpointDeleted: () => void calls.push('logs') },
      {
        endpointDeleted: () => {
          throw new Error('disk full');
        },
      },
    ]);
    await assert.rejects(dependents.deleted('acc_1', 'ep_1'), { message: 'disk full' });
    assert.deepEqual(calls, [], 'logs were not deleted after a later feature failed');
  });

  test('before the engine has set the list, a deletion is refused rather than leaving rows behind', async () => {
    await assert.rejects(new EndpointDependents().deleted('acc_1', 'ep_1'), {
      message: 'endpoint dependents are not set yet',
    });
  });
});
