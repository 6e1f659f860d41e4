import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { CustomResponse } from '../../../server/endpoints/custom-response.ts';
import type { AnswerRecord, NewLog } from '../../../server/logs/log-types.ts';
import type { LogVerification } from '../../../server/logs/logs-schemas.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { ACCEPTED, customAnswer, readAnswer } from '../../../server/logs/sender-answers.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

const verification = (reason: LogVerification['reason']): LogVerification => ({
  scheme: 'hmac_sha256',
  result: reason ? 'invalid' : 'valid',
  reason,
  detail: reason ? 'No signature matched.' : null,
  matchedSecret: null,
});

describe('readAnswer: a log stored before answers were recorded (no AnswerRecord)', () => {
  test("a failed verification's 400 is rebuilt: custom responses never apply to one", () => {
    const r = readAnswer(
      { id: 'log_old', method: 'POST', status: 'failed', verification: verification('no_matching_signature') },
      null,
    );
    assert.equal(r.unknown, null);
    assert.equal(r.answer?.kind, 'verification_failed');
    assert.equal(r.answer?.status, 400);
    assert.deepEqual(JSON.parse(r.answer.body.toString()), {
      success: false,
      error: {
        code: 'SIGNATURE_VERIFICATION_FAILED',
        message: 'Signature verification failed (no_matching_signature): No signature matched.',
        details: { logId: 'log_old', reason: 'no_matching_signature' },
      },
    });
  });

  test('an accepted delivery is not guessed (it may have had a custom response), nor a refusal', () => {
    const ok = readAnswer({ id: 'log_ok', method: 'POST', status: 'success', verification: verification(null) }, null);
    assert.equal(ok.answer, null);
    assert.match(ok.unknown, /before Hookscope recorded its answers.*custom response/);
    const refused = readAnswer(
      { id: 'log_big', method: 'POST', status: 'failed', verification: verification('payload_too_large') },
      null,
    );
    assert.equal(refused.answer, null);
    assert.match(refused.unknown, /before Hookscope recorded its answers.*limit that was not kept/);
  });
});

describe('custom answers are stored once per account and content, and go with their last log', () => {
  const capture = (accountId: string, answer: AnswerRecord): NewLog => ({
    accountId,
    endpointId: 'ep_custom',
    method: 'POST',
    path: '/',
    query: {},
    rawHeaders: [],
    contentType: null,
    size: 2,
    declaredSize: 2,
    body: Buffer.from('{}'),
    truncated: false,
    sourceIp: null,
    receivedAt: 1_700_000_000_000,
    durationMs: 1,
    status: 'success',
    verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
    eventType: null,
    answer,
  });
  const response = (body: string): CustomResponse => ({ status: 202, headers: [], body, delayMs: 0 });

  test('one row for equal responses of an account, one per account; deleted with the last log naming it', async () => {
    const dir = await makeTempDir('hookscope-answers-');
    const store = await SqljsStore.open({ dir, migrations: [{ feature: 'logs', migrations: logsMigrations }] });
    try {
      const repo = new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 1000, maxBodyBytesPerAccount: 1 << 20 }));
      const rows = async () =>
        (
          await store.all<{ account_id: string; answer: string }>(
            'SELECT account_id, answer FROM log_custom_answers ORDER BY account_id, answer',
          )
        ).map((r) => [r.account_id, (JSON.parse(r.answer) as CustomResponse).body]);
      const shared = response('queued');
      await repo.insert('log_1', capture('acc_a', customAnswer(shared)), 'applied');
      await repo.insert('log_2', capture('acc_a', customAnswer(shared)), 'applied');
      // Equal content from another object (the endpoint reloaded): the same row.
      await repo.insert('log_3', capture('acc_a', customAnswer(response('queued'))), 'applied');
      await repo.insert('log_4', capture('acc_a', customAnswer(response('changed'))), 'applied');
      await repo.insert('log_5', capture('acc_b', customAnswer(response('queued'))), 'applied');
      await repo.insert('log_6', capture('acc_a', ACCEPTED), 'applied');
      assert.deepEqual(await rows(), [
        ['acc_a', 'changed'],
        ['acc_a', 'queued'],
        ['acc_b', 'queued'],
      ]);
      assert.deepEqual((await repo.find('acc_a', 'log_2'))?.answer, { status: 202, message: null, custom: shared });
      assert.deepEqual((await repo.find('acc_a', 'log_6'))?.answer, ACCEPTED);

      await repo.deleteByIds('acc_a', ['log_1', 'log_2', 'log_4']);
      assert.deepEqual(await rows(), [
        ['acc_a', 'queued'],
        ['acc_b', 'queued'],
      ]);
      assert.deepEqual((await repo.find('acc_a', 'log_3'))?.answer?.custom, shared);
      await repo.deleteByIds('acc_a', ['log_3']);
      assert.deepEqual(await rows(), [['acc_b', 'queued']]);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
