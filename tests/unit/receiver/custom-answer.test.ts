import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from '../../helpers/node-test.ts';
import type { CustomResponse } from '../../../server/endpoints/custom-response.ts';
import { writeCustomAnswer } from '../../../server/receiver/custom-answer.ts';

test('a cookie in a custom answer stored before validation refused it is never sent', async () => {
  const answer: CustomResponse = {
    status: 200,
    headers: [
      { name: 'Set-Cookie', value: 'hookscope_session=x; Path=/' },
      { name: 'X-Kept', value: '1' },
      { name: 'set-cookie2', value: 'y=1' },
    ],
    body: 'ok',
    delayMs: 0,
  };
  const server = createServer((_req, res) => writeCustomAnswer(res, answer, 'log_1'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    assert.equal(await res.text(), 'ok');
    assert.equal(res.headers.get('set-cookie'), null);
    assert.equal(res.headers.get('set-cookie2'), null);
    assert.equal(res.headers.get('x-kept'), '1');
    assert.equal(res.headers.get('content-security-policy'), "sandbox; default-src 'none'");
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
