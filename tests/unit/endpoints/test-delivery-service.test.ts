import assert from 'node:assert/strict';
import type { EndpointRecord } from '../../../server/endpoints/endpoint-types.ts';
import { TestDeliveryService } from '../../../server/endpoints/test-delivery-service.ts';
import { BaseUrls } from '../../../server/support/base-urls.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { startTestEngine } from '../../helpers/test-engine.ts';

describe('TestDeliveryService', () => {
  test("waits out the endpoint's delay in milliseconds on top of its own timeout", async () => {
    const t = await startTestEngine();
    try {
      const customResponse = { status: 202, headers: [], body: 'late', delayMs: 1500 };
      const id = await t.endpoint({ name: 'slow', validationType: 'none', customResponse });
      // The endpoint as the endpoints service hands it over; its receiver is the engine's, with the real wait.
      const record: EndpointRecord = {
        id,
        accountId: 'acc_local',
        name: 'slow',
        description: null,
        validationType: 'none',
        secret: null,
        previousSecret: null,
        previousSecretExpiresAt: null,
        signatureHeader: null,
        toleranceSeconds: null,
        forwardUrl: null,
        customResponse,
        isActive: true,
        createdAt: 0,
        updatedAt: 0,
      };
      const urls = new BaseUrls();
      urls.receiver = t.engine.receiverUrl;
      // 300 ms alone is far too short for the receiver's 1,500 ms wait: only the delay added to it lets the answer in.
      const service = new TestDeliveryService({
        endpoints: { own: () => record },
        urls,
        clock: new ManualClock(Date.UTC(2025, 0, 1)),
        random: new SeededRandom(1),
        timeoutMs: 300,
      });
      const result = await service.send({ id: 'acc_local', name: 'local' }, id);
      assert.equal(result.status, 202);
      assert.match(result.logId ?? '', /^log_/);
    } finally {
      await t.stop();
    }
  });
});
