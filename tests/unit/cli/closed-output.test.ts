import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from '../../helpers/node-test.ts';
import { whenOutputCloses } from '../../../server/cli/closed-output.ts';

const failure = (code: string) => Object.assign(new Error(`write ${code}`), { code });

test('EPIPE on either stream calls onClosed; any other error is thrown as before', () => {
  const stdout = new EventEmitter();
  const stderr = new EventEmitter();
  const exits: number[] = [];
  whenOutputCloses([stdout, stderr], () => exits.push(0));
  stdout.emit('error', failure('EPIPE'));
  stderr.emit('error', failure('EPIPE'));
  assert.deepEqual(exits, [0, 0]);
  assert.throws(() => stdout.emit('error', failure('EIO')), { code: 'EIO' });
  assert.throws(() => stderr.emit('error', failure('ENOSPC')), { code: 'ENOSPC' });
  assert.deepEqual(exits, [0, 0]);
});
