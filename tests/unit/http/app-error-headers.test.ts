import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import {
  AppError,
  MethodNotAllowedError,
  NotFoundError,
  RequestTimeoutError,
  ServerBusyError,
  StoreUnavailableError,
  TooManyRequestsError,
} from '../../../server/errors/app-errors.ts';
import { mapError } from '../../../server/http/envelope.ts';

describe('AppError headers', () => {
  test('each error that needs a header sets it where it is thrown', () => {
    assert.deepEqual(new MethodNotAllowedError('Read-only.', 'GET, HEAD').headers, { allow: 'GET, HEAD' });
    assert.deepEqual(new TooManyRequestsError('Slow down.', 7).headers, { 'retry-after': '7' });
    assert.deepEqual(new ServerBusyError('Busy.', 1).headers, { 'retry-after': '1' });
    assert.deepEqual(new RequestTimeoutError('Too slow.').headers, { connection: 'close' });
    assert.deepEqual(new NotFoundError('Gone.').headers, {});
    assert.deepEqual(new StoreUnavailableError('Disk full.').headers, {});
  });

  test('mapError copies them to the answer, next to the status and the envelope', () => {
    assert.deepEqual(mapError(new MethodNotAllowedError('Share links are read-only.', 'GET, HEAD')), {
      status: 405,
      headers: { allow: 'GET, HEAD' },
      body: {
        success: false,
        error: { code: 'METHOD_NOT_ALLOWED', message: 'Share links are read-only.', details: { allow: 'GET, HEAD' } },
      },
    });
    // The body keeps details.retryAfterSeconds (docs/API.md); the header comes from the error's headers.
    assert.deepEqual(mapError(new TooManyRequestsError('Retry in 3 s.', 3)), {
      status: 429,
      headers: { 'retry-after': '3' },
      body: {
        success: false,
        error: { code: 'RATE_LIMITED', message: 'Retry in 3 s.', details: { retryAfterSeconds: 3 } },
      },
    });
    assert.deepEqual(mapError(new ServerBusyError('Busy.', 1, { logId: 'log_1', reason: 'server_busy' })), {
      status: 503,
      headers: { 'retry-after': '1' },
      body: {
        success: false,
        error: { code: 'SERVER_BUSY', message: 'Busy.', details: { logId: 'log_1', reason: 'server_busy' } },
      },
    });
  });

  test('the headers come from the error alone, not from its details', () => {
    const e = new AppError(429, 'RATE_LIMITED', 'No header asked for.', { retryAfterSeconds: 5 });
    assert.deepEqual(mapError(e).headers, {});
    const custom = new AppError(503, 'ENGINE_STOPPING', 'Stopping.', undefined, { 'retry-after': '2' });
    assert.deepEqual(mapError(custom).headers, { 'retry-after': '2' });
  });

  test('a mapped error does not share its headers object with the error', () => {
    const e = new MethodNotAllowedError('Read-only.', 'GET');
    const mapped = mapError(e);
    mapped.headers.vary = 'Accept';
    assert.deepEqual(e.headers, { allow: 'GET' });
  });
});
