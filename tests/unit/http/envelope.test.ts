import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from '../../helpers/node-test.ts';
import { rawRequest, type RawResponse } from '../../helpers/raw-request.ts';
import {
  AppError,
  MethodNotAllowedError,
  NotFoundError,
  RequestTimeoutError,
  TooManyRequestsError,
} from '../../../server/errors/app-errors.ts';
import { rawErrorResponse, sendData, sendError, sendJson } from '../../../server/http/envelope.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The headers an answer carries, without the ones Node adds to every answer. */
function own(r: RawResponse): Record<string, unknown> {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = r.headers;
  return rest;
}

describe('envelope writers', () => {
  let server: Server;
  let base: string;
  // Each test installs its handler; the server itself is shared.
  let handler: Handler = (_req, res) => res.end();
  before(async () => {
    // A writer that throws ends the answer at once, so the test fails on its assertion rather than a hang.
    server = createServer((req, res) => {
      try {
        handler(req, res);
      } catch {
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const answer = async (h: Handler, method = 'GET'): Promise<RawResponse> => {
    handler = h;
    return rawRequest(`${base}/x`, { method });
  };

  test('sendData: the success envelope, JSON headers and no-store', async () => {
    const r = await answer((_req, res) => sendData(res, { id: 'log_1' }));
    assert.equal(r.status, 200);
    assert.deepEqual(own(r), {
      'content-type': 'application/json; charset=utf-8',
      'content-length': '38',
      'cache-control': 'no-store',
    });
    assert.equal(r.body.toString(), '{"success":true,"data":{"id":"log_1"}}');
  });

  test('sendData: another status and extra headers', async () => {
    const r = await answer((_req, res) => sendData(res, [1], { status: 201, headers: { vary: 'Accept' } }));
    assert.equal(r.status, 201);
    assert.deepEqual(own(r), {
      'content-type': 'application/json; charset=utf-8',
      'content-length': '27',
      'cache-control': 'no-store',
      vary: 'Accept',
    });
    assert.equal(r.body.toString(), '{"success":true,"data":[1]}');
  });

  test('sendJson: a caller header of the same name wins over the defaults; HEAD gets the length, no body', async () => {
    const h: Handler = (_req, res) => sendJson(res, 202, { ok: 'é' }, { 'cache-control': 'private, max-age=5' });
    const r = await answer(h);
    assert.equal(r.status, 202);
    assert.deepEqual(own(r), {
      'content-type': 'application/json; charset=utf-8',
      'content-length': '11', // bytes, not characters: é is two
      'cache-control': 'private, max-age=5',
    });
    assert.equal(r.body.toString(), '{"ok":"é"}');
    const head = await answer(h, 'HEAD');
    assert.equal(head.headers['content-length'], '11');
    assert.equal(head.body.length, 0);
  });

  test("sendError: the error's status, envelope and its own headers (Retry-After)", async () => {
    const r = await answer((_req, res) => sendError(res, new TooManyRequestsError('Retry in 2 s.', 2)));
    assert.equal(r.status, 429);
    assert.deepEqual(own(r), {
      'content-type': 'application/json; charset=utf-8',
      'content-length': '109',
      'cache-control': 'no-store',
      'retry-after': '2',
    });
    assert.deepEqual(r.json(), {
      success: false,
      error: { code: 'RATE_LIMITED', message: 'Retry in 2 s.', details: { retryAfterSeconds: 2 } },
    });
  });

  test("sendError: the answer's headers first, the error's own win over them (Allow)", async () => {
    const r = await answer((_req, res) =>
      sendError(res, new MethodNotAllowedError('Read-only.', 'GET, HEAD'), {
        headers: { allow: 'POST', vary: 'Accept', 'x-frame-options': 'DENY' },
      }),
    );
    assert.equal(r.status, 405);
    assert.equal(r.headers.allow, 'GET, HEAD');
    assert.equal(r.headers.vary, 'Accept');
    assert.equal(r.headers['x-frame-options'], 'DENY');
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  });

  test('sendError: a fault is reported once and its id answered; a 4xx is not reported', async () => {
    const reported: unknown[] = [];
    const report = (e: unknown): string => {
      reported.push(e);
      return 'err_1';
    };
    const boom = new Error('disk on fire');
    const r = await answer((_req, res) => sendError(res, boom, { report }));
    assert.equal(r.status, 500);
    assert.deepEqual(r.json(), {
      success: false,
      error: {
        code: 'INTERNAL_ERROR',
        message: 'An unexpected error occurred; the engine logged it as err_1 (logs/engine.log in its data directory).',
        details: { errorId: 'err_1' },
      },
    });
    assert.deepEqual(reported, [boom]);
    const nf = await answer((_req, res) => sendError(res, new NotFoundError('No such thing.'), { report }));
    assert.equal(nf.status, 404);
    assert.deepEqual(reported, [boom]);
  });

  test('sendError after the answer started: the fault is reported and the connection cut, nothing written', async () => {
    const reported: unknown[] = [];
    const report = (e: unknown): string => {
      reported.push(e);
      return 'err_2';
    };
    const boom = new Error('stream broke');
    const r = answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      sendError(res, boom, { report });
    });
    await assert.rejects(r, (e: NodeJS.ErrnoException) => e.code === 'ECONNRESET' || e.message === 'aborted');
    assert.deepEqual(reported, [boom]);
  });

  test('rawErrorResponse: a whole HTTP/1.1 answer for a bare socket, closing the connection', () => {
    const body = '{"success":false,"error":{"code":"REQUEST_TIMEOUT","message":"Too slow."}}';
    assert.equal(
      rawErrorResponse(new RequestTimeoutError('Too slow.')),
      'HTTP/1.1 408 Request Timeout\r\n' +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${body.length}\r\n` +
        'cache-control: no-store\r\n' +
        'connection: close\r\n' +
        `\r\n${body}`,
    );
    // Every such answer closes, not only a timeout's.
    assert.match(
      rawErrorResponse(new AppError(400, 'BAD_REQUEST', 'Not HTTP.')),
      /^HTTP\/1\.1 400 Bad Request\r\n.*\r\ncache-control: no-store\r\nconnection: close\r\n\r\n\{/s,
    );
  });
});
