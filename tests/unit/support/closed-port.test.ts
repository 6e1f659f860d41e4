import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { closedPort } from '../../helpers/closed-port.ts';
import { describe, test } from '../../helpers/node-test.ts';

describe('closedPort (test helper)', () => {
  test('refuses connections while held, and nothing else can listen there', async () => {
    const held = await closedPort();
    try {
      assert.equal(held.url, `http://127.0.0.1:${held.port}`);
      const refused = await fetch(held.url).then(
        () => 'answered',
        (e: Error & { cause?: { code?: string } }) => e.cause?.code,
      );
      assert.equal(refused, 'ECONNREFUSED');

      const squatter = createServer();
      squatter.listen(held.port, '127.0.0.1');
      const [err] = (await once(squatter, 'error')) as [NodeJS.ErrnoException];
      assert.equal(err.code, 'EADDRINUSE');
    } finally {
      await held.release();
    }
  });
});
