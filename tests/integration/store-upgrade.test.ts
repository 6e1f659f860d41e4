import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Stripe from 'stripe';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { snapshotQuery } from '../helpers/snapshot-query.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

// Removed once the file's tests are done.
const tempDir = tempDirs('hookscope-upgrade-');

const FIXTURE = new URL('../fixtures/store-0.1.0/', import.meta.url).pathname;

interface Expected {
  madeAt: number;
  stripeId: string;
  plainId: string;
  validLog: string;
  badLog: string;
  journalLog: string;
  shareToken: string;
  secret: string;
}

/** Every (feature, number) the engine applies today, in the order a fresh store gets them. */
const TODAY = [
  ['accounts', 1],
  ['session', 1],
  ['endpoints', 1],
  ['endpoints', 2],
  ['logs', 1],
  ['logs', 2],
  ['logs', 3],
  ['logs', 4],
  ['logs', 5],
  ['logs', 6],
  ['logs', 7],
  ['logs', 8],
  ['logs', 9],
  ['logs', 10],
  ['logs', 11],
  ['logs', 12],
  ['logs', 13],
  ['logs', 14],
  ['logs', 15],
  ['logs', 16],
  ['logs', 17],
  ['replay', 1],
  ['replay', 2],
  ['replay', 3],
  ['replay', 4],
  ['share', 1],
  ['share', 2],
  ['share', 3],
  ['remediation', 1],
  ['remediation', 2],
  ['metrics', 1],
  ['metrics', 2],
];

/** A data directory holding the fixture's store: a snapshot with schema_migrations and a journal tail. */
async function dataDirWithFixture(): Promise<string> {
  const dataDir = await tempDir();
  const store = join(dataDir, 'store');
  await mkdir(store, { recursive: true, mode: 0o700 });
  await writeFile(join(store, 'hookscope.db'), gunzipSync(await readFile(join(FIXTURE, 'store/hookscope.db.gz'))), {
    mode: 0o600,
  });
  await cp(join(FIXTURE, 'store/journal-000002.log'), join(store, 'journal-000002.log'));
  return dataDir;
}

const snapshotOf = (dataDir: string): string => join(dataDir, 'store', 'hookscope.db');

