import assert from 'node:assert/strict';
import { after, before, describe, test } from '../../helpers/node-test.ts';
import { migrationsOf } from '../../../server/engine/feature.ts';
import { logsFeature } from '../../../server/logs/logs-feature.ts';
import { remediationFeature } from '../../../server/remediation/remediation-feature.ts';
import { replayFeature } from '../../../server/replay/replay-feature.ts';
import { shareFeature } from '../../../server/share/share-feature.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SqljsForwardQueueRepository } from '../../../server/storage/sqljs/forward-queue-sqljs.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SqljsRemediationRepository } from '../../../server/storage/sqljs/remediation-sqljs.ts';
import { SqljsReplayRepository } from '../../../server/storage/sqljs/replay-sqljs.ts';
import { SqljsShareRepository } from '../../../server/storage/sqljs/share-sqljs.ts';
import { BaseUrls } from '../../../server/support/base-urls.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { IdGenerator } from '../../../server/support/ids.ts';
import { cryptoRandom } from '../../../server/support/random.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-cascade-');

/**
 * Each feature's part of the endpoint-deletion cascade, alone. Through the API
 * these parts are hidden: deleting the endpoint's logs fires the triggers that
 * follow logs (shares_follow_logs, replays_follow_logs, analyses_follow_logs),
 * which would remove the same rows. So the rows here hang off no log, and each
 * feature's `endpointDeleted` must remove its own, and only its own.
 */
describe("each feature's part of the endpoint-deletion cascade", () => {
  const clock = new ManualClock(Date.parse('2026-11-24T10:00:00Z'));
  const ids = new IdGenerator(clock, cryptoRandom);
  const unused = () => {
    throw new Error('not used by endpointDeleted');
  };
  const core = { clock, random: cryptoRandom, ids, urls: new BaseUrls(), events: { publish: () => undefined } };
  let store: SqljsStore;
  let features: {
    share: ReturnType<typeof shareFeature>;
    remediation: ReturnType<typeof remediationFeature>;
    replay: ReturnType<typeof replayFeature>;
  };

  before(async () => {
    store = new SqljsStore({ dir: await tempDir() });
    const endpoints = { forReceiver: () => undefined, own: unused };
    const logs = logsFeature({
      ...core,
      repo: new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 100, maxBodyBytesPerAccount: 1 << 20 })),
      endpoints,
      explainable: unused,
    });
    const replay = replayFeature({
      ...core,
      repo: new SqljsReplayRepository(store),
      queue: new SqljsForwardQueueRepository(store),
      logs: logs.service,
      endpoints,
      forwardPolicy: { initialBackoffMs: 1000, maxBackoffMs: 1000, timeoutMs: 1000 },
      forwardLanes: { leaseMs: 1000, scanIntervalMs: 1000 },
      onError: unused,
    });
    const share = shareFeature({
      ...core,
      repo: new SqljsShareRepository(store),
      logs: logs.service,
      reportFault: () => 'err_unused',
    });
    const remediation = remediationFeature({
      ...core,
      repo: new SqljsRemediationRepository(store),
      logs: logs.service,
      endpoints,
      replays: replay.service,
      limits: { maxBodyBytes: 1, requestTimeoutMs: 1, bodyIdleTimeoutMs: 1, maxInFlightBodyBytes: 1 },
      secretGraceMs: 1,
      llm: () => null,
      onError: unused,
    });
    await store.load(migrationsOf([logs, replay, share, remediation]));
    features = { share, remediation, replay };
  });
  after(() => store.close());

  const TABLES = ['shares', 'remediation_analyses', 'replays', 'forward_queue'] as const;

  /** One row per table for each (account, endpoint). */
  async function seed(): Promise<void> {
    await store.write(TABLES.map((t) => ({ sql: `DELETE FROM ${t}`, params: [] })));
    for (const [account, endpoint] of [
      ['acc_1', 'ep_gone'],
      ['acc_1', 'ep_kept'],
    ] as const) {
      const log = `log_${endpoint}`;
      await store.write([
        {
          sql: 'INSERT INTO shares (token_hash, account_id, log_id, endpoint_id, redact, created_at, expires_at) VALUES (?, ?, ?, ?, 0, 0, 1)',
          params: [`hash_${endpoint}`, account, log, endpoint],
        },
        {
          sql: "INSERT INTO remediation_analyses (log_id, account_id, endpoint_id, analysis, created_at) VALUES (?, ?, ?, '{}', 0)",
          params: [log, account, endpoint],
        },
        {
          sql: `INSERT INTO replays (id, account_id, log_id, endpoint_id, target_url, method, status, response_time, error_code,
                  error_message, replay_trigger, created_at, request_headers, response_headers, response_truncated, response_body)
                VALUES (?, ?, ?, ?, 'http://127.0.0.1:1/', 'POST', 200, 1, NULL, NULL, 'manual', 0, '[]', '[]', 0, x'')`,
          params: [`rp_${endpoint}`, account, log, endpoint],
        },
        {
          sql: 'INSERT INTO forward_queue (account_id, endpoint_id, log_id, enqueued_at) VALUES (?, ?, ?, 0)',
          params: [account, endpoint, log],
        },
      ]);
    }
  }

  /** Rows left per table, as `table:endpoint` pairs. */
  async function left(): Promise<string[]> {
    const out: string[] = [];
    for (const t of TABLES) {
      for (const r of await store.all<{ endpoint_id: string }>(`SELECT endpoint_id FROM ${t} ORDER BY endpoint_id`)) {
        out.push(`${t}:${r.endpoint_id}`);
      }
    }
    return out;
  }

  const ALL = TABLES.flatMap((t) => [`${t}:ep_gone`, `${t}:ep_kept`]);
  const cases = [
    ['share', ['shares']],
    ['remediation', ['remediation_analyses']],
    ['replay', ['replays', 'forward_queue']],
  ] as const;
  for (const [name, tables] of cases) {
    test(`${name} removes its rows of the deleted endpoint, and nothing else`, async () => {
      await seed();
      assert.deepEqual(await left(), ALL);
      await features[name].endpointDeleted('acc_1', 'ep_gone');
      const gone = new Set<string>(tables.map((t) => `${t}:ep_gone`));
      assert.deepEqual(
        await left(),
        ALL.filter((row) => !gone.has(row)),
      );
    });
  }
});
