import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import type { LogVerification } from '../../../server/logs/logs-schemas.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { verificationFromJson, verificationJson } from '../../../server/storage/rows/verification-json.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { newLog } from '../../helpers/new-log.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-verification-json-');
const DETAIL =
  "The X-Hub-Signature-256 signature does not match an HMAC-SHA256 of the body with the endpoint's secret.";

/** Every shape a verification takes (signatures/verification.ts, none.ts, the receiver's refusals), as stored now. */
const FORMS: [LogVerification, string][] = [
  [
    { scheme: 'github', result: 'valid', reason: null, matchedSecret: 'current', detail: null },
    '{"scheme":"github","result":"valid"}',
  ],
  [
    { scheme: 'hmac_sha256', result: 'valid', reason: null, matchedSecret: 'previous', detail: null },
    '{"scheme":"hmac_sha256","result":"valid","matchedSecret":"previous"}',
  ],
  [
    { scheme: 'none', result: 'skipped', reason: null, matchedSecret: null, detail: null },
    '{"scheme":"none","result":"skipped"}',
  ],
  [
    { scheme: 'github', result: 'invalid', reason: 'no_matching_signature', matchedSecret: null, detail: DETAIL },
    `{"scheme":"github","result":"invalid","reason":"no_matching_signature","detail":${JSON.stringify(DETAIL)}}`,
  ],
  [
    { scheme: 'stripe', result: 'invalid', reason: 'missing_header', matchedSecret: null, detail: null },
    '{"scheme":"stripe","result":"invalid","reason":"missing_header"}',
  ],
];

// The verification column was 107 bytes a row at 100,000 seeded deliveries, null fields and
// the usual matched secret spelled out in every row (issue 25).
describe("a log's stored verification", () => {
  test('is written without the fields that hold their default', () => {
    for (const [v, stored] of FORMS) assert.equal(verificationJson(v), stored);
  });

  test('reads back as it was given, from the compact form and from the full one older rows have', () => {
    for (const [v] of FORMS) {
      assert.deepStrictEqual(verificationFromJson(verificationJson(v)), v);
      assert.deepStrictEqual(verificationFromJson(JSON.stringify(v)), v);
    }
  });

  test('through the sql.js repository: compact rows and full rows list alike, and failures count by reason', async () => {
    const store = await SqljsStore.open({
      dir: await tempDir(),
      migrations: [{ feature: 'logs', migrations: logsMigrations }],
    });
    try {
      const repo = new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 100, maxBodyBytesPerAccount: 1e9 }));
      const [valid, , , failed] = FORMS.map(([v]) => v);
      await repo.insert('log_1', newLog('{}', 'success', { verification: valid! }), 'applied');
      await repo.insert('log_2', newLog('{}', 'failed', { verification: failed! }), 'applied');
      // A row as an older version wrote it: every field, nulls too.
      await repo.insert('log_3', newLog('{}', 'failed', { verification: failed! }), 'applied');
      await store.write([
        { sql: "UPDATE logs SET verification = ? WHERE id = 'log_3'", params: [JSON.stringify(failed)] },
      ]);
      const rows = await store.all<{ id: string; verification: string }>(
        'SELECT id, verification FROM logs ORDER BY id',
      );
      assert.deepStrictEqual(
        rows.map((r) => r.verification),
        [FORMS[0]![1], FORMS[3]![1], JSON.stringify(failed)],
      );
      const { rows: listed } = await repo.page('acc_a', { limit: 10, offset: 0 });
      assert.deepStrictEqual(
        listed.map((l) => [l.id, l.verification]),
        [
          ['log_3', failed],
          ['log_2', failed],
          ['log_1', valid],
        ],
      );
      const hour = 3_600_000;
      const from = Math.floor(1_700_000_000_000 / hour) * hour;
      for (const stats of [
        await repo.stats('acc_a', { fromMs: from, toMs: from + hour, bucketMs: hour }),
        await repo.statsFromLogs('acc_a', { fromMs: from, toMs: from + hour, bucketMs: 60_000 }),
      ])
        assert.deepStrictEqual(stats.failureReasons, [{ reason: 'no_matching_signature', count: 2 }]);
    } finally {
      await store.close();
    }
  });
});