describe('a store written by Hookscope 0.1.0 (engine-wide migration versions), opened by this engine', () => {
  let expected: Expected;
  let clock: ManualClock;
  let dataDir: string;
  let t: TestEngine;

  before(async () => {
    expected = JSON.parse(await readFile(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;
    // An hour after the fixture was made: its share link (24 h) is still live, on any day the test runs.
    clock = new ManualClock(expected.madeAt + 3_600_000);
    dataDir = await dataDirWithFixture();
    t = await startTestEngine({}, { clock }, dataDir);
  });
  after(() => t.stop());

  test('keeps every endpoint, with its secret', async () => {
    const r = await t.api('GET', '/api/endpoints');
    assert.equal(r.status, 200);
    const byId = new Map<string, { name: string; isActive: boolean }>(
      r.body.data.endpoints.map((e: { id: string; name: string; isActive: boolean }) => [e.id, e]),
    );
    assert.deepEqual(
      [...byId.keys()].sort(),
      [expected.stripeId, expected.plainId].sort(),
      'the two endpoints, and nothing else',
    );
    assert.equal(byId.get(expected.stripeId)?.name, 'legacy stripe');
    // Re-activated after the snapshot: that change lives in the journal tail, replayed on the migrated schema.
    assert.equal(byId.get(expected.plainId)?.isActive, true);

    const payload = '{"id":"evt_after_upgrade"}';
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: expected.secret,
      timestamp: Math.floor(clock.now() / 1000),
    });
    const d = await t.deliver(`/webhook/${expected.stripeId}`, {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
    assert.equal(d.status, 200, 'the stored secret still verifies Stripe signatures');
  });

  test('keeps every log, the journal-only one included, with its verification', async () => {
    const r = await t.api('GET', `/api/webhooks/logs?limit=100`);
    const logs = r.body.data.logs as { id: string; status: string; pinned: boolean; eventType: string | null }[];
    const old = logs.filter((l) => [expected.validLog, expected.badLog, expected.journalLog].includes(l.id));
    assert.deepEqual(
      // Event types are derived at capture; logs stored before they were kept have none.
      old.map((l) => [l.id, l.status, l.pinned, l.eventType]),
      [
        [expected.journalLog, 'success', false, null],
        [expected.badLog, 'failed', false, null],
        [expected.validLog, 'success', false, null],
      ],
    );
    const detail = await t.api('GET', `/api/webhooks/logs/${expected.badLog}`);
    assert.equal(detail.body.data.verification.reason, 'no_matching_signature');
    // Logs stored before pins existed can be pinned (their account's log_stats row gained the pinned counts).
    const pinned = await t.api('PATCH', `/api/webhooks/logs/${expected.badLog}`, { body: { pinned: true } });
    assert.equal(pinned.body.data.pinned, true);
    const onlyPinned = await t.api('GET', '/api/webhooks/logs?pinned=true');
    assert.deepEqual(
      onlyPinned.body.data.logs.map((l: { id: string }) => l.id),
      [expected.badLog],
    );
  });

  test('shows what the old logs were answered where the log tells it, and says why not where it does not', async () => {
    const bad = (await t.api('GET', `/api/webhooks/logs/${expected.badLog}`)).body.data;
    // A failed verification's 400 is rebuilt from the stored verification (custom responses never apply to one).
    assert.equal(bad.answerUnknown, null);
    assert.equal(bad.answer.kind, 'verification_failed');
    assert.equal(bad.answer.status, 400);
    const error = JSON.parse(bad.answer.body).error;
    assert.equal(error.code, 'SIGNATURE_VERIFICATION_FAILED');
    assert.deepEqual(error.details, { logId: expected.badLog, reason: 'no_matching_signature' });
    assert.equal(bad.explainable, true);
    // An accepted one may have had the endpoint's custom response then: not guessed.
    for (const id of [expected.validLog, expected.journalLog]) {
      const ok = (await t.api('GET', `/api/webhooks/logs/${id}`)).body.data;
      assert.equal(ok.answer, null);
      assert.match(ok.answerUnknown, /^Stored before Hookscope recorded its answers; .*custom response\.$/);
      assert.equal(ok.explainable, false);
    }
  });

  test('finds old logs by text: those in the snapshot and the one replayed from the journal', async () => {
    const ids = async (search: string) =>
      (await t.api('GET', `/api/webhooks/logs?search=${encodeURIComponent(search)}`)).body.data.logs.map(
        (l: { id: string }) => l.id,
      ) as string[];
    assert.deepEqual(await ids('EVT_FIXTURE_1'), [expected.badLog, expected.validLog]);
    assert.deepEqual(await ids('in the JOURNAL'), [expected.journalLog]);
    assert.deepEqual(await ids('/after-checkpoint'), [expected.journalLog]);
  });

  test('keeps the share link, the stored analysis, the replay history and the refusal counts', async () => {
    const page = await rawRequest(`${t.engine.receiverUrl}/share/${expected.shareToken}`, {
      method: 'GET',
      headers: [['Accept', 'application/json']],
    });
    assert.equal(page.status, 200);
    assert.equal(JSON.parse(page.body.toString('utf8')).data.id, expected.validLog);

    const analysis = await t.api('POST', `/api/webhooks/logs/${expected.badLog}/analyze`);
    assert.equal(analysis.status, 200);
    assert.equal(analysis.body.data.cached, true, 'the analysis made by 0.1.0 is served, not redone');

    const history = await t.api('GET', `/api/replay/${expected.validLog}/history`);
    assert.equal(history.body.data.history.length, 1);

    const metrics = await t.api('GET', '/api/observability/metrics?window=24h');
    assert.deepEqual(metrics.body.data.rejections, [{ reason: 'endpoint_inactive', count: 1 }]);
  });

  test('records its migrations by feature and number from then on, and opens again', async () => {
    await t.engine.checkpoint();
    // Upgraded rows come in 0.1.0's version order, so compare as sets.
    const byKey = (a: unknown[], b: unknown[]): number => String(a).localeCompare(String(b));
    assert.deepEqual(
      (await snapshotQuery(snapshotOf(dataDir), 'SELECT feature, number FROM migrations')).sort(byKey),
      [...TODAY].sort(byKey),
    );
    assert.deepEqual(
      await snapshotQuery(snapshotOf(dataDir), "SELECT name FROM sqlite_master WHERE name = 'schema_migrations'"),
      [],
    );
    await t.engine.stop();
    t = await startTestEngine({}, { clock }, dataDir);
    const r = await t.api('GET', '/api/webhooks/logs?limit=100');
    assert.equal(r.body.data.total, 4, 'three from 0.1.0 and the one delivered after the upgrade');
  });
});

describe('a fresh store', () => {
  test('gets the same migrations, in the same order, as an upgraded one', async () => {
    const t = await startTestEngine();
    try {
      await t.engine.checkpoint();
      assert.deepEqual(
        await snapshotQuery(snapshotOf(t.dataDir), 'SELECT feature, number FROM migrations ORDER BY rowid'),
        TODAY,
      );
    } finally {
      await t.stop();
    }
  });
});
